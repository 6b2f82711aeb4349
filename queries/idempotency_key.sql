-- name: TryLockIdempotencyKey :one
-- Held by the request that runs under the key until its transaction ends; a
-- retry that finds it taken answers 409 instead of waiting.
SELECT pg_try_advisory_xact_lock(hashtextextended('idempotency:' || @member_id::bigint || ':' || @book_id::bigint || ':' || @key::text, 0))::boolean AS locked;

-- name: GetIdempotencyKey :one
-- The stored answer of a key, unless it is older than the window.
SELECT fingerprint, answer
FROM idempotency_key
WHERE member_id = @member_id AND book_id = @book_id AND key = @key AND created_at > @since;

-- name: InsertIdempotencyKey :execrows
-- Stores the first answer of a key: no row when the key has a fresh answer
-- already (a request under it committed after this one's replay check). A
-- row past the window, not yet deleted by the cleanup, is replaced.
INSERT INTO idempotency_key (member_id, book_id, key, fingerprint, answer, created_at)
VALUES (@member_id, @book_id, @key, @fingerprint, @answer, @created_at)
ON CONFLICT (member_id, book_id, key) DO UPDATE
SET fingerprint = EXCLUDED.fingerprint, answer = EXCLUDED.answer, created_at = EXCLUDED.created_at
WHERE idempotency_key.created_at <= @since;

-- name: DeleteIdempotencyKeysBefore :execrows
DELETE FROM idempotency_key WHERE created_at <= @before::timestamptz;
