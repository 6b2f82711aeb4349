-- name: ListDefaultCategories :many
SELECT * FROM default_category ORDER BY sort_order, id;

-- name: GetDefaultCategory :one
SELECT * FROM default_category WHERE id = @id;

-- name: DefaultCategoryHasChildren :one
SELECT EXISTS (SELECT 1 FROM default_category WHERE parent_id = @id);

-- name: CreateDefaultCategory :one
INSERT INTO default_category (parent_id, name, type, sort_order)
VALUES (sqlc.narg(parent_id), @name, @type, (SELECT COALESCE(MAX(sort_order), 0) + 1 FROM default_category))
RETURNING *;

-- name: UpdateDefaultCategory :one
UPDATE default_category SET parent_id = sqlc.narg(parent_id), name = @name, type = @type
WHERE id = @id
RETURNING *;

-- name: SetChildDefaultCategoriesType :exec
UPDATE default_category SET type = @type WHERE parent_id = @parent_id;

-- name: DeleteDefaultCategory :execrows
DELETE FROM default_category WHERE id = @id;

-- name: CountDefaultCategories :one
SELECT count(*) FROM default_category WHERE id = ANY(@ids::bigint[]);

-- name: ReorderDefaultCategories :exec
WITH wanted AS (
    SELECT x.id, x.ord FROM unnest(@ids::bigint[]) WITH ORDINALITY AS x(id, ord)
), ranked AS (
    SELECT c.id, row_number() OVER (ORDER BY wanted.ord NULLS LAST, c.sort_order, c.id) AS rn
    FROM default_category c LEFT JOIN wanted ON wanted.id = c.id
)
UPDATE default_category SET sort_order = ranked.rn
FROM ranked WHERE default_category.id = ranked.id;

-- name: LockDefaultCategories :exec
SELECT pg_advisory_xact_lock(hashtextextended('default_category', 0));
