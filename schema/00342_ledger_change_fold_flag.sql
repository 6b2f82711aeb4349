-- +goose Up
-- The fold's "already folded in this transaction" flag (00322) is one
-- setting, nestegg.feed_folded = '<xid>:,<member>,<member>,', instead of a
-- setting named after each member: PostgreSQL keeps every custom setting
-- name a session has used for the session's life, and on PostgreSQL 15 each
-- new name costs more than the last (20,000 names took 197 s, the next
-- 20,000 488 s), so a pooled connection grew slower with every member it
-- served. The flag is transaction-local (set_config(..., true)) and names
-- its transaction, so a value left from another transaction is never read
-- as this one's. A transaction that folds early (SET CONSTRAINTS ALL
-- IMMEDIATE, which nothing here runs) would skip the member's later notes
-- at commit: the flag marks a member folded for the whole transaction.
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION ledger_change_fold() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    me text := pg_current_xact_id()::text;
    folded text := coalesce(current_setting('nestegg.feed_folded', true), '');
BEGIN
    IF split_part(folded, ':', 1) IS DISTINCT FROM me THEN
        folded := me || ':,';
    ELSIF position(',' || NEW.member_id || ',' IN folded) > 0 THEN
        RETURN NULL;
    END IF;
    PERFORM set_config('nestegg.feed_folded', folded || NEW.member_id || ',', true);
    PERFORM pg_advisory_xact_lock(hashtextextended('feed:' || NEW.member_id, 0));
    INSERT INTO ledger_change AS c (member_id, kind, record_id, xid, seq, deleted)
    SELECT n.member_id, n.kind, n.record_id, n.xid, nextval('ledger_change_seq'), n.deleted
    FROM (
        SELECT DISTINCT ON (p.kind, p.record_id) p.member_id, p.kind, p.record_id, p.xid, p.deleted
        FROM ledger_change_pending p
        WHERE p.xid = me::bigint AND p.member_id = NEW.member_id
        ORDER BY p.kind, p.record_id, p.id DESC
    ) n
    JOIN member m ON m.id = n.member_id
    ORDER BY n.kind, n.record_id
    ON CONFLICT (member_id, kind, record_id) DO UPDATE
        SET xid = excluded.xid, seq = excluded.seq, deleted = excluded.deleted, changed_at = now();
    DELETE FROM ledger_change_pending WHERE xid = me::bigint AND member_id = NEW.member_id;
    RETURN NULL;
END $$;
-- +goose StatementEnd

-- +goose Down
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION ledger_change_fold() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    flag text := 'nestegg.feed_folded_' || NEW.member_id;
    me text := pg_current_xact_id()::text;
BEGIN
    IF current_setting(flag, true) IS NOT DISTINCT FROM me THEN
        RETURN NULL;
    END IF;
    PERFORM set_config(flag, me, true);
    PERFORM pg_advisory_xact_lock(hashtextextended('feed:' || NEW.member_id, 0));
    INSERT INTO ledger_change AS c (member_id, kind, record_id, xid, seq, deleted)
    SELECT n.member_id, n.kind, n.record_id, n.xid, nextval('ledger_change_seq'), n.deleted
    FROM (
        SELECT DISTINCT ON (p.kind, p.record_id) p.member_id, p.kind, p.record_id, p.xid, p.deleted
        FROM ledger_change_pending p
        WHERE p.xid = me::bigint AND p.member_id = NEW.member_id
        ORDER BY p.kind, p.record_id, p.id DESC
    ) n
    JOIN member m ON m.id = n.member_id
    ORDER BY n.kind, n.record_id
    ON CONFLICT (member_id, kind, record_id) DO UPDATE
        SET xid = excluded.xid, seq = excluded.seq, deleted = excluded.deleted, changed_at = now();
    DELETE FROM ledger_change_pending WHERE xid = me::bigint AND member_id = NEW.member_id;
    RETURN NULL;
END $$;
-- +goose StatementEnd
