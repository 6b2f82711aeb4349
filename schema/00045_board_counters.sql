-- +goose Up
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

-- +goose Down
DROP TRIGGER report_count ON report;
DROP FUNCTION report_count();
DROP TRIGGER comment_count ON comment;
DROP FUNCTION comment_count();
DROP TRIGGER comment_vote_count ON comment_vote;
DROP FUNCTION comment_vote_count();
DROP TRIGGER post_vote_count ON post_vote;
DROP FUNCTION post_vote_count();
