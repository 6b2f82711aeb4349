-- name: ListLedgerChanges :many
-- One page of the feed: the member's changes after the cursor, of
-- transactions that have all finished (below the snapshot's xmin), in commit
-- order. One range scan of ledger_change_feed_idx.
SELECT kind, record_id, xid, seq, deleted
FROM ledger_change
WHERE member_id = @member_id
  AND (xid, seq) > (@after_xid::bigint, @after_seq::bigint)
  AND xid < pg_snapshot_xmin(pg_current_snapshot())::text::bigint
ORDER BY xid, seq
LIMIT @max_rows;

-- name: GetLedgerFeed :one
-- The member's feed epoch and pruned horizon (no row: epoch 1, nothing pruned).
SELECT COALESCE((SELECT epoch FROM ledger_change_epoch e WHERE e.member_id = @member_id), 1)::bigint AS epoch,
    COALESCE((SELECT pruned_xid FROM ledger_change_epoch e WHERE e.member_id = @member_id), 0)::bigint AS pruned_xid;

-- name: BumpLedgerEpoch :exec
-- A restore starts the member's feed over: cursors of the old epoch answer 410.
INSERT INTO ledger_change_epoch (member_id, epoch) VALUES (@member_id, 2)
ON CONFLICT (member_id) DO UPDATE SET epoch = ledger_change_epoch.epoch + 1;

-- name: DeleteLedgerTombstones :exec
-- After a restore (at the end of its transaction) every cursor is void and
-- clients sync from the empty cursor, which needs no tombstones.
DELETE FROM ledger_change WHERE member_id = @member_id AND deleted;

-- name: PruneLedgerTombstones :execrows
-- Tombstones older than the cutoff go; each member's pruned horizon moves to
-- the newest transaction pruned, so cursors at or before it answer 410.
WITH gone AS (
    DELETE FROM ledger_change
    WHERE deleted AND changed_at < @cutoff
    RETURNING member_id, xid
)
INSERT INTO ledger_change_epoch (member_id, pruned_xid)
SELECT member_id, max(xid) FROM gone GROUP BY member_id
ON CONFLICT (member_id) DO UPDATE
    SET pruned_xid = GREATEST(ledger_change_epoch.pruned_xid, excluded.pruned_xid);
