-- +goose Up
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

-- +goose Down
DROP TABLE comment_vote;
DROP TABLE post_vote;
