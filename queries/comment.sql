-- name: CreateComment :one
INSERT INTO comment (post_id, member_id, body, block_reason, created_at, updated_at)
VALUES (@post_id, @member_id, @body, @block_reason, @now, @now)
RETURNING id;

-- name: GetComment :one
SELECT sqlc.embed(c), m.name AS author_name, COALESCE('/api/images/' || m.profile_image_id::text, NULLIF(m.idp_a_picture, ''), '')::text AS author_avatar,
       p.title AS post_title, p.category AS post_category, p.block_reason AS post_block_reason
FROM comment c
JOIN member m ON m.id = c.member_id
JOIN post p ON p.id = c.post_id
WHERE c.id = @id;

-- name: GetCommentForUpdate :one
-- Locks the comment; post_block_reason says whether its post is visible.
SELECT c.*, p.block_reason AS post_block_reason
FROM comment c JOIN post p ON p.id = c.post_id
WHERE c.id = @id
FOR UPDATE OF c;

-- name: UpdateComment :execrows
UPDATE comment SET body = @body, block_reason = @block_reason, updated_at = @now WHERE id = @id
    AND (sqlc.narg(if_versions)::bigint[] IS NULL OR version = ANY(sqlc.narg(if_versions)::bigint[]));

-- name: DeleteComment :execrows
DELETE FROM comment WHERE id = @id
    AND (sqlc.narg(if_versions)::bigint[] IS NULL OR version = ANY(sqlc.narg(if_versions)::bigint[]));

-- name: SetCommentBlockReason :exec
UPDATE comment SET block_reason = @block_reason WHERE id = @id;

-- name: CountPostComments :one
SELECT count(*) FROM comment WHERE post_id = @post_id;

-- name: ListPostComments :many
-- Hot comments first (hot_since and min_up from the one hot rule), then
-- oldest first; a blocked comment keeps its place.
SELECT sqlc.embed(c), m.name AS author_name, COALESCE('/api/images/' || m.profile_image_id::text, NULLIF(m.idp_a_picture, ''), '')::text AS author_avatar
FROM comment c JOIN member m ON m.id = c.member_id
WHERE c.post_id = @post_id
ORDER BY (c.created_at > @hot_since AND c.up_count >= @min_up) DESC, c.created_at, c.id
LIMIT @lim OFFSET @off;

-- name: CountMemberComments :one
SELECT count(*) FROM comment WHERE member_id = @member_id;

-- name: ListMemberComments :many
SELECT sqlc.embed(c), m.name AS author_name, COALESCE('/api/images/' || m.profile_image_id::text, NULLIF(m.idp_a_picture, ''), '')::text AS author_avatar,
       p.title AS post_title, p.category AS post_category
FROM comment c
JOIN member m ON m.id = c.member_id
JOIN post p ON p.id = c.post_id
WHERE c.member_id = @member_id
ORDER BY c.created_at DESC, c.id DESC
LIMIT @lim OFFSET @off;

-- name: ListCommentsByIDs :many
SELECT sqlc.embed(c), m.name AS author_name, COALESCE('/api/images/' || m.profile_image_id::text, NULLIF(m.idp_a_picture, ''), '')::text AS author_avatar,
       p.title AS post_title, p.category AS post_category
FROM comment c
JOIN member m ON m.id = c.member_id
JOIN post p ON p.id = c.post_id
WHERE c.id = ANY(@ids::bigint[]);

-- name: GetCommentAuthor :one
-- As GetPostAuthor.
SELECT member_id FROM comment WHERE id = @id;
