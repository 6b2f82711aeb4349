-- The forecast area reads what the money ahead is projected from: wallets
-- and their balances (wallet, wallet_net, wallet_net_delta), recurring
-- entries, pending entries (account_entry), one-time budgets, expected
-- incomes and budgets (budget_onetime, budget_income, budget) with the
-- categories they fold (account_category). It writes nothing; its crossReads
-- in internal/app/ownership_test.go give the reasons. Every query is one
-- statement whatever the number of wallets, cards or recurring entries
-- (internal/forecast/README.md has the plans), and a :batchmany: a forecast
-- or a budget pace sends its queries together, in one round trip
-- (database.Pipeline).

-- name: ForecastWallets :batchmany
-- Every wallet of the member with today's balance as the wallet list answers
-- it (opening balance plus every confirmed entry), read from the ledger's
-- rollup: its 'total' row plus the nets not folded yet.
SELECT w.id, w.type, w.payment_wallet_id, w.loan_amount, w.loan_rate, w.loan_method, w.loan_months,
    w.loan_start, w.loan_payment,
    (w.opening_balance
        + COALESCE((SELECT sum(t.net) FROM wallet_net t
                    WHERE t.member_id = w.member_id AND t.period = 'total' AND t.wallet_id = w.id), 0)
        + COALESCE((SELECT sum(d.net) FROM wallet_net_delta d
                    WHERE d.member_id = w.member_id AND d.wallet_id = w.id), 0))::numeric AS balance
FROM wallet w
WHERE w.member_id = @member_id
ORDER BY w.sort_order, w.id;

-- name: ForecastRecurrings :batchmany
-- Every recurring entry of the member, with its category's parent (budget
-- pace folds sub-categories into a top-level budget).
SELECT r.id, r.type, r.amount, r.wallet_id, r.category_id, c.parent_id, r.day, r.auto_post, r.next_month
FROM recurring r
LEFT JOIN account_category c ON c.member_id = r.member_id AND c.id = r.category_id
WHERE r.member_id = @member_id
ORDER BY r.id;

-- name: ForecastPendingEntries :batchmany
-- The member's pending entries dated up to @last_day whose amount is known
-- (one awaiting its rate counts nowhere yet), each flagged when it is a
-- transfer side (into a card: a bill payment not confirmed yet).
SELECT e.id, e.wallet_id, e.type, e.amount, e.entry_date, (e.transfer_id IS NOT NULL)::boolean AS is_transfer
FROM account_entry e
WHERE e.member_id = @member_id AND e.pending AND NOT e.awaiting_rate AND e.entry_date <= @last_day::date
ORDER BY e.entry_date, e.id;

-- name: ForecastOnetimeBudgets :batchmany
-- The one-time budgets that end on or after @today and start by @last_day,
-- each with its confirmed spending so far (as ListOnetimeBudgets counts it).
SELECT o.id, o.amount, o.start_date, o.end_date,
    (SELECT COALESCE(sum(e.amount), 0) FROM account_entry e
     LEFT JOIN account_category c ON c.member_id = e.member_id AND c.id = e.category_id
     WHERE e.member_id = o.member_id AND e.entry_date >= o.start_date AND e.entry_date <= o.end_date
       AND e.type = 'expense' AND NOT e.pending AND e.transfer_id IS NULL
       AND (o.category_id IS NULL OR e.category_id = o.category_id OR c.parent_id = o.category_id))::numeric AS spent
FROM budget_onetime o
WHERE o.member_id = @member_id AND o.end_date >= @today::date AND o.start_date <= @last_day::date
ORDER BY o.id;

-- name: ForecastIncomes :batchmany
-- The member's latest expected incomes up to ledger month @last_key
-- (year × 12 + month − 1), newest first: a 92-day window begins at most 4
-- ledger months, so 5 rows hold those months' own and the latest earlier one.
SELECT year, month, amount FROM budget_income
WHERE member_id = @member_id AND year * 12 + month - 1 <= @last_key::int
ORDER BY year DESC, month DESC
LIMIT 5;

-- name: PaceBudgets :batchmany
-- A ledger month's budgets, each with its category's confirmed expenses (a
-- top-level category with its sub-categories', as BudgetStatus counts them)
-- per day of the month: one row per budget and day with spending, one row
-- with a NULL day for a budget without any.
WITH d AS (
    SELECT e.entry_date, e.category_id, c.parent_id, sum(e.amount) AS amount
    FROM account_entry e
    LEFT JOIN account_category c ON c.member_id = e.member_id AND c.id = e.category_id
    WHERE e.member_id = @member_id AND e.entry_date >= @from_date AND e.entry_date < @to_date
      AND e.type = 'expense' AND NOT e.pending AND e.transfer_id IS NULL
    GROUP BY e.entry_date, e.category_id, c.parent_id
)
SELECT b.category_id, b.amount AS budget, COALESCE(d.entry_date, @from_date::date)::date AS day, COALESCE(sum(d.amount), 0)::numeric AS spent
FROM budget b
LEFT JOIN d ON d.category_id = b.category_id OR d.parent_id = b.category_id
WHERE b.member_id = @member_id AND b.year = @year AND b.month = @month
GROUP BY b.category_id, b.amount, d.entry_date
ORDER BY b.category_id, d.entry_date;
