-- The cards area reads a card's cycle (wallet) and its entries
-- (account_entry) to compute its statements; it writes neither
-- (internal/app/ownership_test.go crossReads gives the reasons). It owns
-- card_bill_payment, the bills its payment-day job proposed.

-- name: GetCardCycle :one
-- A wallet of the member with its statement cycle (all null for none).
SELECT id, type, statement_day, payment_day
FROM wallet
WHERE member_id = @member_id AND id = @id;

-- name: ListCycleCards :many
-- The member's CARD wallets with a statement cycle, in the wallets' order.
SELECT id, statement_day::integer AS statement_day, payment_day::integer AS payment_day,
    payment_wallet_id::bigint AS payment_wallet_id
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

-- name: ListCardCyclePast :many
-- The past cycles of the member's cards (of one card when wallet_id is
-- given), each card's oldest first.
SELECT wallet_id, until_date, statement_day, payment_day FROM card_cycle_past
WHERE member_id = @member_id AND (sqlc.narg(wallet_id)::bigint IS NULL OR wallet_id = sqlc.narg(wallet_id)::bigint)
ORDER BY wallet_id, until_date;

-- name: AddCardCyclePast :exec
INSERT INTO card_cycle_past (member_id, wallet_id, until_date, statement_day, payment_day)
VALUES (@member_id, @wallet_id, @until_date, @statement_day, @payment_day);

-- name: DeleteCardCyclePast :exec
DELETE FROM card_cycle_past WHERE member_id = @member_id AND wallet_id = @wallet_id;
