-- The cards area reads a card's cycle (wallet) and its entries
-- (account_entry) to compute its statements; it writes neither
-- (internal/app/ownership_test.go crossReads gives the reasons).

-- name: GetCardCycle :one
-- A wallet of the member with its statement cycle (all null for none).
SELECT id, type, statement_day, payment_day
FROM wallet
WHERE member_id = @member_id AND id = @id;

-- name: ListCycleCards :many
-- The member's CARD wallets with a statement cycle, in the wallets' order.
SELECT id, statement_day::integer AS statement_day, payment_day::integer AS payment_day
FROM wallet
WHERE member_id = @member_id AND type = 'CARD' AND statement_day IS NOT NULL
ORDER BY sort_order, id;

-- name: ListCardStatementEntries :many
-- The entries of the member's cycle cards (of one card when wallet_id is
-- given) that statements hold: the confirmed ones and the pending ones
-- awaiting their rate (other pending entries count nowhere until confirmed).
-- A transfer side is flagged: into the card it is a payment, out of it a
-- charge.
SELECT e.wallet_id::bigint AS wallet_id, e.id, e.entry_date, e.type, e.amount, e.installment_months,
    e.awaiting_rate, (e.transfer_id IS NOT NULL)::boolean AS is_transfer
FROM account_entry e
JOIN wallet w ON w.member_id = e.member_id AND w.id = e.wallet_id
WHERE e.member_id = @member_id
  AND w.type = 'CARD' AND w.statement_day IS NOT NULL
  AND (sqlc.narg(wallet_id)::bigint IS NULL OR e.wallet_id = sqlc.narg(wallet_id)::bigint)
  AND (NOT e.pending OR e.awaiting_rate)
ORDER BY e.wallet_id, e.entry_date, e.id;
