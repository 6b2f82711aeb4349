-- +goose Up
-- Failed password checks, counted per key (an e-mail, a client address, a
-- member) over a short window to slow down guessing. Keyed by the e-mail as
-- typed, so the throttle says nothing about whether an account exists.
CREATE TABLE auth_failure (
    id        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    key       text        NOT NULL,
    failed_at timestamptz NOT NULL
);
CREATE INDEX auth_failure_key_idx ON auth_failure (key, failed_at);

-- +goose Down
DROP TABLE auth_failure;
