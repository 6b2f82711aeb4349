-- name: ListTags :many
SELECT * FROM account_tag WHERE member_id = @member_id ORDER BY sort_order, id;

-- name: CreateTag :one
INSERT INTO account_tag (member_id, name, sort_order)
VALUES (@member_id, @name, (SELECT COALESCE(MAX(sort_order), 0) + 1 FROM account_tag WHERE member_id = @member_id))
RETURNING *;

-- name: EnsureTags :many
-- Makes every name one of the member's tags (new ones last, in the given
-- order) and answers the ids of all of them, those a parallel request made
-- meanwhile included (ensure_member_tags).
SELECT t.id, t.name FROM ensure_member_tags(@member_id::bigint, @names::text[]) AS t;

-- name: UpdateTag :one
UPDATE account_tag SET name = @name WHERE member_id = @member_id AND id = @id
    AND (sqlc.narg(if_versions)::bigint[] IS NULL OR version = ANY(sqlc.narg(if_versions)::bigint[]))
RETURNING *;

-- name: DeleteTag :execrows
DELETE FROM account_tag WHERE member_id = @member_id AND id = @id
    AND (sqlc.narg(if_versions)::bigint[] IS NULL OR version = ANY(sqlc.narg(if_versions)::bigint[]));

-- name: CountOwnedTags :one
SELECT count(*) FROM account_tag WHERE member_id = @member_id AND id = ANY(@ids::bigint[]);

-- name: ReorderTags :exec
WITH wanted AS (
    SELECT x.id, x.ord FROM unnest(@ids::bigint[]) WITH ORDINALITY AS x(id, ord)
), ranked AS (
    SELECT t.id, row_number() OVER (ORDER BY wanted.ord NULLS LAST, t.sort_order, t.id) AS rn
    FROM account_tag t LEFT JOIN wanted ON wanted.id = t.id
    WHERE t.member_id = @member_id
)
UPDATE account_tag SET sort_order = ranked.rn
FROM ranked WHERE account_tag.id = ranked.id AND account_tag.member_id = @member_id;

-- name: DeleteMemberTags :exec
DELETE FROM account_tag WHERE member_id = @member_id;

-- name: TagVersion :one
-- The version a 412 names as current (a write whose If-Match missed).
SELECT version FROM account_tag WHERE member_id = @member_id AND id = @id;
