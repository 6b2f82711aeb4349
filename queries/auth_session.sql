-- name: GetAuthSession :one
SELECT data, expires_at FROM auth_session
WHERE token_hash = @token_hash AND expires_at > @now;

-- name: GetSessionPrincipal :one
-- What every authenticated request needs: its member, and that its session
-- still stands (not ended, not revoked by a newer epoch, not expired), in one
-- read. PostgreSQL is the authority; the Redis copy only saves decoding work.
SELECT m.id, m.email, m.name, m.role, m.plan, m.plan_expires_at, m.month_start_day,
       s.expires_at, s.deadline
FROM auth_session s
JOIN member m ON m.id = s.member_id
WHERE s.token_hash = @token_hash
  AND s.expires_at > @now
  AND s.epoch >= m.session_epoch
  AND m.status = 'ACTIVE';

-- name: InsertAuthSession :exec
-- Only a sign-in creates a session row.
INSERT INTO auth_session (token_hash, member_id, epoch, data, expires_at, deadline)
VALUES (@token_hash, @member_id, @epoch, @data, @expires_at, @deadline);

-- name: UpdateAuthSessionData :execrows
-- A change of a session's values; an ended session (no row) stays ended.
UPDATE auth_session SET data = @data, updated_at = now()
WHERE token_hash = @token_hash;

-- name: SlideAuthSession :execrows
-- Moves the idle expiry forward when it is at least one step behind, so of
-- several requests in one step exactly one writes.
UPDATE auth_session SET expires_at = @expires_at, updated_at = now()
WHERE token_hash = @token_hash AND expires_at < @behind;

-- name: SetAuthSessionEpoch :exec
UPDATE auth_session SET epoch = @epoch WHERE token_hash = @token_hash;

-- name: DeleteAuthSession :exec
DELETE FROM auth_session WHERE token_hash = @token_hash;

-- name: DeleteMemberAuthSessions :many
-- Ends a member's sessions, all or all but one; answers the ended tokens'
-- hashes so their Redis copies can go too.
DELETE FROM auth_session
WHERE member_id = @member_id AND token_hash <> @keep_token_hash
RETURNING token_hash;

-- name: DeleteExpiredAuthSessions :execrows
DELETE FROM auth_session WHERE expires_at <= @now;
