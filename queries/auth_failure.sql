-- name: CountAuthFailures :one
-- The failures of a key since a moment, and the oldest of them (to tell the
-- client when to retry).
SELECT count(*) AS failures, COALESCE(min(failed_at), @since::timestamptz)::timestamptz AS oldest
FROM auth_failure WHERE key = @key AND failed_at > @since;

-- name: RecordAuthFailures :exec
INSERT INTO auth_failure (key, failed_at) SELECT unnest(@keys::text[]), @failed_at;

-- name: ClearAuthFailures :exec
DELETE FROM auth_failure WHERE key = @key;

-- name: DeleteAuthFailuresBefore :execrows
DELETE FROM auth_failure WHERE failed_at <= @before;
