-- +goose Up
-- A new entry's tags are linked by the statement that creates it
-- (CreateEntryChecked), so a create with tags is one statement, as one
-- without them is: no BEGIN, no version read, no COMMIT of its own. Two
-- changes make that possible.
--
-- entry_tags_version (00341) no longer raises the version of an entry whose
-- row this transaction wrote (xmin is the transaction's own id). Such a row
-- is new, or was updated here, which raised its version already: either
-- way no other transaction has seen the version it carries, so the write of
-- its tags needs no second step. The row that a statement creating an entry
-- with its tags returns is then the row it commits, and the trigger no
-- longer updates the row it just inserted (a dead tuple, a row lock and the
-- update's own statement triggers for every entry created with tags). A row
-- written in a subtransaction carries the subtransaction's id: its tags
-- still raise its version, as before (nothing here uses savepoints). A
-- frozen row of 2^32 transactions ago can carry the same 32-bit id as a
-- transaction now: its tags would then not raise its version, once in an
-- epoch, for that one transaction.
--
-- retry_statement raises serialization_failure, which the database layer
-- retries once (InTx, Exec): a statement that finds a row another
-- transaction committed after the statement's snapshot (a tag of the same
-- name, made by the member's parallel request) can neither see it nor link
-- it, and is run again whole rather than answer half of what was asked.
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

-- +goose StatementBegin
CREATE FUNCTION retry_statement(reason text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION USING ERRCODE = 'serialization_failure', MESSAGE = reason;
END
$$;
-- +goose StatementEnd

-- +goose Down
DROP FUNCTION retry_statement(text);
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
