-- +goose Up
-- The post list's hot posts (created within a day, at least 50 up-votes:
-- board/hot.go) by an index of the posts that have the votes, so the list
-- reads the few that qualify instead of every post of the last day (on a
-- board of 1,440 posts a day, 1,800 rows read and dropped for each list).
-- The vote count is not in the index: the index keys a stored generated
-- flag that changes only when a post crosses the mark, so the vote that does
-- not cross it still updates the post in place (a HOT update) rather than
-- every index of post. 50 is hotMinUp; TestHotMarkMatchesTheSchema holds
-- the two equal.
ALTER TABLE post ADD COLUMN hot_votes boolean NOT NULL GENERATED ALWAYS AS (up_count >= 50) STORED;
CREATE INDEX post_hot_idx ON post (created_at DESC) WHERE hot_votes AND NOT notice AND block_reason IS NULL;

-- +goose Down
DROP INDEX post_hot_idx;
ALTER TABLE post DROP COLUMN hot_votes;
