-- name: ListQuickEntries :many
SELECT * FROM quick_entry WHERE member_id = @member_id ORDER BY id;

-- name: CreateQuickEntry :one
INSERT INTO quick_entry (member_id, name, type, amount, wallet_id, category_id, memo, tags)
VALUES (@member_id, @name, @type, @amount, sqlc.narg(wallet_id), sqlc.narg(category_id), @memo, @tags)
RETURNING *;

-- name: UpdateQuickEntry :one
UPDATE quick_entry SET name = @name, type = @type, amount = @amount, wallet_id = sqlc.narg(wallet_id),
    category_id = sqlc.narg(category_id), memo = @memo, tags = @tags
WHERE member_id = @member_id AND id = @id
    AND (sqlc.narg(if_versions)::bigint[] IS NULL OR version = ANY(sqlc.narg(if_versions)::bigint[]))
RETURNING *;

-- name: DeleteQuickEntry :execrows
DELETE FROM quick_entry WHERE member_id = @member_id AND id = @id
    AND (sqlc.narg(if_versions)::bigint[] IS NULL OR version = ANY(sqlc.narg(if_versions)::bigint[]));

-- name: DeleteMemberQuickEntries :exec
DELETE FROM quick_entry WHERE member_id = @member_id;

-- name: QuickEntryVersion :one
-- The version a 412 names as current (a write whose If-Match missed).
SELECT version FROM quick_entry WHERE member_id = @member_id AND id = @id;
