-- +goose Up
-- A member's report of a post or a comment (exactly one of the two), one per
-- member per target.
CREATE TABLE report (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    member_id  bigint      NOT NULL REFERENCES member (id) ON DELETE CASCADE,
    post_id    bigint      REFERENCES post (id) ON DELETE CASCADE,
    comment_id bigint      REFERENCES comment (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL,
    CHECK (num_nonnulls(post_id, comment_id) = 1),
    CONSTRAINT report_post_key UNIQUE (member_id, post_id),
    CONSTRAINT report_comment_key UNIQUE (member_id, comment_id)
);
CREATE INDEX report_post_idx ON report (post_id) WHERE post_id IS NOT NULL;
CREATE INDEX report_comment_idx ON report (comment_id) WHERE comment_id IS NOT NULL;

-- +goose Down
DROP TABLE report;
