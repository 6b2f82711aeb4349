-- name: CreatePost :one
INSERT INTO post (member_id, category, title, body, tags, image_urls, notice, block_reason, created_at, updated_at)
VALUES (@member_id, @category, @title, @body, @tags, @image_urls, @notice, @block_reason, @now, @now)
RETURNING id;

-- name: GetPost :one
SELECT sqlc.embed(p), m.name AS author_name, COALESCE('/api/images/' || m.profile_image_id::text, NULLIF(m.idp_a_picture, ''), '')::text AS author_avatar
FROM post p JOIN member m ON m.id = p.member_id
WHERE p.id = @id;

-- name: GetPostForUpdate :one
SELECT * FROM post WHERE id = @id FOR UPDATE;

-- name: UpdatePost :execrows
UPDATE post
SET category = @category, title = @title, body = @body, tags = @tags, image_urls = @image_urls,
    block_reason = @block_reason, updated_at = @now
WHERE id = @id
    AND (sqlc.narg(if_versions)::bigint[] IS NULL OR version = ANY(sqlc.narg(if_versions)::bigint[]));

-- name: DeletePost :execrows
DELETE FROM post WHERE id = @id
    AND (sqlc.narg(if_versions)::bigint[] IS NULL OR version = ANY(sqlc.narg(if_versions)::bigint[]));

-- name: SetPostNotice :exec
UPDATE post SET notice = @notice WHERE id = @id;

-- name: SetPostBlockReason :exec
UPDATE post SET block_reason = @block_reason WHERE id = @id;

-- name: CountPosts :one
-- Visible posts of the list's filter.
SELECT count(*) FROM post p
WHERE p.block_reason IS NULL
  AND (sqlc.narg(category)::text IS NULL OR p.category = sqlc.narg(category))
  AND (sqlc.narg(tag)::text IS NULL OR p.tags @> ARRAY[sqlc.narg(tag)::text]);

-- name: CountNoticePosts :one
SELECT count(*) FROM post p
WHERE p.notice AND p.block_reason IS NULL
  AND (sqlc.narg(category)::text IS NULL OR p.category = sqlc.narg(category))
  AND (sqlc.narg(tag)::text IS NULL OR p.tags @> ARRAY[sqlc.narg(tag)::text]);

-- name: ListNoticePosts :many
SELECT sqlc.embed(p), m.name AS author_name, COALESCE('/api/images/' || m.profile_image_id::text, NULLIF(m.idp_a_picture, ''), '')::text AS author_avatar
FROM post p JOIN member m ON m.id = p.member_id
WHERE p.notice AND p.block_reason IS NULL
  AND (sqlc.narg(category)::text IS NULL OR p.category = sqlc.narg(category))
  AND (sqlc.narg(tag)::text IS NULL OR p.tags @> ARRAY[sqlc.narg(tag)::text])
ORDER BY p.created_at DESC, p.id DESC
LIMIT @lim OFFSET @off;

-- name: ListHotPosts :many
-- The hot posts that lead the list (notices are already at the top): most
-- up-votes first. hot_since comes from the one hot rule (hot.go); its vote
-- mark is the schema's hot_votes (up_count >= hotMinUp), which
-- post_hot_idx keys, so the list reads only the posts that have the votes.
SELECT sqlc.embed(p), m.name AS author_name, COALESCE('/api/images/' || m.profile_image_id::text, NULLIF(m.idp_a_picture, ''), '')::text AS author_avatar
FROM post p JOIN member m ON m.id = p.member_id
WHERE p.hot_votes AND NOT p.notice AND p.block_reason IS NULL
  AND p.created_at > @hot_since
  AND (sqlc.narg(category)::text IS NULL OR p.category = sqlc.narg(category))
  AND (sqlc.narg(tag)::text IS NULL OR p.tags @> ARRAY[sqlc.narg(tag)::text])
ORDER BY p.up_count DESC, p.created_at DESC, p.id DESC
LIMIT @lim;

-- name: ListRecentPosts :many
-- The rest of the list, newest first, without the notices and the hot posts
-- already shown at the top.
SELECT sqlc.embed(p), m.name AS author_name, COALESCE('/api/images/' || m.profile_image_id::text, NULLIF(m.idp_a_picture, ''), '')::text AS author_avatar
FROM post p JOIN member m ON m.id = p.member_id
WHERE NOT p.notice AND p.block_reason IS NULL
  AND p.id <> ALL(@exclude_ids::bigint[])
  AND (sqlc.narg(category)::text IS NULL OR p.category = sqlc.narg(category))
  AND (sqlc.narg(tag)::text IS NULL OR p.tags @> ARRAY[sqlc.narg(tag)::text])
ORDER BY p.created_at DESC, p.id DESC
LIMIT @lim OFFSET @off;

-- name: ListRecentPostsTop :many
-- ListRecentPosts for the whole board's first pages (offset + limit at most
-- recentTopRows, 100): the same rows in the same order. The constant inner
-- LIMIT bounds what a generic plan expects to read, so PostgreSQL keeps one
-- cached plan for it instead of planning the join on every request, as it
-- does for ListRecentPosts, whose parameter LIMIT makes a generic plan look
-- dearer than any custom one (0.2-0.4 ms of planning on a board of 100,000
-- posts, more than the page's execution). Rows are still read lazily: a
-- page of 20 reads 20 posts.
SELECT sqlc.embed(p), m.name AS author_name, COALESCE('/api/images/' || m.profile_image_id::text, NULLIF(m.idp_a_picture, ''), '')::text AS author_avatar
FROM (
  SELECT id, created_at FROM post
  WHERE NOT notice AND block_reason IS NULL AND id <> ALL(@exclude_ids::bigint[])
  ORDER BY created_at DESC, id DESC
  LIMIT 100
) top
JOIN post p ON p.id = top.id
JOIN member m ON m.id = p.member_id
ORDER BY top.created_at DESC, top.id DESC
LIMIT @lim OFFSET @off;

-- name: CountMemberPosts :one
SELECT count(*) FROM post WHERE member_id = @member_id;

-- name: ListMemberPosts :many
SELECT sqlc.embed(p), m.name AS author_name, COALESCE('/api/images/' || m.profile_image_id::text, NULLIF(m.idp_a_picture, ''), '')::text AS author_avatar
FROM post p JOIN member m ON m.id = p.member_id
WHERE p.member_id = @member_id
ORDER BY p.created_at DESC, p.id DESC
LIMIT @lim OFFSET @off;

-- name: ListReportedPosts :many
-- Posts for the administrators' report list: reported or blocked.
SELECT sqlc.embed(p), m.name AS author_name, COALESCE('/api/images/' || m.profile_image_id::text, NULLIF(m.idp_a_picture, ''), '')::text AS author_avatar
FROM post p JOIN member m ON m.id = p.member_id
WHERE p.id = ANY(@ids::bigint[]);

-- name: CountVisiblePosts :one
-- The visible posts of one board, or of all boards, from the kept totals.
SELECT COALESCE(sum(visible), 0)::bigint FROM post_total
WHERE sqlc.narg(category)::text IS NULL OR category = sqlc.narg(category);

-- name: GetPostAuthor :one
-- Whose post it is, read without a lock: a vote locks the members before the
-- post (database.LockOrder). An author never changes.
SELECT member_id FROM post WHERE id = @id;
