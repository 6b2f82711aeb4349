-- +goose Up
-- An entry's version follows its tags (00311) once per statement rather
-- than once per tag link: adding 20 tags, deleting a tag used on thousands
-- of entries (the links go by cascade) or restoring a backup's links by
-- COPY raises each entry's version in one UPDATE, not one UPDATE (and its
-- statement triggers) per link. The entries are locked in id order first,
-- so two such statements over the same entries queue rather than deadlock.
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION entry_tags_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM 1 FROM account_entry WHERE id IN (SELECT entry_id FROM old_rows) ORDER BY id FOR UPDATE;
        UPDATE account_entry SET version = version + 1 WHERE id IN (SELECT entry_id FROM old_rows);
    ELSE
        PERFORM 1 FROM account_entry WHERE id IN (SELECT entry_id FROM new_rows) ORDER BY id FOR UPDATE;
        UPDATE account_entry SET version = version + 1 WHERE id IN (SELECT entry_id FROM new_rows);
    END IF;
    RETURN NULL;
END
$$;
-- +goose StatementEnd
DROP TRIGGER account_entry_tag_version ON account_entry_tag;
CREATE TRIGGER account_entry_tag_version_insert AFTER INSERT ON account_entry_tag
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION entry_tags_version();
CREATE TRIGGER account_entry_tag_version_delete AFTER DELETE ON account_entry_tag
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION entry_tags_version();

-- +goose Down
DROP TRIGGER account_entry_tag_version_insert ON account_entry_tag;
DROP TRIGGER account_entry_tag_version_delete ON account_entry_tag;
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION entry_tags_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE account_entry SET version = version + 1
    WHERE id = CASE WHEN TG_OP = 'DELETE' THEN OLD.entry_id ELSE NEW.entry_id END;
    RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER account_entry_tag_version AFTER INSERT OR DELETE ON account_entry_tag
    FOR EACH ROW EXECUTE FUNCTION entry_tags_version();
