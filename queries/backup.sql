-- name: ListBackupWallets :many
SELECT * FROM wallet WHERE member_id = @member_id ORDER BY sort_order, id;

-- name: ListBackupEntries :many
-- Every entry of the member that is not one side of a transfer (fees are
-- ordinary entries and are in it), oldest first, as a backup lists them.
SELECT * FROM account_entry
WHERE member_id = @member_id AND transfer_id IS NULL
ORDER BY entry_date, created_at, id;

-- name: ListBackupEntryTags :many
-- The tag names of all of the member's entries, in one query.
SELECT et.entry_id, t.name
FROM account_entry_tag et JOIN account_tag t ON t.id = et.tag_id
WHERE t.member_id = @member_id
ORDER BY et.entry_id, t.sort_order, t.id;

-- name: CopyEntries :copyfrom
INSERT INTO account_entry (
    member_id, wallet_id, category_id, type, amount, entry_date, memo,
    currency, original_amount, exchange_rate, installment_months, pending, notif_key, transfer_id
) VALUES (
    @member_id, @wallet_id, @category_id, @type, @amount, @entry_date, @memo,
    @currency, @original_amount, @exchange_rate, @installment_months, @pending, @notif_key, @transfer_id
);

-- name: ListEntryIDs :many
-- The ids of the member's entries that this transaction inserted, in the
-- order it inserted them.
SELECT id FROM account_entry WHERE member_id = @member_id AND xmin = pg_current_xact_id()::xid ORDER BY id;

-- name: CopyEntryTags :copyfrom
INSERT INTO account_entry_tag (entry_id, tag_id) VALUES (@entry_id, @tag_id);

-- name: ListBackupTransfers :many
-- Every transfer of the member with the wallets of its two sides, by date
-- then as they were made.
SELECT t.id, t.transfer_date, t.amount, t.memo, t.fee_entry_id,
    f.wallet_id AS from_wallet_id, i.wallet_id AS to_wallet_id
FROM transfer t
JOIN account_entry f ON f.member_id = t.member_id AND f.transfer_id = t.id AND f.type = 'expense'
JOIN account_entry i ON i.member_id = t.member_id AND i.transfer_id = t.id AND i.type = 'income'
WHERE t.member_id = @member_id
ORDER BY t.transfer_date, t.id;

-- name: CopyTransfers :copyfrom
INSERT INTO transfer (member_id, transfer_date, amount, memo) VALUES (@member_id, @transfer_date, @amount, @memo);

-- name: ListTransferIDs :many
-- The ids of the member's transfers that this transaction inserted, in the
-- order it inserted them.
SELECT id FROM transfer WHERE member_id = @member_id AND xmin = pg_current_xact_id()::xid ORDER BY id;

-- name: SetTransferFees :execrows
-- Points transfers at their fee entries, pairwise.
UPDATE transfer t SET fee_entry_id = f.entry_id
FROM (SELECT unnest(@transfer_ids::bigint[]) AS transfer_id, unnest(@entry_ids::bigint[]) AS entry_id) f
WHERE t.member_id = @member_id AND t.id = f.transfer_id;

-- name: ListBackupBudgets :many
-- The monthly budgets of the latest month up to (year, month) that has any.
SELECT b.category_id, b.amount FROM budget b
WHERE b.member_id = @member_id AND (b.year, b.month) = (
    SELECT l.year, l.month FROM budget l
    WHERE l.member_id = @member_id AND (l.year, l.month) <= (@year::integer, @month::integer)
    ORDER BY l.year DESC, l.month DESC LIMIT 1)
ORDER BY b.category_id;

-- name: ListBackupOnetimeBudgets :many
SELECT name, amount, start_date, end_date, category_id FROM budget_onetime
WHERE member_id = @member_id
ORDER BY start_date, id;
