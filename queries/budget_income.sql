-- name: GetBudgetIncome :one
SELECT amount FROM budget_income WHERE member_id = @member_id AND year = @year AND month = @month;

-- name: PutBudgetIncome :one
INSERT INTO budget_income (member_id, year, month, amount)
VALUES (@member_id, @year, @month, @amount)
ON CONFLICT (member_id, year, month) DO UPDATE SET amount = EXCLUDED.amount, updated_at = now()
RETURNING amount;

-- name: IncomeOfRange :one
-- Confirmed income of a date range, transfers aside.
SELECT COALESCE(sum(amount), 0)::numeric FROM account_entry
WHERE member_id = @member_id AND entry_date >= @from_date AND entry_date < @to_date
  AND type = 'income' AND NOT pending AND transfer_id IS NULL;

-- name: DeleteMemberBudgetIncomes :exec
DELETE FROM budget_income WHERE member_id = @member_id;

-- name: ListBudgetIncomesByMonths :many
-- These months' expected incomes, a month given as year * 100 + month.
SELECT year, month, amount FROM budget_income
WHERE member_id = @member_id AND year * 100 + month = ANY(@months::bigint[]);
