-- +goose Up
CREATE TABLE comment (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    post_id      bigint      NOT NULL REFERENCES post (id) ON DELETE CASCADE,
    member_id    bigint      NOT NULL REFERENCES member (id) ON DELETE CASCADE,
    body         text        NOT NULL,
    block_reason text        CHECK (block_reason IN ('REPORTS', 'SPAM')),
    up_count     integer     NOT NULL DEFAULT 0,
    down_count   integer     NOT NULL DEFAULT 0,
    report_count integer     NOT NULL DEFAULT 0,
    created_at   timestamptz NOT NULL,
    updated_at   timestamptz NOT NULL
);
CREATE INDEX comment_post_idx ON comment (post_id, created_at, id);
CREATE INDEX comment_member_idx ON comment (member_id, created_at DESC, id DESC);
CREATE INDEX comment_reported_idx ON comment (report_count DESC, id DESC) WHERE report_count > 0 OR block_reason IS NOT NULL;

-- +goose Down
DROP TABLE comment;
