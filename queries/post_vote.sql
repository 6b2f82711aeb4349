-- name: GetPostVote :one
SELECT direction, author_points, created_at FROM post_vote WHERE post_id = @post_id AND member_id = @member_id;

-- name: InsertPostVote :exec
INSERT INTO post_vote (post_id, member_id, direction, author_points, created_at)
VALUES (@post_id, @member_id, @direction, @author_points, @now);

-- name: UpdatePostVote :exec
UPDATE post_vote SET direction = @direction, author_points = @author_points, created_at = @now
WHERE post_id = @post_id AND member_id = @member_id;

-- name: DeletePostVote :exec
DELETE FROM post_vote WHERE post_id = @post_id AND member_id = @member_id;

-- name: GetPostCounts :one
SELECT up_count, down_count FROM post WHERE id = @id;

-- name: ListMyPostVotes :many
SELECT post_id, direction FROM post_vote WHERE member_id = @member_id AND post_id = ANY(@post_ids::bigint[]);

-- name: ListPostUpVoters :many
SELECT m.id, m.name, COALESCE('/api/images/' || m.profile_image_id::text, NULLIF(m.idp_a_picture, ''), '')::text AS avatar
FROM post_vote v JOIN member m ON m.id = v.member_id
WHERE v.post_id = @post_id AND v.direction = 'UP'
ORDER BY v.created_at DESC, m.id DESC
LIMIT @lim OFFSET @off;
