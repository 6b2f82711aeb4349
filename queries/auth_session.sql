-- name: GetAuthSession :one
SELECT data, expires_at FROM auth_session
WHERE token_hash = @token_hash AND expires_at > @now;

-- name: UpsertAuthSession :exec
INSERT INTO auth_session (token_hash, member_id, data, expires_at, updated_at)
VALUES (@token_hash, @member_id, @data, @expires_at, now())
ON CONFLICT (token_hash) DO UPDATE
SET member_id = EXCLUDED.member_id, data = EXCLUDED.data, expires_at = EXCLUDED.expires_at, updated_at = now();

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
