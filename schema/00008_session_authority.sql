-- +goose Up
-- PostgreSQL is the authority on which sessions exist: every authenticated
-- request reads its member joined with its auth_session row, so a session
-- deleted here is over on every replica, whatever Redis still holds.
--
-- A member's sessions are revoked by raising session_epoch: a session whose
-- epoch is below its member's is over. An integer compared in one database
-- replaces the earlier timestamp, which compared two replicas' clocks.
ALTER TABLE member DROP COLUMN sessions_revoked_at;
ALTER TABLE member ADD COLUMN session_epoch bigint NOT NULL DEFAULT 0;
-- Whether the member proved they own their e-mail (a verified identity-provider
-- e-mail). A LOCAL sign-up proves nothing: linking a provider identity to such
-- an account clears its password and ends its sessions.
ALTER TABLE member ADD COLUMN email_verified boolean NOT NULL DEFAULT false;

ALTER TABLE auth_session ADD COLUMN epoch bigint NOT NULL DEFAULT 0;
-- Only sessions of a member are stored.
DELETE FROM auth_session WHERE member_id IS NULL;
ALTER TABLE auth_session ALTER COLUMN member_id SET NOT NULL;
-- The absolute end of the session, whatever its use (expires_at slides).
ALTER TABLE auth_session ADD COLUMN deadline timestamptz;
UPDATE auth_session SET deadline = expires_at;
ALTER TABLE auth_session ALTER COLUMN deadline SET NOT NULL;

-- +goose Down
ALTER TABLE auth_session DROP COLUMN deadline;
ALTER TABLE auth_session ALTER COLUMN member_id DROP NOT NULL;
ALTER TABLE auth_session DROP COLUMN epoch;
ALTER TABLE member DROP COLUMN email_verified;
ALTER TABLE member DROP COLUMN session_epoch;
ALTER TABLE member ADD COLUMN sessions_revoked_at timestamptz;
