-- +goose Up
-- The two statement triggers on account_entry_tag (the feed's
-- ledger_change_entry_tag, 00320; the version's entry_tags_version, 00345)
-- look the links' entries up in account_entry. A PL/pgSQL function plans
-- each of its statements once per connection and keeps the plan until
-- account_entry's schema or statistics change. Planned while account_entry
-- was small (a new database, as make load starts with), the lookup
-- `e.id IN (SELECT entry_id FROM new_rows)` was a hash join over a
-- sequential scan of the whole table, and it stayed one as the table grew:
-- where no ANALYZE came to replace the plan (autovacuum off, as on our
-- machines), every tagged create read every entry of every member. In
-- make load that was 600-700 scans and up to 22 million rows read in a 10 s
-- round of creates, and each round of the service's creates slower than the
-- last (PostgreSQL's time a create 1.6, 1.9, 2.1, 2.5 ms over four rounds)
-- while the floor's, which writes no tags, held.
--
-- Now the links' entry ids are gathered first and the entries read with
-- `id = ANY(...)`, and the functions run with enable_seqscan off: the only
-- plans left read account_entry by its primary key, one probe per linked
-- entry, whatever size the table had when the plan was made.
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION ledger_change_entry_tag() RETURNS trigger LANGUAGE plpgsql
SET enable_seqscan = off AS $$
DECLARE
    links bigint[];
    ms bigint[];
    ids bigint[];
BEGIN
    IF TG_OP = 'DELETE' THEN
        SELECT array_agg(DISTINCT entry_id) INTO links FROM old_rows;
    ELSE
        SELECT array_agg(DISTINCT entry_id) INTO links FROM new_rows;
    END IF;
    -- A link deleted with its entry finds no entry here, and needs no bump.
    SELECT array_agg(e.member_id), array_agg(e.id) INTO ms, ids
    FROM account_entry e WHERE e.id = ANY(links);
    PERFORM ledger_change_note('ENTRY', false, ms, ids);
    RETURN NULL;
END $$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION entry_tags_version() RETURNS trigger LANGUAGE plpgsql
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
    -- (a new entry's tags, 00344) keeps its version.
    SELECT array_agg(e.id) INTO ids FROM (
        SELECT id FROM account_entry
        WHERE id = ANY(links) AND xmin <> me ORDER BY id FOR UPDATE) e;
    IF ids IS NOT NULL THEN
        UPDATE account_entry SET version = version + 1 WHERE id = ANY(ids);
    END IF;
    RETURN NULL;
END $$;
-- +goose StatementEnd

-- +goose Down
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION ledger_change_entry_tag() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    ms bigint[];
    ids bigint[];
BEGIN
    IF TG_OP = 'DELETE' THEN
        SELECT array_agg(e.member_id), array_agg(e.id) INTO ms, ids
        FROM account_entry e WHERE e.id IN (SELECT entry_id FROM old_rows);
    ELSE
        SELECT array_agg(e.member_id), array_agg(e.id) INTO ms, ids
        FROM account_entry e WHERE e.id IN (SELECT entry_id FROM new_rows);
    END IF;
    PERFORM ledger_change_note('ENTRY', false, ms, ids);
    RETURN NULL;
END $$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION entry_tags_version() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    me xid := pg_current_xact_id()::xid;
    ids bigint[];
BEGIN
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
END $$;
-- +goose StatementEnd
