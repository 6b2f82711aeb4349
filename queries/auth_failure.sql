-- name: LockAuthFailureKey :exec
-- Serialises the count-and-reserve of one key's attempts.
SELECT pg_advisory_xact_lock(hashtextextended('auth_failure:' || @key::text, 0));

-- name: CountAuthFailures :one
-- The failures of a key since a moment, and the oldest of them (to tell the
-- client when to retry).
SELECT count(*) AS failures, COALESCE(min(failed_at), @since::timestamptz)::timestamptz AS oldest
FROM auth_failure WHERE key = @key AND failed_at > @since;

-- name: ReserveAuthFailures :many
-- Records an attempt against each key as a failure before the password is
-- checked; a success deletes them again.
INSERT INTO auth_failure (key, failed_at) SELECT unnest(@keys::text[]), @failed_at
RETURNING id;

-- name: DeleteAuthFailures :exec
DELETE FROM auth_failure WHERE id = ANY(@ids::bigint[]);

-- name: ClearAuthFailures :exec
DELETE FROM auth_failure WHERE key = @key;

-- name: DeleteAuthFailuresBefore :execrows
DELETE FROM auth_failure WHERE failed_at <= @before;
