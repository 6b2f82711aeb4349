-- +goose Up
-- entry_tags_version (00341, 00344) updates account_entry only when there is
-- an entry whose version to raise. Until now it ran its UPDATE whatever the
-- statement wrote, and an UPDATE that matches no row still fires the
-- table's statement triggers (the feed's ledger_change_entry, the rollup's
-- wallet_net_entries: a dozen statements over empty transition tables).
-- That was the case for every link written for an entry of the same
-- transaction (a new entry's tags: its version is not raised, 00344) and
-- for every INSERT or DELETE on account_entry_tag that wrote no row: about
-- 2 ms of PostgreSQL's time, more than the entry's own INSERT.
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION entry_tags_version() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    me xid := pg_current_xact_id()::xid;
    ids bigint[];
BEGIN
    -- Locked in id order, so two such statements over the same entries
    -- queue rather than deadlock.
    IF TG_OP = 'DELETE' THEN
        SELECT array_agg(e.id) INTO ids FROM (
            SELECT id FROM account_entry
            WHERE id IN (SELECT entry_id FROM old_rows) AND xmin <> me ORDER BY id FOR UPDATE) e;
    ELSE
        SELECT array_agg(e.id) INTO ids FROM (
            SELECT id FROM account_entry
            WHERE id IN (SELECT entry_id FROM new_rows) AND xmin <> me ORDER BY id FOR UPDATE) e;
    END IF;
    IF ids IS NOT NULL THEN
        UPDATE account_entry SET version = version + 1 WHERE id = ANY(ids);
    END IF;
    RETURN NULL;
END
$$;
-- +goose StatementEnd

-- +goose Down
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION entry_tags_version() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    me xid := pg_current_xact_id()::xid;
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM 1 FROM account_entry WHERE id IN (SELECT entry_id FROM old_rows) AND xmin <> me ORDER BY id FOR UPDATE;
        UPDATE account_entry SET version = version + 1 WHERE id IN (SELECT entry_id FROM old_rows) AND xmin <> me;
    ELSE
        PERFORM 1 FROM account_entry WHERE id IN (SELECT entry_id FROM new_rows) AND xmin <> me ORDER BY id FOR UPDATE;
        UPDATE account_entry SET version = version + 1 WHERE id IN (SELECT entry_id FROM new_rows) AND xmin <> me;
    END IF;
    RETURN NULL;
END
$$;
-- +goose StatementEnd
