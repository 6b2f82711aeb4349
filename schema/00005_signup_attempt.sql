-- +goose Up
-- Sign-up attempts per client address, for the limit of 5 an hour. Kept in
-- PostgreSQL so the limit holds across replicas and through a Redis outage.
CREATE TABLE signup_attempt (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    address      text        NOT NULL,
    attempted_at timestamptz NOT NULL
);
CREATE INDEX signup_attempt_address_idx ON signup_attempt (address, attempted_at);

-- +goose Down
DROP TABLE signup_attempt;
