-- name: GetBudgetIncome :one
SELECT amount FROM budget_income WHERE member_id = @member_id AND year = @year AND month = @month;

-- name: PutBudgetIncome :one
INSERT INTO budget_income (member_id, year, month, amount)
VALUES (@member_id, @year, @month, @amount)
ON CONFLICT (member_id, year, month) DO UPDATE SET amount = EXCLUDED.amount, updated_at = now()
RETURNING amount;

-- name: IncomeOfRanges :many
-- Confirmed income of each date range [from_dates[i], to_dates[i]),
-- transfers aside: a sum per range, in the order given. One statement
-- however many ledger months (a month's GET and PUT, the changes feed's
-- expected incomes), each range one index range scan. unnest, not
-- generate_subscripts: the planner takes generate_subscripts for 1,000
-- rows, and that estimate's cost switched JIT compilation on (200 ms a
-- call, before the pool turned JIT off).
SELECT COALESCE((
    SELECT sum(e.amount) FROM account_entry e
    WHERE e.member_id = @member_id::bigint
      AND e.entry_date >= r.from_date AND e.entry_date < (@to_dates::date[])[r.ord]
      AND e.type = 'income' AND NOT e.pending AND e.transfer_id IS NULL
), 0)::numeric AS income
FROM unnest(@from_dates::date[]) WITH ORDINALITY AS r (from_date, ord)
ORDER BY r.ord;

-- name: DeleteMemberBudgetIncomes :exec
DELETE FROM budget_income WHERE member_id = @member_id;

-- name: ListBudgetIncomesByMonths :many
-- These months' expected incomes, a month given as year * 100 + month.
SELECT year, month, amount FROM budget_income
WHERE member_id = @member_id AND year * 100 + month = ANY(@months::bigint[]);

-- name: ListBackupBudgetIncomes :many
-- Every expected income of the member, by month.
SELECT year, month, amount FROM budget_income WHERE member_id = @member_id ORDER BY year, month;

-- name: InsertBudgetIncomes :exec
-- Expected incomes of several months (restore), in one statement.
INSERT INTO budget_income (member_id, year, month, amount)
-- The arrays have one length: unnest in the select list pairs them up.
SELECT @member_id::bigint, unnest(@years::integer[]), unnest(@months::integer[]), unnest(@amounts::bigint[]);
