-- +goose Up
-- A board post. blocked is block_reason IS NOT NULL: REPORTS (the fifth
-- report) or SPAM (a spam keyword at creation or edit). The counters are kept
-- by the triggers of 00045, so a member's deletion (one cascading DELETE)
-- leaves the counts on other members' posts right.
CREATE TABLE post (
    id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    member_id     bigint      NOT NULL REFERENCES member (id) ON DELETE CASCADE,
    category      text        NOT NULL CHECK (category IN ('community', 'saving', 'tips')),
    title         text        NOT NULL,
    body          text        NOT NULL,
    tags          text[]      NOT NULL DEFAULT '{}',
    image_urls    text[]      NOT NULL DEFAULT '{}',
    notice        boolean     NOT NULL DEFAULT false,
    block_reason  text        CHECK (block_reason IN ('REPORTS', 'SPAM')),
    up_count      integer     NOT NULL DEFAULT 0,
    down_count    integer     NOT NULL DEFAULT 0,
    comment_count integer     NOT NULL DEFAULT 0,
    report_count  integer     NOT NULL DEFAULT 0,
    created_at    timestamptz NOT NULL,
    updated_at    timestamptz NOT NULL
);
-- The list reads visible posts newest first, per board or across boards.
CREATE INDEX post_list_idx ON post (category, created_at DESC, id DESC) WHERE block_reason IS NULL;
CREATE INDEX post_list_all_idx ON post (created_at DESC, id DESC) WHERE block_reason IS NULL;
CREATE INDEX post_notice_idx ON post (created_at DESC) WHERE notice AND block_reason IS NULL;
CREATE INDEX post_tags_idx ON post USING gin (tags);
CREATE INDEX post_member_idx ON post (member_id, created_at DESC, id DESC);
-- The administrators' report list: reported or blocked posts only.
CREATE INDEX post_reported_idx ON post (report_count DESC, id DESC) WHERE report_count > 0 OR block_reason IS NOT NULL;

-- +goose Down
DROP TABLE post;
