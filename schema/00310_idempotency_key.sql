-- +goose Up
-- Idempotency-Key (issue 22): the first answer of a member's creating POST,
-- kept 24 hours so that a retry with the same key gets it again. A row is
-- written in the same transaction as the effect it answers for, so a crash
-- leaves both or neither. There is no foreign key to member: the row is
-- inserted last in a transaction that already holds money rows, and the key
-- share lock a foreign key check takes on the member row would stand against
-- the lock order (member rows first). A deleted member's rows go with the
-- hourly cleanup, within a day (member ids are never reused).
CREATE TABLE idempotency_key (
    member_id    bigint      NOT NULL,
    key          text        NOT NULL CHECK (length(key) BETWEEN 1 AND 255),
    -- sha256 of method, path and body: the same key with another request is 422.
    fingerprint  bytea       NOT NULL,
    status       smallint    NOT NULL,
    -- the answer's headers a replay repeats (Content-Type, Location, ETag)
    headers      jsonb       NOT NULL,
    body         bytea       NOT NULL,
    created_at   timestamptz NOT NULL,
    PRIMARY KEY (member_id, key)
);
-- Rows arrive in time order: a BRIN index lets the cleanup find old rows
-- while adding next to nothing to an insert.
CREATE INDEX idempotency_key_created_at_idx ON idempotency_key USING brin (created_at);

-- +goose Down
DROP TABLE idempotency_key;
