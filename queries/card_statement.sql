-- The cards area reads a card's cycle (wallet) and its entries
-- (account_entry) to compute its statements; it writes neither
-- (internal/app/ownership_test.go crossReads gives the reasons). It owns
-- card_bill_payment, the bills its payment-day job proposed, card_cycle_past
-- and card_checkpoint (schema/00010_card_checkpoint.sql), which it judges
-- by the changes feed (ledger_change, ledger_change_epoch).

-- name: GetCardCycle :one
-- A wallet of the member with its statement cycle (all null for none).
SELECT id, type, statement_day, payment_day
FROM wallet
WHERE member_id = @member_id AND id = @id;

-- name: ListCycleCards :batchmany
-- The member's CARD wallets with a statement cycle (one when wallet_id is
-- given), in the wallets' order, each with its schedule ("statementDay/
-- paymentDay", then ",until statementDay/paymentDay" for each past cycle,
-- oldest first), its checkpoint, and the entries its statements hold: after
-- the checkpoint when use_checkpoints is set and the checkpoint holds
-- (checkpoint_used), else all of them, as arrays: the confirmed ones and the
-- pending ones awaiting their rate (other pending entries count nowhere until
-- confirmed), a transfer side flagged (into the card it is a payment, out of
-- it a charge). Each card's entries are one range of
-- account_entry_wallet_date_idx. The arrays are in no order (one aggregate
-- node feeds every array_agg the same rows in the same order, so element i of
-- each is the same entry); Go sorts them by date and id. An ORDER BY in each
-- array_agg cost seven sorts a card on PostgreSQL 15. A :batchmany: the
-- forecast sends it with its own queries, in one round trip.
--
-- A checkpoint holds under the schedule it was computed under, in the
-- changes feed's epoch it was computed in, when no tombstone after its
-- position (seq) was pruned and no entry changed after its position that it
-- may not have seen as it is now: a deleted entry or one written more than
-- once (version > 1: its earlier state is not known, so every card's
-- checkpoint is dropped) or a new entry of the card dated on or before its
-- closing day. The feed is read from the earliest checkpoint's position by
-- its index (member_id, seq), with the member's entry notes not folded into
-- it yet (ledger_change_pending: each after every position) that some
-- checkpoint did not see, at most 1,000 changes of each: past that many the
-- checkpoints are not judged, and are recomputed. A change counts against a
-- checkpoint only when the transaction that wrote it was not visible to the
-- snapshot the checkpoint was computed in (a fold gives positions after the
-- checkpoint's to changes it saw). seq_now and epoch are the
-- feed's position and epoch as this statement reads the entries, what a
-- checkpoint computed from its answer is stamped with.
WITH f AS MATERIALIZED (
    SELECT COALESCE((SELECT max(c.seq) FROM ledger_change c WHERE c.member_id = @member_id), 0)::bigint AS seq_now,
        pg_current_snapshot() AS snapshot_now,
        COALESCE((SELECT x.epoch FROM ledger_change_epoch x WHERE x.member_id = @member_id), 1)::bigint AS epoch,
        COALESCE((SELECT x.pruned_seq FROM ledger_change_epoch x WHERE x.member_id = @member_id), 0)::bigint AS pruned_seq
), folded AS MATERIALIZED (
    SELECT c.seq, c.kind, c.record_id, c.xid FROM ledger_change c
    WHERE @use_checkpoints::boolean AND c.member_id = @member_id AND c.seq > COALESCE((
        SELECT min(k.seq) FROM card_checkpoint k
        JOIN wallet cw ON cw.member_id = k.member_id AND cw.id = k.wallet_id
        WHERE k.member_id = @member_id AND cw.type = 'CARD' AND cw.statement_day IS NOT NULL), 9223372036854775807)
    ORDER BY c.seq DESC
    LIMIT 1001
), since AS MATERIALIZED (
    SELECT c.seq, c.kind, c.record_id, c.xid FROM folded c
    UNION ALL
    -- The entry notes not folded yet: changes after every position, those
    -- that some checkpoint's snapshot did not see.
    SELECT 9223372036854775807, p.kind, p.record_id, p.xid FROM (
        SELECT n.kind, n.record_id, n.xid FROM ledger_change_pending n
        WHERE @use_checkpoints::boolean AND n.member_id = @member_id AND n.kind = 'ENTRY'
          AND EXISTS (SELECT 1 FROM card_checkpoint k WHERE k.member_id = @member_id
                      AND NOT pg_visible_in_snapshot(n.xid::text::xid8, k.snapshot))
        LIMIT 1001) AS p
), changed AS MATERIALIZED (
    SELECT s.seq, s.xid, e.wallet_id, e.entry_date, (e.id IS NULL OR e.version > 1) AS unknown
    FROM since s
    LEFT JOIN account_entry e ON e.member_id = @member_id AND e.id = s.record_id
    WHERE s.kind = 'ENTRY'
), cc AS (
    SELECT w.id, w.sort_order, w.statement_day::integer AS statement_day, w.payment_day::integer AS payment_day,
        w.payment_wallet_id::bigint AS payment_wallet_id,
        (w.statement_day || '/' || w.payment_day || COALESCE((
            SELECT string_agg(',' || to_char(p.until_date, 'YYYY-MM-DD') || ' ' || p.statement_day || '/' || p.payment_day, '' ORDER BY p.until_date)
            FROM card_cycle_past p WHERE p.member_id = w.member_id AND p.wallet_id = w.id), ''))::text AS schedule,
        k.wallet_id AS k_wallet_id, k.closing_date, k.consumed, k.carry_closings, k.carry_amounts, k.schedule AS k_schedule,
        k.seq AS k_seq, k.snapshot AS k_snapshot, k.epoch AS k_epoch, f.seq_now, f.snapshot_now, f.epoch, f.pruned_seq
    FROM wallet w
    CROSS JOIN f
    LEFT JOIN card_checkpoint k ON k.member_id = w.member_id AND k.wallet_id = w.id
    WHERE w.member_id = @member_id AND w.type = 'CARD' AND w.statement_day IS NOT NULL
      AND (sqlc.narg(wallet_id)::bigint IS NULL OR w.id = sqlc.narg(wallet_id)::bigint)
), judged AS MATERIALIZED (
    SELECT cc.*,
        (@use_checkpoints::boolean AND cc.k_wallet_id IS NOT NULL AND cc.k_schedule = cc.schedule
            AND cc.k_epoch = cc.epoch AND cc.k_seq >= cc.pruned_seq
            AND (SELECT count(*) FROM since) <= 1000
            AND NOT EXISTS (
                SELECT 1 FROM changed c
                WHERE c.seq > cc.k_seq AND NOT pg_visible_in_snapshot(c.xid::text::xid8, cc.k_snapshot)
                  AND (c.unknown OR (c.wallet_id = cc.id AND c.entry_date <= cc.closing_date))
        )) AS used
    FROM cc
)
SELECT j.id, j.statement_day, j.payment_day, j.payment_wallet_id, j.schedule,
    j.used::boolean AS checkpoint_used,
    (j.used AND j.k_seq = j.seq_now)::boolean AS checkpoint_current,
    (CASE WHEN j.used THEN j.closing_date ELSE DATE '0001-01-01' END)::date AS checkpoint_closing,
    (CASE WHEN j.used THEN j.consumed ELSE 0 END)::bigint AS checkpoint_consumed,
    (CASE WHEN j.used THEN j.carry_closings ELSE '{}' END)::date[] AS checkpoint_carry_closings,
    (CASE WHEN j.used THEN j.carry_amounts ELSE '{}' END)::bigint[] AS checkpoint_carry_amounts,
    j.seq_now, j.snapshot_now::text AS snapshot_now, j.epoch,
    COALESCE(x.ids, '{}')::bigint[] AS entry_ids,
    COALESCE(x.dates, '{}')::date[] AS entry_dates,
    COALESCE(x.incomes, '{}')::boolean[] AS entry_incomes,
    COALESCE(x.amounts, '{}')::bigint[] AS entry_amounts,
    COALESCE(x.months, '{}')::integer[] AS entry_months,
    COALESCE(x.awaiting, '{}')::boolean[] AS entry_awaiting,
    COALESCE(x.transfers, '{}')::boolean[] AS entry_transfers
FROM judged j
LEFT JOIN LATERAL (
    SELECT array_agg(e.id) AS ids, array_agg(e.entry_date) AS dates, array_agg(e.type = 'income') AS incomes,
        array_agg(e.amount) AS amounts, array_agg(COALESCE(e.installment_months, 0)) AS months,
        array_agg(e.awaiting_rate) AS awaiting, array_agg(e.transfer_id IS NOT NULL) AS transfers
    FROM account_entry e
    WHERE e.member_id = @member_id AND e.wallet_id = j.id AND (NOT e.pending OR e.awaiting_rate)
      AND e.entry_date > (CASE WHEN j.used THEN j.closing_date ELSE DATE '0001-01-01' END)
) x ON true
ORDER BY j.sort_order, j.id;

-- name: SaveCardCheckpoints :exec
-- Records the cards' checkpoints computed at the feed's position @seq in
-- @epoch, in the snapshot @snapshot (none: a statement that writes nothing). One computed at an older
-- position of the same epoch does not replace a newer one.
-- A card's carry comes as text ('{}' or '{2026-12-04,...}' and '{1000,...}'),
-- one array literal per card.
INSERT INTO card_checkpoint (member_id, wallet_id, closing_date, consumed, carry_closings, carry_amounts, schedule, seq, snapshot, epoch)
SELECT @member_id, unnest(@wallet_ids::bigint[]), unnest(@closing_dates::date[]), unnest(@consumed::bigint[]),
    unnest(@carry_closings::text[])::date[], unnest(@carry_amounts::text[])::bigint[],
    unnest(@schedules::text[]), @seq::bigint, CAST(@snapshot::text AS pg_snapshot), @epoch::bigint
ON CONFLICT (member_id, wallet_id) DO UPDATE
SET closing_date = excluded.closing_date, consumed = excluded.consumed, carry_closings = excluded.carry_closings,
    carry_amounts = excluded.carry_amounts, schedule = excluded.schedule, seq = excluded.seq,
    snapshot = excluded.snapshot, epoch = excluded.epoch
WHERE card_checkpoint.epoch <> excluded.epoch OR card_checkpoint.seq <= excluded.seq;

-- name: ListCycleCardMembers :many
-- The members with a cycle card, after the keyset, a batch at a time (the
-- payment-day job).
SELECT DISTINCT member_id FROM wallet
WHERE statement_day IS NOT NULL AND member_id > @after::bigint
ORDER BY member_id
LIMIT @lim;

-- name: ClaimCardBill :execrows
-- Claims the proposal of one statement's bill: 0 rows when it was proposed
-- already.
INSERT INTO card_bill_payment (member_id, wallet_id, closing_date)
VALUES (@member_id, @wallet_id, @closing_date)
ON CONFLICT DO NOTHING;

-- name: SetCardBillTransfer :exec
UPDATE card_bill_payment SET transfer_id = @transfer_id::bigint
WHERE member_id = @member_id AND wallet_id = @wallet_id AND closing_date = @closing_date;

-- name: GetCardBillOfTransfer :one
-- The statement a proposed bill payment is for.
SELECT wallet_id, closing_date FROM card_bill_payment
WHERE member_id = @member_id AND transfer_id = @transfer_id::bigint;

-- name: LockCardForBill :one
-- Holds a card while a bill payment into it is confirmed: FOR UPDATE waits
-- for the transactions writing entries on the card (their foreign key
-- key-shares its row) and keeps new ones out until the confirmation
-- commits, so the statement is read with every payment into it.
SELECT id FROM wallet WHERE member_id = @member_id AND id = @id FOR UPDATE;

-- name: AddCardCyclePast :exec
INSERT INTO card_cycle_past (member_id, wallet_id, until_date, statement_day, payment_day)
VALUES (@member_id, @wallet_id, @until_date, @statement_day, @payment_day);

-- name: DeleteCardCyclePast :exec
DELETE FROM card_cycle_past WHERE member_id = @member_id AND wallet_id = @wallet_id;
