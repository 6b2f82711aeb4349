-- name: ListOnetimeBudgets :many
-- Each one-time budget with the confirmed expenses of its period (of its
-- category and that categorys sub-categories, or all when it has none).
SELECT o.id, o.name, o.amount, o.start_date, o.end_date, o.category_id,
    (SELECT COALESCE(sum(e.amount), 0) FROM account_entry e
     LEFT JOIN account_category c ON c.member_id = e.member_id AND c.id = e.category_id
     WHERE e.member_id = o.member_id AND e.entry_date >= o.start_date AND e.entry_date <= o.end_date
       AND e.type = 'expense' AND NOT e.pending AND e.transfer_id IS NULL
       AND (o.category_id IS NULL OR e.category_id = o.category_id OR c.parent_id = o.category_id))::numeric AS spent
FROM budget_onetime o
WHERE o.member_id = @member_id AND (sqlc.narg(id)::bigint IS NULL OR o.id = sqlc.narg(id))
ORDER BY o.start_date DESC, o.id DESC;

-- name: CreateOnetimeBudget :one
INSERT INTO budget_onetime (member_id, name, amount, start_date, end_date, category_id)
VALUES (@member_id, @name, @amount, @start_date, @end_date, @category_id)
RETURNING id;

-- name: UpdateOnetimeBudget :execrows
UPDATE budget_onetime SET name = @name, amount = @amount, start_date = @start_date, end_date = @end_date,
    category_id = @category_id
WHERE member_id = @member_id AND id = @id
    AND (sqlc.narg(if_versions)::bigint[] IS NULL OR version = ANY(sqlc.narg(if_versions)::bigint[]));

-- name: OnetimeBudgetVersion :one
-- A one-time budget's version, for the ETag of its writes and of a 412.
SELECT version FROM budget_onetime WHERE member_id = @member_id AND id = @id;

-- name: DeleteOnetimeBudget :execrows
DELETE FROM budget_onetime WHERE member_id = @member_id AND id = @id
    AND (sqlc.narg(if_versions)::bigint[] IS NULL OR version = ANY(sqlc.narg(if_versions)::bigint[]));

-- name: DeleteMemberOnetimeBudgets :exec
DELETE FROM budget_onetime WHERE member_id = @member_id;

-- name: ListBackupOnetimeBudgets :many
SELECT name, amount, start_date, end_date, category_id FROM budget_onetime
WHERE member_id = @member_id
ORDER BY start_date, id;
