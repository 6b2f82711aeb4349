-- name: GetCommentVote :one
SELECT direction, author_points, created_at FROM comment_vote WHERE comment_id = @comment_id AND member_id = @member_id;

-- name: InsertCommentVote :exec
INSERT INTO comment_vote (comment_id, member_id, direction, author_points, created_at)
VALUES (@comment_id, @member_id, @direction, @author_points, @now);

-- name: UpdateCommentVote :exec
UPDATE comment_vote SET direction = @direction, author_points = @author_points, created_at = @now
WHERE comment_id = @comment_id AND member_id = @member_id;

-- name: DeleteCommentVote :exec
DELETE FROM comment_vote WHERE comment_id = @comment_id AND member_id = @member_id;

-- name: GetCommentCounts :one
SELECT up_count, down_count FROM comment WHERE id = @id;

-- name: ListMyCommentVotes :many
SELECT comment_id, direction FROM comment_vote WHERE member_id = @member_id AND comment_id = ANY(@comment_ids::bigint[]);
