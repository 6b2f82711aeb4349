-- +goose Up
-- The number of visible (not blocked) posts per board, kept by a trigger in
-- the writing transaction: the post list answers its total without counting
-- a large board on every read. (A tag-filtered list still counts its posts.)
CREATE TABLE post_total (
    category text PRIMARY KEY CHECK (category IN ('community', 'saving', 'tips')),
    visible  bigint NOT NULL DEFAULT 0
);
INSERT INTO post_total (category, visible)
SELECT c, (SELECT count(*) FROM post WHERE category = c AND block_reason IS NULL)
FROM unnest(ARRAY['community', 'saving', 'tips']) AS c;

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
DROP TRIGGER post_total_update ON post;
DROP TRIGGER post_total_delete ON post;
DROP TRIGGER post_total_insert ON post;
DROP FUNCTION post_total_count();
DROP TABLE post_total;
