-- name: ListCategories :many
SELECT * FROM account_category WHERE member_id = @member_id ORDER BY sort_order, id;

-- name: GetCategory :one
SELECT * FROM account_category WHERE member_id = @member_id AND id = @id;

-- name: CategoryHasChildren :one
SELECT EXISTS (SELECT 1 FROM account_category WHERE member_id = @member_id AND parent_id = @id);

-- name: CreateCategory :one
INSERT INTO account_category (member_id, parent_id, name, type, sort_order)
VALUES (@member_id, sqlc.narg(parent_id), @name, @type,
    (SELECT COALESCE(MAX(sort_order), 0) + 1 FROM account_category WHERE member_id = @member_id))
RETURNING *;

-- name: UpdateCategory :one
UPDATE account_category SET parent_id = sqlc.narg(parent_id), name = @name, type = @type
WHERE member_id = @member_id AND id = @id
    AND (sqlc.narg(if_versions)::bigint[] IS NULL OR version = ANY(sqlc.narg(if_versions)::bigint[]))
RETURNING *;

-- name: SetChildCategoriesType :exec
UPDATE account_category SET type = @type WHERE member_id = @member_id AND parent_id = @parent_id;

-- name: DeleteCategory :execrows
DELETE FROM account_category WHERE member_id = @member_id AND id = @id
    AND (sqlc.narg(if_versions)::bigint[] IS NULL OR version = ANY(sqlc.narg(if_versions)::bigint[]));

-- name: CountOwnedCategories :one
SELECT count(*) FROM account_category WHERE member_id = @member_id AND id = ANY(@ids::bigint[]);

-- name: ReorderCategories :exec
WITH wanted AS (
    SELECT x.id, x.ord FROM unnest(@ids::bigint[]) WITH ORDINALITY AS x(id, ord)
), ranked AS (
    SELECT c.id, row_number() OVER (ORDER BY wanted.ord NULLS LAST, c.sort_order, c.id) AS rn
    FROM account_category c LEFT JOIN wanted ON wanted.id = c.id
    WHERE c.member_id = @member_id
)
UPDATE account_category SET sort_order = ranked.rn
FROM ranked WHERE account_category.id = ranked.id AND account_category.member_id = @member_id;

-- name: CategoryInUse :one
SELECT EXISTS (SELECT 1 FROM account_entry WHERE member_id = @member_id AND category_id = @category_id);

-- name: MoveCategoryEntries :exec
UPDATE account_entry SET category_id = @to_category_id WHERE member_id = @member_id AND category_id = @category_id;

-- name: MoveCategoryTemplates :exec
WITH r AS (
    UPDATE recurring SET category_id = sqlc.narg(to_category_id) WHERE recurring.member_id = @member_id AND recurring.category_id = @category_id
)
UPDATE quick_entry SET category_id = sqlc.narg(to_category_id) WHERE quick_entry.member_id = @member_id AND quick_entry.category_id = @category_id;

-- name: DeleteMemberCategories :exec
-- One statement: a parent and its children go together.
DELETE FROM account_category WHERE member_id = @member_id;

-- name: CategoryUses :one
-- What uses a category or its sub-categories, by kind: a category whose type
-- changes under any of them would strand them under a category of the
-- other type.
WITH ids AS (
    SELECT c.id FROM account_category c WHERE c.member_id = @member_id AND (c.id = @id OR c.parent_id = @id)
)
SELECT
    (SELECT count(*) FROM account_entry e WHERE e.member_id = @member_id AND e.category_id IN (SELECT ids.id FROM ids)) AS entries,
    (SELECT count(*) FROM budget b WHERE b.member_id = @member_id AND b.category_id IN (SELECT ids.id FROM ids))
        + (SELECT count(*) FROM budget_onetime o WHERE o.member_id = @member_id AND o.category_id IN (SELECT ids.id FROM ids)) AS budgets,
    (SELECT count(*) FROM recurring r WHERE r.member_id = @member_id AND r.category_id IN (SELECT ids.id FROM ids)) AS recurrings,
    (SELECT count(*) FROM quick_entry qe WHERE qe.member_id = @member_id AND qe.category_id IN (SELECT ids.id FROM ids)) AS quick_entries;

-- name: CategoryVersion :one
-- The version a 412 names as current (a write whose If-Match missed).
SELECT version FROM account_category WHERE member_id = @member_id AND id = @id;
