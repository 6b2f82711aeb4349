-- name: ListLedgerChanges :many
-- One page of the feed: the member's changes after the cursor in commit
-- order (seq is stamped at commit under the member's feed lock). One range
-- scan of ledger_change_feed_idx.
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
-- After a restore (at the end of its transaction) every cursor is void and
-- clients sync from the empty cursor, which needs no tombstones: neither the
-- committed ones nor this transaction's notes of records it deleted (they
-- are folded in only at commit, ledger_change_fold), nor the committed rows of
-- those records.
--
-- Every step finds rows by key, so no plan is quadratic: a restore deletes
-- and notes a whole ledger (100,000 entries: 200,000 notes), while the
-- pending table's statistics, taken between transactions, promise a few
-- rows. Joined by kind and record only (no index), the notes were scanned
-- once per deleted record: a nested loop of 10^10 rows that ran past the
-- restore's deadline whenever the planner chose it. The committed rows of
-- deleted records are joined by primary key rather than tested in an OR with
-- EXISTS, which runs as a subplan (hashed only while the planner expects
-- the deleted records to fit in memory; else scanned once per row).
WITH gone AS MATERIALIZED (
    SELECT DISTINCT kind, record_id FROM ledger_change_pending
    WHERE xid = pg_current_xact_id()::text::bigint AND member_id = @member_id AND deleted
), dropped AS (
    DELETE FROM ledger_change_pending p USING gone g
    WHERE p.xid = pg_current_xact_id()::text::bigint AND p.member_id = @member_id
      AND p.kind = g.kind AND p.record_id = g.record_id
), forgotten AS (
    DELETE FROM ledger_change c USING gone g
    WHERE c.member_id = @member_id AND c.kind = g.kind AND c.record_id = g.record_id
)
DELETE FROM ledger_change c
WHERE c.member_id = @member_id AND c.deleted;

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
