-- name: ListWalletsWithBalance :many
-- Balances of every wallet in one pass: opening balance plus its confirmed
-- entries (pending ones count in no balance).
SELECT sqlc.embed(w), (w.opening_balance + COALESCE(b.net, 0))::numeric AS balance
FROM wallet w
LEFT JOIN (
    SELECT e.wallet_id, SUM(CASE WHEN e.type = 'income' THEN e.amount ELSE -e.amount END) AS net
    FROM account_entry e
    WHERE e.member_id = @member_id AND NOT e.pending AND e.wallet_id IS NOT NULL
    GROUP BY e.wallet_id
) b ON b.wallet_id = w.id
WHERE w.member_id = @member_id
ORDER BY w.sort_order, w.id;

-- name: GetWalletWithBalance :one
SELECT sqlc.embed(w), (w.opening_balance + COALESCE((
    SELECT SUM(CASE WHEN e.type = 'income' THEN e.amount ELSE -e.amount END)
    FROM account_entry e
    WHERE e.member_id = @member_id AND e.wallet_id = w.id AND NOT e.pending
), 0))::numeric AS balance
FROM wallet w
WHERE w.member_id = @member_id AND w.id = @id;

-- name: GetWallet :one
SELECT * FROM wallet WHERE member_id = @member_id AND id = @id;

-- name: CountWalletsOfType :one
SELECT count(*) FROM wallet WHERE member_id = @member_id AND type = @type;

-- name: CreateWallet :one
INSERT INTO wallet (
    member_id, name, type, opening_balance, account_number,
    loan_amount, loan_rate, loan_method, loan_months, loan_start, loan_payment,
    manual_valuation, current_value, statement_day, payment_day, payment_wallet_id, sort_order
) VALUES (
    @member_id, @name, @type, @opening_balance, @account_number,
    @loan_amount, @loan_rate, @loan_method, @loan_months, @loan_start, @loan_payment,
    @manual_valuation, @current_value,
    sqlc.narg(statement_day), sqlc.narg(payment_day), sqlc.narg(payment_wallet_id),
    (SELECT COALESCE(MAX(sort_order), 0) + 1 FROM wallet WHERE member_id = @member_id)
)
RETURNING *;

-- name: UpdateWallet :one
UPDATE wallet SET
    name = @name, type = @type, opening_balance = @opening_balance, account_number = @account_number,
    loan_amount = @loan_amount, loan_rate = @loan_rate, loan_method = @loan_method,
    loan_months = @loan_months, loan_start = @loan_start, loan_payment = @loan_payment,
    manual_valuation = @manual_valuation, current_value = @current_value,
    statement_day = sqlc.narg(statement_day), payment_day = sqlc.narg(payment_day),
    payment_wallet_id = sqlc.narg(payment_wallet_id)
WHERE member_id = @member_id AND id = @id
    AND (sqlc.narg(if_versions)::bigint[] IS NULL OR version = ANY(sqlc.narg(if_versions)::bigint[]))
RETURNING *;

-- name: WalletPaysCards :one
-- Whether some card of the member is paid from this wallet.
SELECT EXISTS (SELECT 1 FROM wallet WHERE member_id = @member_id AND payment_wallet_id = @wallet_id::bigint);

-- name: DeleteWallet :execrows
DELETE FROM wallet WHERE member_id = @member_id AND id = @id
    AND (sqlc.narg(if_versions)::bigint[] IS NULL OR version = ANY(sqlc.narg(if_versions)::bigint[]));

-- name: CountOwnedWallets :one
SELECT count(*) FROM wallet WHERE member_id = @member_id AND id = ANY(@ids::bigint[]);

-- name: ReorderWallets :exec
-- The listed wallets first, in the given order, then the others as they were.
WITH wanted AS (
    SELECT x.id, x.ord FROM unnest(@ids::bigint[]) WITH ORDINALITY AS x(id, ord)
), ranked AS (
    SELECT w.id, row_number() OVER (ORDER BY wanted.ord NULLS LAST, w.sort_order, w.id) AS rn
    FROM wallet w LEFT JOIN wanted ON wanted.id = w.id
    WHERE w.member_id = @member_id
)
UPDATE wallet SET sort_order = ranked.rn
FROM ranked WHERE wallet.id = ranked.id AND wallet.member_id = @member_id;

-- name: WalletInUse :one
SELECT EXISTS (SELECT 1 FROM account_entry WHERE member_id = @member_id AND wallet_id = @wallet_id);

-- name: MoveWalletEntries :exec
UPDATE account_entry SET wallet_id = @to_wallet_id WHERE member_id = @member_id AND wallet_id = @wallet_id;

-- name: MoveWalletTemplates :exec
-- Recurring and quick entries follow the wallet's entries, or lose the wallet.
WITH r AS (
    UPDATE recurring SET wallet_id = sqlc.narg(to_wallet_id) WHERE recurring.member_id = @member_id AND recurring.wallet_id = @wallet_id
)
UPDATE quick_entry SET wallet_id = sqlc.narg(to_wallet_id) WHERE quick_entry.member_id = @member_id AND quick_entry.wallet_id = @wallet_id;

-- name: LockMemberLedger :exec
-- The member's ledger lock, exclusive: restore and account deletion, which
-- replace or remove the whole ledger (ledger.LockLedgerTx; the rule is in
-- internal/ledger/locks.go).
SELECT pg_advisory_xact_lock(hashtextextended('ledger:' || @member_id::bigint, 0));

-- name: LockMemberLedgerShared :exec
-- The member's ledger lock, shared: every other write of the ledger. The
-- key is LockMemberLedger's, and CreateEntryChecked takes it too.
SELECT pg_advisory_xact_lock_shared(hashtextextended('ledger:' || @member_id::bigint, 0));

-- name: LockMemberLedgerReservations :exec
-- Serialises a member's count-then-insert writes (free limits, default
-- categories, CSV import's duplicate check) among themselves, under the
-- shared ledger lock, which does not.
SELECT pg_advisory_xact_lock(hashtextextended('ledger_limit:' || @member_id::bigint, 0));

-- name: DeleteMemberWallets :exec
DELETE FROM wallet WHERE member_id = @member_id;

-- name: WalletHasInstallments :one
SELECT EXISTS (SELECT 1 FROM account_entry WHERE member_id = @member_id AND wallet_id = @wallet_id AND installment_months IS NOT NULL);

-- name: ListNotifyWallets :many
-- The member's wallets a notification can be matched to, in their order.
SELECT id, name, type FROM wallet WHERE member_id = @member_id ORDER BY sort_order, id;

-- name: ListBackupWallets :many
SELECT * FROM wallet WHERE member_id = @member_id ORDER BY sort_order, id;

-- name: ListWalletsWithBalanceByIDs :many
-- These wallets with their balances (the changes feed renders a page's
-- wallets in one statement).
SELECT sqlc.embed(w), (w.opening_balance + COALESCE(b.net, 0))::numeric AS balance
FROM wallet w
LEFT JOIN (
    SELECT e.wallet_id, SUM(CASE WHEN e.type = 'income' THEN e.amount ELSE -e.amount END) AS net
    FROM account_entry e
    WHERE e.member_id = @member_id AND NOT e.pending AND e.wallet_id = ANY(@ids::bigint[])
    GROUP BY e.wallet_id
) b ON b.wallet_id = w.id
WHERE w.member_id = @member_id AND w.id = ANY(@ids::bigint[]);

-- name: SetWalletCycle :execrows
-- Gives a CARD its statement cycle (a restore, once every wallet exists).
UPDATE wallet SET statement_day = @statement_day::integer, payment_day = @payment_day::integer,
    payment_wallet_id = @payment_wallet_id::bigint
WHERE member_id = @member_id AND id = @id AND type = 'CARD';

-- name: LockMemberLedgerTotals :exec
-- The member's totals lock, exclusive, held to the commit: the write check
-- (ledger.CheckTotalsTx) takes it after the write and before reading the
-- totals, so two writes of the member check one after the other, the second
-- seeing what the first committed: together they cannot pass the bound.
-- It is the last lock of its transaction (database.LockOrder); its holder
-- only reads, then commits.
SELECT pg_advisory_xact_lock(hashtextextended('ledger_total:' || @member_id::bigint, 0));

-- name: TotalsForWriteCheck :many
-- The write check of a single write (ledger.CheckTotalsTx) in one
-- statement: the member's totals lock taken shared (the first row, so it is
-- taken whatever follows; held to the commit, it makes a multi-row write,
-- which takes it exclusive, wait for the single writes in flight and them
-- wait for it), then every wallet's balance as ListWalletBalancesForCheck
-- answers it ('wallet' rows), then the month totals of @days as
-- LedgerMonthTotalsOfDays answers them ('month' rows), but only where they
-- could pass @month_bound: no month is summed while the member's wallets'
-- gross (wallet_net: their entries' amounts without sign, which bound any
-- month's income and expense) is within it and no confirmed entry is off
-- every wallet (account_entry_walletless_idx). So a write's check reads
-- the member's wallets and pending deltas, not the month it writes in.
WITH totals_lock AS MATERIALIZED (
    SELECT pg_advisory_xact_lock_shared(hashtextextended('ledger_total:' || @member_id::bigint, 0)) AS taken
), bounded AS MATERIALIZED (
    SELECT NOT EXISTS (
            SELECT 1 FROM account_entry e WHERE e.member_id = @member_id AND e.wallet_id IS NULL AND NOT e.pending)
        AND COALESCE((SELECT sum(t.gross) FROM wallet_net t
                      WHERE t.member_id = @member_id AND t.period = 'total' AND t.start = '-infinity'), 0)
          + COALESCE((SELECT sum(d.gross) FROM wallet_net_delta d WHERE d.member_id = @member_id), 0)
          <= @month_bound::numeric AS within
), mb AS (
    SELECT m.month_start_day - 1 AS k FROM member m WHERE m.id = @member_id
), g AS (
    SELECT (date_trunc('month', (u.day - mb.k)::timestamp) + mb.k * interval '1 day')::date AS from_date,
           bool_or(u.typ = 'income') AS added_income, bool_or(u.typ = 'expense') AS added_expense
    FROM (SELECT unnest(@days::date[]) AS day, unnest(@types::text[]) AS typ) AS u, mb
    WHERE NOT (SELECT within FROM bounded)
    GROUP BY 1
)
SELECT 'lock'::text AS kind, 0::bigint AS id, ''::text AS name, false AS manual_valuation,
       NULL::bigint AS current_value, 0::numeric AS balance, NULL::date AS from_date,
       false AS added_income, false AS added_expense, 0::numeric AS income, 0::numeric AS expense
FROM totals_lock
UNION ALL
SELECT 'wallet', w.id, w.name, w.manual_valuation, w.current_value,
       (w.opening_balance::numeric + COALESCE(t.net, 0) + COALESCE((
            SELECT SUM(d.net) FROM wallet_net_delta d WHERE d.member_id = @member_id AND d.wallet_id = w.id
       ), 0))::numeric,
       NULL::date, false, false, 0::numeric, 0::numeric
FROM wallet w
LEFT JOIN wallet_net t
       ON t.member_id = w.member_id AND t.period = 'total' AND t.start = '-infinity' AND t.wallet_id = w.id
WHERE w.member_id = @member_id
UNION ALL
SELECT 'month', 0::bigint, '', false, NULL::bigint, 0::numeric,
       g.from_date, g.added_income, g.added_expense, mt.income::numeric, mt.expense::numeric
FROM g
CROSS JOIN LATERAL (
    SELECT COALESCE(SUM(e.amount) FILTER (WHERE e.type = 'income'), 0) AS income,
           COALESCE(SUM(e.amount) FILTER (WHERE e.type = 'expense'), 0) AS expense
    FROM account_entry e
    WHERE e.member_id = @member_id AND e.entry_date >= g.from_date
      AND e.entry_date < (g.from_date + interval '1 month')::date
      AND NOT e.pending AND e.transfer_id IS NULL
) mt;

-- name: ListWalletBalancesForCheck :many
-- Every wallet's balance as the write check needs it, from the rollup
-- (wallet_net's total and the nets not folded yet), so its cost is the
-- member's wallets and pending deltas, not the length of their history.
-- Each part is numeric: the sum is exact whatever it is.
SELECT w.id, w.name, w.manual_valuation, w.current_value,
       (w.opening_balance::numeric + COALESCE(t.net, 0) + COALESCE((
            SELECT SUM(d.net) FROM wallet_net_delta d WHERE d.member_id = @member_id AND d.wallet_id = w.id
       ), 0))::numeric AS balance
FROM wallet w
LEFT JOIN wallet_net t
       ON t.member_id = w.member_id AND t.period = 'total' AND t.start = '-infinity' AND t.wallet_id = w.id
WHERE w.member_id = @member_id
ORDER BY w.id;
