-- name: ListBudgets :many
SELECT b.id, b.category_id, b.year, b.month, b.amount
FROM budget b
WHERE b.member_id = @member_id AND b.year = @year AND b.month = @month
ORDER BY b.category_id;

-- name: CreateBudget :one
-- Nothing comes back when the member already has a budget of the category in
-- that month: the caller then reads the existing one (a conflict, also under
-- parallel creates, never a unique-violation error).
INSERT INTO budget (member_id, category_id, year, month, amount)
VALUES (@member_id, @category_id, @year, @month, @amount)
ON CONFLICT (member_id, year, month, category_id) DO NOTHING
RETURNING id, category_id, year, month, amount;

-- name: FindBudget :one
SELECT id FROM budget
WHERE member_id = @member_id AND year = @year AND month = @month AND category_id = @category_id;

-- name: UpdateBudget :one
UPDATE budget SET amount = @amount
WHERE member_id = @member_id AND id = @id
    AND (sqlc.narg(if_versions)::bigint[] IS NULL OR version = ANY(sqlc.narg(if_versions)::bigint[]))
RETURNING id, category_id, year, month, amount, version;

-- name: BudgetVersion :one
-- A budget's version, for the ETag of its create and of a 412.
SELECT version FROM budget WHERE member_id = @member_id AND id = @id;

-- name: DeleteBudget :execrows
DELETE FROM budget WHERE member_id = @member_id AND id = @id
    AND (sqlc.narg(if_versions)::bigint[] IS NULL OR version = ANY(sqlc.narg(if_versions)::bigint[]));

-- name: CopyBudgets :execrows
-- Every budget of one month into another; the targets budget of the same
-- category is overwritten.
INSERT INTO budget (member_id, category_id, year, month, amount)
SELECT src.member_id, src.category_id, @to_year::int, @to_month::int, src.amount
FROM budget src
WHERE src.member_id = @member_id AND src.year = @from_year::int AND src.month = @from_month::int
ON CONFLICT (member_id, year, month, category_id) DO UPDATE SET amount = EXCLUDED.amount;

-- name: BudgetStatus :many
-- A months budgets with what their categories (a top-level category with
-- its sub-categories) spent, and the months totals on every row; the totals
-- row alone comes back when there are no budgets. One statement over the
-- budget key and the entries' (member, date) index.
WITH spent AS (
    SELECT e.category_id, c.parent_id, sum(e.amount) AS amount
    FROM account_entry e
    LEFT JOIN account_category c ON c.member_id = e.member_id AND c.id = e.category_id
    WHERE e.member_id = @member_id AND e.entry_date >= @from_date AND e.entry_date < @to_date
      AND e.type = 'expense' AND NOT e.pending AND e.transfer_id IS NULL
    GROUP BY e.category_id, c.parent_id
), b AS (
    SELECT bu.id, bu.category_id, bu.amount, c.name, c.parent_id
    FROM budget bu
    JOIN account_category c ON c.member_id = bu.member_id AND c.id = bu.category_id
    WHERE bu.member_id = @member_id AND bu.year = @year AND bu.month = @month
), totals AS (
    SELECT
        COALESCE((SELECT sum(amount) FROM spent), 0)::numeric AS total_spent,
        COALESCE((SELECT sum(s.amount) FROM spent s
                  WHERE s.category_id IN (SELECT category_id FROM b)
                     OR s.parent_id IN (SELECT category_id FROM b)), 0)::numeric AS budgeted_spent,
        -- -1: no expected income set (amounts are never negative).
        COALESCE((SELECT i.amount FROM budget_income i
                  WHERE i.member_id = @member_id AND i.year = @year AND i.month = @month), -1)::bigint AS expected_income
)
SELECT b.id AS budget_id, b.category_id, b.name AS category_name, b.parent_id, b.amount AS budget_amount,
    (SELECT COALESCE(sum(s.amount), 0) FROM spent s
     WHERE s.category_id = b.category_id OR s.parent_id = b.category_id)::numeric AS spent,
    t.total_spent, t.budgeted_spent, t.expected_income
FROM totals t
LEFT JOIN b ON true
ORDER BY b.parent_id NULLS FIRST, b.category_id;

-- name: BudgetChart :many
-- Budget against spending for consecutive months. An entrys month is the
-- calendar month of its date less (start day - 1) days; a months budget
-- counts top-level budgets and the sub-category budgets whose parent has none.
WITH months AS (
    SELECT generate_series(@first_month::date, @last_month::date, interval '1 month')::date AS month
), s AS (
    SELECT date_trunc('month', e.entry_date - sqlc.arg(start_day)::int + 1)::date AS month, sum(e.amount) AS spent
    FROM account_entry e
    WHERE e.member_id = @member_id AND e.entry_date >= @from_date AND e.entry_date < @to_date
      AND e.type = 'expense' AND NOT e.pending AND e.transfer_id IS NULL
    GROUP BY 1
), bt AS (
    SELECT make_date(bu.year, bu.month, 1) AS month, sum(bu.amount) AS budget
    FROM budget bu
    JOIN account_category c ON c.member_id = bu.member_id AND c.id = bu.category_id
    WHERE bu.member_id = @member_id
      AND (bu.year, bu.month) >= (@first_year::int, @first_month_no::int)
      AND (bu.year, bu.month) <= (@last_year::int, @last_month_no::int)
      AND (c.parent_id IS NULL OR NOT EXISTS (
          SELECT 1 FROM budget p
          WHERE p.member_id = bu.member_id AND p.year = bu.year AND p.month = bu.month AND p.category_id = c.parent_id))
    GROUP BY 1
)
SELECT m.month, COALESCE(bt.budget, 0)::numeric AS budget, COALESCE(s.spent, 0)::numeric AS spent
FROM months m
LEFT JOIN s ON s.month = m.month
LEFT JOIN bt ON bt.month = m.month
ORDER BY m.month;

-- name: DeleteMemberBudgets :exec
DELETE FROM budget WHERE member_id = @member_id;

-- name: ListBackupBudgets :many
-- The monthly budgets of the latest month up to (year, month) that has any.
SELECT b.category_id, b.amount FROM budget b
WHERE b.member_id = @member_id AND (b.year, b.month) = (
    SELECT l.year, l.month FROM budget l
    WHERE l.member_id = @member_id AND (l.year, l.month) <= (@year::integer, @month::integer)
    ORDER BY l.year DESC, l.month DESC LIMIT 1)
ORDER BY b.category_id;

-- name: ListBudgetsByIDs :many
SELECT b.id, b.category_id, b.year, b.month, b.amount
FROM budget b
WHERE b.member_id = @member_id AND b.id = ANY(@ids::bigint[]);
