-- name: MonthlyStats :many
-- A months sums in one statement over the (member, date) index, in three
-- sets that kind tells apart and that come in this order: 'category', per
-- type and category (with the categorys parent, for nesting), and 'day', per
-- type and day (for a calendar), both of the entries that count; 'transfer',
-- per wallet and type of the confirmed transfer sides (INCOME moved into the
-- wallet, EXPENSE out of it), by wallet id. Each set reads account_entry
-- itself rather than one shared CTE: a materialized CTE hides the member
-- from the category joins and its row estimates from the planner.
SELECT (CASE WHEN GROUPING(e.entry_date) = 0 THEN 'day' ELSE 'category' END)::text AS kind,
    e.type, e.category_id, c.name AS category_name, c.parent_id, p.name AS parent_name,
    -- The category set has no date: it reads as the first day, never used.
    COALESCE(e.entry_date, sqlc.arg(from_date)::date)::date AS entry_date,
    -- Only transfers have a wallet.
    0::bigint AS wallet_id,
    sum(e.amount)::numeric AS amount
FROM account_entry e
LEFT JOIN account_category c ON c.member_id = e.member_id AND c.id = e.category_id
LEFT JOIN account_category p ON p.member_id = e.member_id AND p.id = c.parent_id
WHERE e.member_id = @member_id AND e.entry_date >= @from_date AND e.entry_date < @to_date
  AND NOT e.pending AND e.transfer_id IS NULL
GROUP BY GROUPING SETS ((e.type, e.category_id, c.name, c.parent_id, p.name), (e.type, e.entry_date))
UNION ALL
SELECT 'transfer', e.type, NULL, NULL, NULL, NULL, sqlc.arg(from_date)::date, e.wallet_id, sum(e.amount)::numeric
FROM account_entry e
WHERE e.member_id = @member_id AND e.entry_date >= @from_date AND e.entry_date < @to_date
  AND NOT e.pending AND e.transfer_id IS NOT NULL AND e.wallet_id IS NOT NULL
GROUP BY e.wallet_id, e.type
ORDER BY kind, wallet_id, type, entry_date, category_id;

-- name: CategoryStats :many
-- A ranges sums per type and category, with the categorys parent.
SELECT e.type, e.category_id, c.name AS category_name, c.parent_id, p.name AS parent_name,
    sum(e.amount)::numeric AS amount
FROM account_entry e
LEFT JOIN account_category c ON c.member_id = e.member_id AND c.id = e.category_id
LEFT JOIN account_category p ON p.member_id = e.member_id AND p.id = c.parent_id
WHERE e.member_id = @member_id AND e.entry_date >= @from_date AND e.entry_date < @to_date
  AND NOT e.pending AND e.transfer_id IS NULL
GROUP BY e.type, e.category_id, c.name, c.parent_id, p.name
ORDER BY e.type, e.category_id;

-- name: YearlyStats :many
-- Sums per ledger month and type; an entrys month is the calendar month of
-- its date less (start day - 1) days.
SELECT date_trunc('month', e.entry_date - sqlc.arg(start_day)::int + 1)::date AS month, e.type,
    sum(e.amount)::numeric AS amount
FROM account_entry e
WHERE e.member_id = @member_id AND e.entry_date >= @from_date AND e.entry_date < @to_date
  AND NOT e.pending AND e.transfer_id IS NULL
GROUP BY 1, 2
ORDER BY 1, 2;

-- name: TagStats :many
-- Sums per tag and type over a range (an entry with two tags counts under each).
SELECT t.id AS tag_id, t.name, e.type, sum(e.amount)::numeric AS amount, count(*)::bigint AS entries
FROM account_entry e
JOIN account_entry_tag et ON et.entry_id = e.id
JOIN account_tag t ON t.id = et.tag_id AND t.member_id = e.member_id
WHERE e.member_id = @member_id AND e.entry_date >= @from_date AND e.entry_date < @to_date
  AND NOT e.pending AND e.transfer_id IS NULL
GROUP BY t.id, t.name, t.sort_order, e.type
ORDER BY t.sort_order, t.id, e.type;

-- name: TaggedTotals :one
-- The income and expense of the ranges entries that carry any tag, each once.
SELECT COALESCE(sum(e.amount) FILTER (WHERE e.type = 'income'), 0)::numeric AS income,
    COALESCE(sum(e.amount) FILTER (WHERE e.type = 'expense'), 0)::numeric AS expense
FROM account_entry e
WHERE e.member_id = @member_id AND e.entry_date >= @from_date AND e.entry_date < @to_date
  AND NOT e.pending AND e.transfer_id IS NULL
  AND EXISTS (SELECT 1 FROM account_entry_tag et WHERE et.entry_id = e.id);

-- name: MonthBonusDue :one
-- Whether the month-complete bonus of a month was given, and whether every
-- day of the month has a counting entry: one index probe per day, stopping
-- at the first day without one, however many entries the month holds.
SELECT EXISTS (SELECT 1 FROM point_history h WHERE h.member_id = @member_id AND h.reason = @reason)::bool AS given,
    (NOT EXISTS (
        SELECT 1 FROM generate_series(sqlc.arg(from_date)::date, sqlc.arg(to_date)::date - 1, interval '1 day') AS d(at)
        WHERE NOT EXISTS (
            SELECT 1 FROM account_entry e
            WHERE e.member_id = @member_id AND e.entry_date = d.at::date
              AND NOT e.pending AND e.transfer_id IS NULL)))::bool AS complete;

-- name: PaidByStats :many
-- A ranges income and expense per payer (statistics with groupBy=paidBy),
-- over the entries the other statistics count. A NULL paid_by is the
-- ledgers own (internal/ledger Attribution.Default): the caller folds it
-- into that member.
SELECT e.paid_by, e.type, sum(e.amount)::numeric AS amount
FROM account_entry e
WHERE e.member_id = @member_id AND e.entry_date >= @from_date AND e.entry_date < @to_date
  AND NOT e.pending AND e.transfer_id IS NULL
GROUP BY e.paid_by, e.type
ORDER BY e.paid_by NULLS FIRST, e.type;
