-- name: ListPointHistory :many
SELECT points, reason, created_at FROM point_history
WHERE member_id = @member_id
ORDER BY created_at DESC, id DESC
LIMIT @lim;

-- name: GetMemberPoints :one
SELECT points FROM member WHERE id = @id;
