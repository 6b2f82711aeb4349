-- +goose Up
-- Durable mirror of the Redis session store. token_hash is the SHA-256 of the
-- session token (scs HashTokenInStore), so a copy of this table is no usable
-- session. data is the scs-encoded session.
CREATE TABLE auth_session (
    token_hash text PRIMARY KEY,
    member_id  bigint      REFERENCES member (id) ON DELETE CASCADE,
    data       bytea       NOT NULL,
    expires_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX auth_session_member_idx ON auth_session (member_id);
CREATE INDEX auth_session_expiry_idx ON auth_session (expires_at);

-- +goose Down
DROP TABLE auth_session;
