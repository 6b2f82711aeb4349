-- name: InsertPostReport :execrows
INSERT INTO report (member_id, post_id, created_at) VALUES (@member_id, @post_id::bigint, @now)
ON CONFLICT (member_id, post_id) DO NOTHING;

-- name: InsertCommentReport :execrows
INSERT INTO report (member_id, comment_id, created_at) VALUES (@member_id, @comment_id::bigint, @now)
ON CONFLICT (member_id, comment_id) DO NOTHING;

-- name: DeletePostReports :exec
DELETE FROM report WHERE post_id = @post_id::bigint;

-- name: DeleteCommentReports :exec
DELETE FROM report WHERE comment_id = @comment_id::bigint;

-- name: CountReportedTargets :one
SELECT ((SELECT count(*) FROM post WHERE report_count > 0 OR block_reason IS NOT NULL)
      + (SELECT count(*) FROM comment WHERE report_count > 0 OR block_reason IS NOT NULL))::bigint;

-- name: ListReportedTargets :many
-- Posts and comments together, one row per target, most reported first.
SELECT target_type::text AS target_type, target_id::bigint AS target_id, report_count::int AS report_count FROM (
    SELECT 'POST' AS target_type, id AS target_id, report_count, created_at FROM post
    WHERE report_count > 0 OR block_reason IS NOT NULL
    UNION ALL
    SELECT 'COMMENT', id, report_count, created_at FROM comment
    WHERE report_count > 0 OR block_reason IS NOT NULL
) t
ORDER BY report_count DESC, created_at DESC, target_type DESC, target_id DESC
LIMIT @lim OFFSET @off;
