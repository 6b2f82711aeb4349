-- +goose Up
CREATE TABLE point_history (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    member_id  bigint      NOT NULL REFERENCES member (id) ON DELETE CASCADE,
    points     integer     NOT NULL,
    reason     text        NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
-- History reads are "newest first, at most 100" per member.
CREATE INDEX point_history_member_idx ON point_history (member_id, created_at DESC, id DESC);

-- +goose Down
DROP TABLE point_history;
