-- name: ListLedgerChanges :many
-- One page of the feed: the member's changes after the cursor in the order
-- they were folded (FoldLedgerChanges). One range scan of
-- ledger_change_feed_idx.
SELECT kind, record_id, seq, deleted
FROM ledger_change
WHERE member_id = @member_id AND seq > @after_seq
ORDER BY seq
LIMIT @max_rows;

-- name: GetLedgerFeed :one
-- The member's feed epoch and pruned horizon (no row: epoch 1, nothing pruned).
SELECT COALESCE((SELECT epoch FROM ledger_change_epoch e WHERE e.member_id = @member_id), 1)::bigint AS epoch,
    COALESCE((SELECT pruned_seq FROM ledger_change_epoch e WHERE e.member_id = @member_id), 0)::bigint AS pruned_seq;

-- name: BumpLedgerEpoch :exec
-- A restore starts the member's feed over: cursors of the old epoch answer 410.
INSERT INTO ledger_change_epoch (member_id, epoch) VALUES (@member_id, 2)
ON CONFLICT (member_id) DO UPDATE SET epoch = ledger_change_epoch.epoch + 1;

-- name: DeleteLedgerTombstones :exec
-- After a restore (at the end of its transaction, once its notes are folded)
-- every cursor is void and clients sync from the empty cursor, which needs
-- no tombstones.
DELETE FROM ledger_change WHERE member_id = @member_id AND deleted;

-- name: FoldLedgerChanges :one
-- Gives the member's notes committed so far positions in the feed
-- (ledger_change_fold, schema/00007_ledger_change.sql: the member's feed
-- lock, then one statement). wait false: false, nothing folded, when another
-- transaction holds the lock.
SELECT ledger_change_fold(@member_id::bigint, @wait::boolean)::boolean AS folded;

-- name: ListMembersWithNotes :many
-- Members with notes not folded yet, for the fold job (a few at most: every
-- feed read folds its member's).
SELECT DISTINCT member_id FROM ledger_change_pending LIMIT @max_members;

-- name: DeleteOrphanNotes :execrows
-- Notes of members deleted since: none is left by an account deletion
-- (ledger_change_forget), this is the net under it.
DELETE FROM ledger_change_pending p WHERE NOT EXISTS (SELECT 1 FROM member m WHERE m.id = p.member_id);

-- name: PruneLedgerTombstones :execrows
-- Tombstones older than the cutoff go; each member's pruned horizon moves to
-- the newest position pruned, so cursors before it answer 410.
WITH gone AS (
    DELETE FROM ledger_change
    WHERE deleted AND changed_at < @cutoff
    RETURNING member_id, seq
)
INSERT INTO ledger_change_epoch (member_id, pruned_seq)
SELECT member_id, max(seq) FROM gone GROUP BY member_id
ON CONFLICT (member_id) DO UPDATE
    SET pruned_seq = GREATEST(ledger_change_epoch.pruned_seq, excluded.pruned_seq);
