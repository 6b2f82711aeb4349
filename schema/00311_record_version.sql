-- +goose Up
-- ETag and If-Match (issue 22): every record a member edits carries a
-- version that every UPDATE raises by one (a trigger, so no write path can
-- forget it). A strong ETag is the record's version.
--
-- If-Match is checked against the version the row had when the request's
-- transaction took the row's lock (its UPDATE or DELETE): the trigger
-- remembers it, transaction-locally, for the one row the request watches
-- (nestegg.watch = '<table>.<id>', set by the request), and the request
-- compares it before it commits. The row stays locked from that write to the
-- commit, so the check and the write are one atomic step, and no lock is
-- taken out of the lock order.
-- +goose StatementBegin
CREATE FUNCTION record_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF current_setting('nestegg.watch', true) = TG_TABLE_NAME || '.' || OLD.id
       AND coalesce(current_setting('nestegg.watched_version', true), '') = '' THEN
        PERFORM set_config('nestegg.watched_version', OLD.version::text, true);
    END IF;
    IF TG_OP = 'DELETE' THEN
        RETURN OLD;
    END IF;
    NEW.version := OLD.version + 1;
    RETURN NEW;
END
$$;
-- +goose StatementEnd
-- An entry answers its tags: adding or removing one is a write of the entry.
-- (The entry's row is already locked by the write that changes its tags.)
-- +goose StatementBegin
CREATE FUNCTION entry_tags_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE account_entry SET version = version + 1
    WHERE id = CASE WHEN TG_OP = 'DELETE' THEN OLD.entry_id ELSE NEW.entry_id END;
    RETURN NULL;
END
$$;
-- +goose StatementEnd
ALTER TABLE wallet ADD COLUMN version bigint NOT NULL DEFAULT 1;
CREATE TRIGGER wallet_version BEFORE UPDATE OR DELETE ON wallet FOR EACH ROW EXECUTE FUNCTION record_version();
ALTER TABLE account_category ADD COLUMN version bigint NOT NULL DEFAULT 1;
CREATE TRIGGER account_category_version BEFORE UPDATE OR DELETE ON account_category FOR EACH ROW EXECUTE FUNCTION record_version();
ALTER TABLE account_tag ADD COLUMN version bigint NOT NULL DEFAULT 1;
CREATE TRIGGER account_tag_version BEFORE UPDATE OR DELETE ON account_tag FOR EACH ROW EXECUTE FUNCTION record_version();
ALTER TABLE account_entry ADD COLUMN version bigint NOT NULL DEFAULT 1;
CREATE TRIGGER account_entry_version BEFORE UPDATE OR DELETE ON account_entry FOR EACH ROW EXECUTE FUNCTION record_version();
ALTER TABLE recurring ADD COLUMN version bigint NOT NULL DEFAULT 1;
CREATE TRIGGER recurring_version BEFORE UPDATE OR DELETE ON recurring FOR EACH ROW EXECUTE FUNCTION record_version();
ALTER TABLE quick_entry ADD COLUMN version bigint NOT NULL DEFAULT 1;
CREATE TRIGGER quick_entry_version BEFORE UPDATE OR DELETE ON quick_entry FOR EACH ROW EXECUTE FUNCTION record_version();
ALTER TABLE budget ADD COLUMN version bigint NOT NULL DEFAULT 1;
CREATE TRIGGER budget_version BEFORE UPDATE OR DELETE ON budget FOR EACH ROW EXECUTE FUNCTION record_version();
ALTER TABLE budget_onetime ADD COLUMN version bigint NOT NULL DEFAULT 1;
CREATE TRIGGER budget_onetime_version BEFORE UPDATE OR DELETE ON budget_onetime FOR EACH ROW EXECUTE FUNCTION record_version();
ALTER TABLE transfer ADD COLUMN version bigint NOT NULL DEFAULT 1;
CREATE TRIGGER transfer_version BEFORE UPDATE OR DELETE ON transfer FOR EACH ROW EXECUTE FUNCTION record_version();
ALTER TABLE stock ADD COLUMN version bigint NOT NULL DEFAULT 1;
CREATE TRIGGER stock_version BEFORE UPDATE OR DELETE ON stock FOR EACH ROW EXECUTE FUNCTION record_version();
ALTER TABLE invest_trade ADD COLUMN version bigint NOT NULL DEFAULT 1;
CREATE TRIGGER invest_trade_version BEFORE UPDATE OR DELETE ON invest_trade FOR EACH ROW EXECUTE FUNCTION record_version();
ALTER TABLE post ADD COLUMN version bigint NOT NULL DEFAULT 1;
CREATE TRIGGER post_version BEFORE UPDATE OR DELETE ON post FOR EACH ROW EXECUTE FUNCTION record_version();
ALTER TABLE comment ADD COLUMN version bigint NOT NULL DEFAULT 1;
CREATE TRIGGER comment_version BEFORE UPDATE OR DELETE ON comment FOR EACH ROW EXECUTE FUNCTION record_version();
ALTER TABLE member ADD COLUMN version bigint NOT NULL DEFAULT 1;
CREATE TRIGGER member_version BEFORE UPDATE OR DELETE ON member FOR EACH ROW EXECUTE FUNCTION record_version();
CREATE TRIGGER account_entry_tag_version AFTER INSERT OR DELETE ON account_entry_tag
    FOR EACH ROW EXECUTE FUNCTION entry_tags_version();

-- +goose Down
DROP TRIGGER account_entry_tag_version ON account_entry_tag;
DROP TRIGGER wallet_version ON wallet;
ALTER TABLE wallet DROP COLUMN version;
DROP TRIGGER account_category_version ON account_category;
ALTER TABLE account_category DROP COLUMN version;
DROP TRIGGER account_tag_version ON account_tag;
ALTER TABLE account_tag DROP COLUMN version;
DROP TRIGGER account_entry_version ON account_entry;
ALTER TABLE account_entry DROP COLUMN version;
DROP TRIGGER recurring_version ON recurring;
ALTER TABLE recurring DROP COLUMN version;
DROP TRIGGER quick_entry_version ON quick_entry;
ALTER TABLE quick_entry DROP COLUMN version;
DROP TRIGGER budget_version ON budget;
ALTER TABLE budget DROP COLUMN version;
DROP TRIGGER budget_onetime_version ON budget_onetime;
ALTER TABLE budget_onetime DROP COLUMN version;
DROP TRIGGER transfer_version ON transfer;
ALTER TABLE transfer DROP COLUMN version;
DROP TRIGGER stock_version ON stock;
ALTER TABLE stock DROP COLUMN version;
DROP TRIGGER invest_trade_version ON invest_trade;
ALTER TABLE invest_trade DROP COLUMN version;
DROP TRIGGER post_version ON post;
ALTER TABLE post DROP COLUMN version;
DROP TRIGGER comment_version ON comment;
ALTER TABLE comment DROP COLUMN version;
DROP TRIGGER member_version ON member;
ALTER TABLE member DROP COLUMN version;
DROP FUNCTION entry_tags_version();
DROP FUNCTION record_version();
