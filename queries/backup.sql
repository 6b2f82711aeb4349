-- name: ListBackupWallets :many
SELECT * FROM wallet WHERE member_id = @member_id ORDER BY sort_order, id;

-- name: ListBackupEntries :many
-- Every entry of the member that is not one side of a transfer, oldest
-- first, as a backup lists them.
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
    currency, original_amount, exchange_rate, installment_months, pending, notif_key
) VALUES (
    @member_id, @wallet_id, @category_id, @type, @amount, @entry_date, @memo,
    @currency, @original_amount, @exchange_rate, @installment_months, @pending, @notif_key
);

-- name: ListEntryIDs :many
-- The ids of the member's entries in the order they were inserted.
SELECT id FROM account_entry WHERE member_id = @member_id ORDER BY id;

-- name: CopyEntryTags :copyfrom
INSERT INTO account_entry_tag (entry_id, tag_id) VALUES (@entry_id, @tag_id);
