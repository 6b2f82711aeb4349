-- name: CreateTransfer :one
INSERT INTO transfer (member_id, transfer_date, amount, memo, created_by, paid_by)
VALUES (@member_id, @transfer_date, @amount, @memo, sqlc.narg(created_by)::bigint, sqlc.narg(paid_by)::bigint)
RETURNING *;

-- name: LockTransfer :one
-- Serializes the changes of one transfer.
SELECT * FROM transfer WHERE member_id = @member_id AND id = @id FOR UPDATE;

-- name: UpdateTransfer :execrows
UPDATE transfer SET transfer_date = @transfer_date, amount = @amount, memo = @memo, fee_entry_id = sqlc.narg(fee_entry_id),
    paid_by = COALESCE(sqlc.narg(paid_by)::bigint, paid_by)
WHERE member_id = @member_id AND id = @id
    AND (sqlc.narg(if_versions)::bigint[] IS NULL OR version = ANY(sqlc.narg(if_versions)::bigint[]));

-- name: RaiseTransferVersion :exec
-- Raises a transfer's version when something its answer shows changed
-- outside its row (its sides confirmed).
UPDATE transfer SET amount = amount WHERE member_id = @member_id AND id = @id;

-- name: DeleteTransfer :execrows
DELETE FROM transfer WHERE member_id = @member_id AND id = @id
    AND (sqlc.narg(if_versions)::bigint[] IS NULL OR version = ANY(sqlc.narg(if_versions)::bigint[]));

-- name: DeleteMemberTransfers :exec
DELETE FROM transfer WHERE member_id = @member_id;

-- name: GetTransfer :one
SELECT t.id, t.transfer_date, t.amount, t.memo, t.created_at,
    f.id AS from_entry_id, f.wallet_id AS from_wallet_id,
    i.id AS to_entry_id, i.wallet_id AS to_wallet_id,
    fe.id AS fee_entry_id, fe.amount AS fee, f.pending, t.created_by, t.paid_by
FROM transfer t
JOIN account_entry f ON f.member_id = t.member_id AND f.transfer_id = t.id AND f.type = 'expense'
JOIN account_entry i ON i.member_id = t.member_id AND i.transfer_id = t.id AND i.type = 'income'
LEFT JOIN account_entry fe ON fe.member_id = t.member_id AND fe.id = t.fee_entry_id
WHERE t.member_id = @member_id AND t.id = @id;

-- name: ListTransfers :many
-- One page of transfers, newest date first.
SELECT t.id, t.transfer_date, t.amount, t.memo, t.created_at,
    f.id AS from_entry_id, f.wallet_id AS from_wallet_id,
    i.id AS to_entry_id, i.wallet_id AS to_wallet_id,
    fe.id AS fee_entry_id, fe.amount AS fee, f.pending, t.created_by, t.paid_by
FROM transfer t
JOIN account_entry f ON f.member_id = t.member_id AND f.transfer_id = t.id AND f.type = 'expense'
JOIN account_entry i ON i.member_id = t.member_id AND i.transfer_id = t.id AND i.type = 'income'
LEFT JOIN account_entry fe ON fe.member_id = t.member_id AND fe.id = t.fee_entry_id
WHERE t.member_id = @member_id
  AND (sqlc.narg(date_from)::date IS NULL OR t.transfer_date >= sqlc.narg(date_from)::date)
  AND (sqlc.narg(date_to)::date IS NULL OR t.transfer_date < sqlc.narg(date_to)::date)
ORDER BY t.transfer_date DESC, t.id DESC
LIMIT @lim OFFSET @off;

-- name: CountTransfers :one
-- How many transfers ListTransfers pages through (the same period).
SELECT count(*) FROM transfer
WHERE member_id = @member_id
  AND (sqlc.narg(date_from)::date IS NULL OR transfer_date >= sqlc.narg(date_from)::date)
  AND (sqlc.narg(date_to)::date IS NULL OR transfer_date < sqlc.narg(date_to)::date);

-- name: ListBackupTransfers :many
-- One page of the member's transfers with the wallets of their two sides,
-- by date then as they were made, after the keyset (after_date, after_id);
-- the first page starts before every transfer. A pending transfer (a card
-- bill payment proposed, not confirmed) is a proposal, not a record: it is
-- left out, and the payment-day job proposes it again after a restore.
SELECT t.id, t.transfer_date, t.amount, t.memo, t.fee_entry_id,
    f.wallet_id AS from_wallet_id, i.wallet_id AS to_wallet_id
FROM transfer t
JOIN account_entry f ON f.member_id = t.member_id AND f.transfer_id = t.id AND f.type = 'expense'
JOIN account_entry i ON i.member_id = t.member_id AND i.transfer_id = t.id AND i.type = 'income'
WHERE t.member_id = @member_id AND NOT f.pending
  AND (t.transfer_date, t.id) > (@after_date::date, @after_id::bigint)
ORDER BY t.transfer_date, t.id
LIMIT @batch_size;

-- name: ListFeeEntryIDs :many
-- The fee entries of the member's transfers (a backup names each by its
-- position among the entries).
SELECT fee_entry_id::bigint FROM transfer WHERE member_id = @member_id AND fee_entry_id IS NOT NULL;

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

-- name: ListTransfersByIDs :many
-- These transfers with their sides (the changes feed renders a page's
-- transfers in one statement).
SELECT t.id, t.transfer_date, t.amount, t.memo, t.created_at,
    f.id AS from_entry_id, f.wallet_id AS from_wallet_id,
    i.id AS to_entry_id, i.wallet_id AS to_wallet_id,
    fe.id AS fee_entry_id, fe.amount AS fee, f.pending, t.created_by, t.paid_by
FROM transfer t
JOIN account_entry f ON f.member_id = t.member_id AND f.transfer_id = t.id AND f.type = 'expense'
JOIN account_entry i ON i.member_id = t.member_id AND i.transfer_id = t.id AND i.type = 'income'
LEFT JOIN account_entry fe ON fe.member_id = t.member_id AND fe.id = t.fee_entry_id
WHERE t.member_id = @member_id AND t.id = ANY(@ids::bigint[]);
