-- +goose Up
-- ETag and If-Match: every record a member edits carries a version that
-- every UPDATE raises by one (a trigger, so no write path can forget it). A
-- strong ETag is the record's version (internal/etag). A write sent with
-- If-Match names the versions it may change in its own UPDATE or DELETE
-- ("version = ANY(...)"), so the check and the write are one statement.
-- +goose StatementBegin
CREATE FUNCTION record_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.version := OLD.version + 1;
    RETURN NEW;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER wallet_version BEFORE UPDATE ON wallet FOR EACH ROW EXECUTE FUNCTION record_version();
CREATE TRIGGER account_category_version BEFORE UPDATE ON account_category FOR EACH ROW EXECUTE FUNCTION record_version();
CREATE TRIGGER account_tag_version BEFORE UPDATE ON account_tag FOR EACH ROW EXECUTE FUNCTION record_version();
CREATE TRIGGER account_entry_version BEFORE UPDATE ON account_entry FOR EACH ROW EXECUTE FUNCTION record_version();
CREATE TRIGGER recurring_version BEFORE UPDATE ON recurring FOR EACH ROW EXECUTE FUNCTION record_version();
CREATE TRIGGER quick_entry_version BEFORE UPDATE ON quick_entry FOR EACH ROW EXECUTE FUNCTION record_version();
CREATE TRIGGER budget_version BEFORE UPDATE ON budget FOR EACH ROW EXECUTE FUNCTION record_version();
CREATE TRIGGER budget_onetime_version BEFORE UPDATE ON budget_onetime FOR EACH ROW EXECUTE FUNCTION record_version();
CREATE TRIGGER transfer_version BEFORE UPDATE ON transfer FOR EACH ROW EXECUTE FUNCTION record_version();
CREATE TRIGGER stock_version BEFORE UPDATE ON stock FOR EACH ROW EXECUTE FUNCTION record_version();
CREATE TRIGGER invest_trade_version BEFORE UPDATE ON invest_trade FOR EACH ROW EXECUTE FUNCTION record_version();
CREATE TRIGGER post_version BEFORE UPDATE ON post FOR EACH ROW EXECUTE FUNCTION record_version();
CREATE TRIGGER comment_version BEFORE UPDATE ON comment FOR EACH ROW EXECUTE FUNCTION record_version();
CREATE TRIGGER member_version BEFORE UPDATE ON member FOR EACH ROW EXECUTE FUNCTION record_version();

-- An entry answers its tags: adding or removing one is a write of the entry,
-- once per statement rather than once per link (adding 20 tags, deleting a
-- tag used on thousands of entries, restoring a backup's links by COPY raise
-- each entry's version in one UPDATE).
--
-- An entry whose row this transaction wrote (xmin is the transaction's own
-- id) keeps its version: such a row is new, or was updated here, which
-- raised its version already, and no other transaction has seen the version
-- it carries. So the row a statement creating an entry with its tags returns
-- is the row it commits, and a create with tags is one statement. (A row
-- written in a subtransaction carries the subtransaction's id, and its tags
-- still raise its version; nothing here uses savepoints. A frozen row of
-- 2^32 transactions ago can carry the same 32-bit id as a transaction now:
-- its tags would then not raise its version, once in an epoch.) When there is
-- no entry whose version to raise, no UPDATE runs: an UPDATE that matches no
-- row still fires account_entry's statement triggers.
--
-- The links' entry ids are gathered first and the entries read with
-- `id = ANY(...)`, with enable_seqscan off: a PL/pgSQL function keeps its
-- plans for the connection's life, and a plan made while account_entry was
-- small (a sequential scan) would stay one as the table grew, where no
-- ANALYZE comes to replace it.
-- +goose StatementBegin
CREATE FUNCTION entry_tags_version() RETURNS trigger LANGUAGE plpgsql
SET enable_seqscan = off AS $$
DECLARE
    me xid := pg_current_xact_id()::xid;
    links bigint[];
    ids bigint[];
BEGIN
    IF TG_OP = 'DELETE' THEN
        SELECT array_agg(DISTINCT entry_id) INTO links FROM old_rows;
    ELSE
        SELECT array_agg(DISTINCT entry_id) INTO links FROM new_rows;
    END IF;
    -- Locked in id order, so two such statements over the same entries
    -- queue rather than deadlock; an entry written by this transaction
    -- (a new entry's tags) keeps its version.
    SELECT array_agg(e.id) INTO ids FROM (
        SELECT id FROM account_entry
        WHERE id = ANY(links) AND xmin <> me ORDER BY id FOR UPDATE) e;
    IF ids IS NOT NULL THEN
        UPDATE account_entry SET version = version + 1 WHERE id = ANY(ids);
    END IF;
    RETURN NULL;
END $$;
-- +goose StatementEnd
CREATE TRIGGER account_entry_tag_version_insert AFTER INSERT ON account_entry_tag
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION entry_tags_version();
CREATE TRIGGER account_entry_tag_version_delete AFTER DELETE ON account_entry_tag
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION entry_tags_version();

-- +goose Down
DROP TRIGGER account_entry_tag_version_delete ON account_entry_tag;
DROP TRIGGER account_entry_tag_version_insert ON account_entry_tag;
DROP FUNCTION entry_tags_version();
DROP TRIGGER member_version ON member;
DROP TRIGGER comment_version ON comment;
DROP TRIGGER post_version ON post;
DROP TRIGGER invest_trade_version ON invest_trade;
DROP TRIGGER stock_version ON stock;
DROP TRIGGER transfer_version ON transfer;
DROP TRIGGER budget_onetime_version ON budget_onetime;
DROP TRIGGER budget_version ON budget;
DROP TRIGGER quick_entry_version ON quick_entry;
DROP TRIGGER recurring_version ON recurring;
DROP TRIGGER account_entry_version ON account_entry;
DROP TRIGGER account_tag_version ON account_tag;
DROP TRIGGER account_category_version ON account_category;
DROP TRIGGER wallet_version ON wallet;
DROP FUNCTION record_version();
