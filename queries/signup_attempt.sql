-- name: LockSignupAddress :exec
-- Serialises the count-and-record of one address's attempts.
SELECT pg_advisory_xact_lock(hashtextextended('signup:' || @address::text, 0));

-- name: CountSignupAttempts :one
SELECT count(*) AS attempts, COALESCE(min(attempted_at), @since::timestamptz)::timestamptz AS oldest
FROM signup_attempt WHERE address = @address AND attempted_at > @since;

-- name: RecordSignupAttempt :exec
INSERT INTO signup_attempt (address, attempted_at) VALUES (@address, @attempted_at);

-- name: DeleteSignupAttemptsBefore :execrows
DELETE FROM signup_attempt WHERE attempted_at <= @before;
