-- +goose Up
-- The board: posts, comments, votes, reports, images and tag groups.

-- A board post. blocked is block_reason IS NOT NULL: REPORTS (the fifth
-- report) or SPAM (a spam keyword at creation or edit). The counters are kept
-- by the triggers below, so a member's deletion (one cascading DELETE)
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
    updated_at    timestamptz NOT NULL,
    version       bigint      NOT NULL DEFAULT 1,
    -- The post list's hot posts (created within a day, at least 50 up-votes:
    -- board/hot.go) are read by post_hot_idx, an index of the posts that have
    -- the votes. The vote count is not in the index: it keys this flag, which
    -- changes only when a post crosses the mark, so a vote that does not
    -- cross it still updates the post in place (a HOT update) rather than
    -- every index of post. 50 is hotMinUp; TestHotMarkMatchesTheSchema holds
    -- the two equal.
    hot_votes     boolean     NOT NULL GENERATED ALWAYS AS (up_count >= 50) STORED
);
-- The list reads visible posts newest first, per board or across boards.
CREATE INDEX post_list_idx ON post (category, created_at DESC, id DESC) WHERE block_reason IS NULL;
CREATE INDEX post_list_all_idx ON post (created_at DESC, id DESC) WHERE block_reason IS NULL;
CREATE INDEX post_notice_idx ON post (created_at DESC) WHERE notice AND block_reason IS NULL;
CREATE INDEX post_tags_idx ON post USING gin (tags);
CREATE INDEX post_member_idx ON post (member_id, created_at DESC, id DESC);
-- The administrators' report list: reported or blocked posts only.
CREATE INDEX post_reported_idx ON post (report_count DESC, id DESC) WHERE report_count > 0 OR block_reason IS NOT NULL;
CREATE INDEX post_hot_idx ON post (created_at DESC) WHERE hot_votes AND NOT notice AND block_reason IS NULL;

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
    updated_at   timestamptz NOT NULL,
    version      bigint      NOT NULL DEFAULT 1
);
CREATE INDEX comment_post_idx ON comment (post_id, created_at, id);
CREATE INDEX comment_member_idx ON comment (member_id, created_at DESC, id DESC);
CREATE INDEX comment_reported_idx ON comment (report_count DESC, id DESC) WHERE report_count > 0 OR block_reason IS NOT NULL;

-- One vote per member per target (the primary key). author_points is what the
-- author's balance actually changed by for this vote (after the daily cap and
-- the zero floor), so cancelling or switching gives back exactly that.
CREATE TABLE post_vote (
    post_id       bigint      NOT NULL REFERENCES post (id) ON DELETE CASCADE,
    member_id     bigint      NOT NULL REFERENCES member (id) ON DELETE CASCADE,
    direction     text        NOT NULL CHECK (direction IN ('UP', 'DOWN')),
    author_points integer     NOT NULL DEFAULT 0,
    created_at    timestamptz NOT NULL,
    PRIMARY KEY (post_id, member_id)
);
CREATE INDEX post_vote_member_idx ON post_vote (member_id);
-- Recommenders: the up-voters of a post, newest first.
CREATE INDEX post_vote_up_idx ON post_vote (post_id, created_at DESC) WHERE direction = 'UP';

CREATE TABLE comment_vote (
    comment_id    bigint      NOT NULL REFERENCES comment (id) ON DELETE CASCADE,
    member_id     bigint      NOT NULL REFERENCES member (id) ON DELETE CASCADE,
    direction     text        NOT NULL CHECK (direction IN ('UP', 'DOWN')),
    author_points integer     NOT NULL DEFAULT 0,
    created_at    timestamptz NOT NULL,
    PRIMARY KEY (comment_id, member_id)
);
CREATE INDEX comment_vote_member_idx ON comment_vote (member_id);

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

-- Uploaded board images live in PostgreSQL so that every replica serves them.
-- The id is random: an image is public, but its address cannot be guessed.
-- An image neither a post nor a profile uses a day after its upload is
-- deleted by the image-cleanup job.
CREATE TABLE board_image (
    id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    member_id    bigint      NOT NULL REFERENCES member (id) ON DELETE CASCADE,
    content_type text        NOT NULL,
    data         bytea       NOT NULL,
    -- Hex SHA-256 of data: the ETag.
    sha256       text        NOT NULL,
    created_at   timestamptz NOT NULL,
    -- Uploads are stripped of metadata before they are stored. A row marked
    -- false (an image stored before every container was stripped) is
    -- stripped on the fly by the image GET and rewritten by the image-cleanup
    -- job, in batches.
    meta_stripped boolean    NOT NULL DEFAULT true
);
CREATE INDEX board_image_member_idx ON board_image (member_id);
-- The cleanup job finds old images by upload time.
CREATE INDEX board_image_created_idx ON board_image (created_at);
CREATE INDEX board_image_unstripped_idx ON board_image (id) WHERE NOT meta_stripped;

ALTER TABLE member ADD CONSTRAINT member_profile_image_id_fkey
    FOREIGN KEY (profile_image_id) REFERENCES board_image (id) ON DELETE SET NULL;

-- post_image says which images a post shows, so "is this image used" is an
-- index lookup rather than a scan of every post's image_urls. Written with
-- the post; a post's deletion takes its rows with it.
CREATE TABLE post_image (
    post_id  bigint NOT NULL REFERENCES post (id) ON DELETE CASCADE,
    image_id uuid   NOT NULL REFERENCES board_image (id) ON DELETE CASCADE,
    PRIMARY KEY (post_id, image_id)
);
CREATE INDEX post_image_image_idx ON post_image (image_id);

-- Uploads per member and day (in the service time zone), for the daily limit.
-- A counter rather than a count of board_image rows: deleting an unused image
-- must not give an upload back.
CREATE TABLE image_upload_day (
    member_id bigint  NOT NULL REFERENCES member (id) ON DELETE CASCADE,
    day       date    NOT NULL,
    uploads   integer NOT NULL,
    PRIMARY KEY (member_id, day)
);

-- Tag groups an administrator keeps for the boards (SPEC calls them
-- tag_category); a group with no board rows applies to every board.
CREATE TABLE tag_group (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name       text        NOT NULL,
    tags       text[]      NOT NULL DEFAULT '{}',
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE tag_group_board (
    tag_group_id bigint NOT NULL REFERENCES tag_group (id) ON DELETE CASCADE,
    board        text   NOT NULL CHECK (board IN ('community', 'saving', 'tips')),
    PRIMARY KEY (tag_group_id, board)
);

-- Vote, comment and report counters follow their rows in the same
-- transaction. Triggers rather than application code, because deleting a
-- member is one cascading DELETE: their votes, comments and reports vanish
-- without any board code running, and the counts on other members' content
-- must still be right. The increments are single UPDATEs, so they are exact
-- under concurrency; the board code locks the target row before it votes or
-- reports, which serializes the rest of its checks.

-- +goose StatementBegin
CREATE FUNCTION post_vote_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('DELETE', 'UPDATE') THEN
        UPDATE post SET up_count = up_count - (OLD.direction = 'UP')::int,
                        down_count = down_count - (OLD.direction = 'DOWN')::int
        WHERE id = OLD.post_id;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        UPDATE post SET up_count = up_count + (NEW.direction = 'UP')::int,
                        down_count = down_count + (NEW.direction = 'DOWN')::int
        WHERE id = NEW.post_id;
    END IF;
    RETURN NULL;
END $$;
-- +goose StatementEnd
CREATE TRIGGER post_vote_count AFTER INSERT OR UPDATE OF direction OR DELETE ON post_vote
FOR EACH ROW EXECUTE FUNCTION post_vote_count();

-- +goose StatementBegin
CREATE FUNCTION comment_vote_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('DELETE', 'UPDATE') THEN
        UPDATE comment SET up_count = up_count - (OLD.direction = 'UP')::int,
                           down_count = down_count - (OLD.direction = 'DOWN')::int
        WHERE id = OLD.comment_id;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        UPDATE comment SET up_count = up_count + (NEW.direction = 'UP')::int,
                           down_count = down_count + (NEW.direction = 'DOWN')::int
        WHERE id = NEW.comment_id;
    END IF;
    RETURN NULL;
END $$;
-- +goose StatementEnd
CREATE TRIGGER comment_vote_count AFTER INSERT OR UPDATE OF direction OR DELETE ON comment_vote
FOR EACH ROW EXECUTE FUNCTION comment_vote_count();

-- +goose StatementBegin
CREATE FUNCTION comment_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        UPDATE post SET comment_count = comment_count - 1 WHERE id = OLD.post_id;
    ELSE
        UPDATE post SET comment_count = comment_count + 1 WHERE id = NEW.post_id;
    END IF;
    RETURN NULL;
END $$;
-- +goose StatementEnd
CREATE TRIGGER comment_count AFTER INSERT OR DELETE ON comment
FOR EACH ROW EXECUTE FUNCTION comment_count();

-- +goose StatementBegin
CREATE FUNCTION report_count() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    delta int := CASE WHEN TG_OP = 'DELETE' THEN -1 ELSE 1 END;
    r report := CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
BEGIN
    IF r.post_id IS NOT NULL THEN
        UPDATE post SET report_count = report_count + delta WHERE id = r.post_id;
    ELSE
        UPDATE comment SET report_count = report_count + delta WHERE id = r.comment_id;
    END IF;
    RETURN NULL;
END $$;
-- +goose StatementEnd
CREATE TRIGGER report_count AFTER INSERT OR DELETE ON report
FOR EACH ROW EXECUTE FUNCTION report_count();

-- The number of visible (not blocked) posts per board, kept by a trigger in
-- the writing transaction: the post list answers its total without counting
-- a large board on every read. (A tag-filtered list still counts its posts.)
CREATE TABLE post_total (
    category text PRIMARY KEY CHECK (category IN ('community', 'saving', 'tips')),
    visible  bigint NOT NULL DEFAULT 0
);
INSERT INTO post_total (category) VALUES ('community'), ('saving'), ('tips');
-- Statement triggers with transition tables: a statement that writes many
-- posts (a member's deletion, a bulk load) changes each total once.
-- +goose StatementBegin
CREATE FUNCTION post_total_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        UPDATE post_total t SET visible = t.visible + d.n
        FROM (SELECT category, count(*) AS n FROM new_rows WHERE block_reason IS NULL GROUP BY category) d
        WHERE t.category = d.category;
    ELSIF TG_OP = 'DELETE' THEN
        UPDATE post_total t SET visible = t.visible - d.n
        FROM (SELECT category, count(*) AS n FROM old_rows WHERE block_reason IS NULL GROUP BY category) d
        WHERE t.category = d.category;
    ELSE
        UPDATE post_total t SET visible = t.visible + d.n
        FROM (
            SELECT category, sum(n) AS n FROM (
                SELECT category, -1 AS n FROM old_rows WHERE block_reason IS NULL
                UNION ALL
                SELECT category, 1 FROM new_rows WHERE block_reason IS NULL
            ) c GROUP BY category
        ) d
        WHERE t.category = d.category AND d.n <> 0;
    END IF;
    RETURN NULL;
END $$;
-- +goose StatementEnd
CREATE TRIGGER post_total_insert AFTER INSERT ON post REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION post_total_count();
CREATE TRIGGER post_total_delete AFTER DELETE ON post REFERENCING OLD TABLE AS old_rows
FOR EACH STATEMENT EXECUTE FUNCTION post_total_count();
CREATE TRIGGER post_total_update AFTER UPDATE ON post REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION post_total_count();

-- +goose Down
DROP TABLE post_total;
DROP FUNCTION post_total_count();
DROP FUNCTION report_count();
DROP FUNCTION comment_count();
DROP FUNCTION comment_vote_count();
DROP FUNCTION post_vote_count();
DROP TABLE tag_group_board;
DROP TABLE tag_group;
DROP TABLE image_upload_day;
DROP TABLE post_image;
ALTER TABLE member DROP CONSTRAINT member_profile_image_id_fkey;
DROP TABLE board_image;
DROP TABLE report;
DROP TABLE comment_vote;
DROP TABLE post_vote;
DROP TABLE comment;
DROP TABLE post;
