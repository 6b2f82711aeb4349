-- +goose Up
-- The changes feed writes its change rows at commit, not as statements run
-- (issue 22's known gap, closed). Until now each statement upserted the
-- member's ledger_change rows, row-locking them until the commit: two
-- transactions that bumped the same two records in opposite orders (two
-- transfers in opposite directions between the same wallets) deadlocked, and
-- two entry writes of one member queued on their wallet's change row for the
-- rest of each other's transaction.
--
-- Now a statement only appends to ledger_change_pending, a table no one
-- updates, so statements take no lock for the feed. At commit a deferred
-- trigger takes the member's feed lock (as the stamp did: the last lock a
-- transaction takes) and, holding it, folds the transaction's pending rows
-- into ledger_change (the latest note of each record wins) with fresh
-- positions, in key order, then deletes them. Only a holder of the member's
-- feed lock writes the member's ledger_change rows, and a holder waits for
-- nothing else (it runs after every statement), so the feed adds no
-- deadlock; positions still follow commit order.
CREATE TABLE ledger_change_pending (
    id        bigserial PRIMARY KEY,
    xid       bigint  NOT NULL,
    member_id bigint  NOT NULL,
    kind      text    NOT NULL,
    record_id bigint  NOT NULL,
    deleted   boolean NOT NULL
);
CREATE INDEX ledger_change_pending_xid_idx ON ledger_change_pending (xid, member_id);

DROP TRIGGER ledger_change_stamp ON ledger_change;
DROP FUNCTION ledger_change_stamp();

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION ledger_change_note(p_kind text, p_deleted boolean, p_members bigint[], p_ids bigint[])
RETURNS void LANGUAGE sql AS $$
    INSERT INTO ledger_change_pending (xid, member_id, kind, record_id, deleted)
    SELECT pg_current_xact_id()::text::bigint, u.member_id, p_kind, u.record_id, p_deleted
    FROM unnest(p_members, p_ids) AS u (member_id, record_id)
    WHERE u.member_id IS NOT NULL AND u.record_id IS NOT NULL
$$;
-- +goose StatementEnd

-- +goose StatementBegin
-- At commit (deferred), once per transaction and member: the member's lock,
-- then the transaction's notes of the member folded into ledger_change with
-- fresh positions. Notes of a member deleted in the same transaction are
-- dropped (the account's rows went with it).
CREATE FUNCTION ledger_change_fold() RETURNS trigger LANGUAGE plpgsql AS $$
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

CREATE CONSTRAINT TRIGGER ledger_change_fold AFTER INSERT ON ledger_change_pending
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_change_fold();

-- +goose Down
DROP TRIGGER ledger_change_fold ON ledger_change_pending;
DROP FUNCTION ledger_change_fold();
DROP TABLE ledger_change_pending;
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION ledger_change_note(p_kind text, p_deleted boolean, p_members bigint[], p_ids bigint[])
RETURNS void LANGUAGE sql AS $$
    INSERT INTO ledger_change AS c (member_id, kind, record_id, xid, seq, deleted)
    SELECT r.member_id, p_kind, r.record_id, pg_current_xact_id()::text::bigint,
        nextval('ledger_change_seq'), p_deleted
    FROM (
        SELECT DISTINCT u.member_id, u.record_id
        FROM unnest(p_members, p_ids) AS u (member_id, record_id)
        WHERE u.member_id IS NOT NULL AND u.record_id IS NOT NULL
    ) r
    JOIN member m ON m.id = r.member_id
    ORDER BY r.member_id, r.record_id
    ON CONFLICT (member_id, kind, record_id) DO UPDATE
        SET xid = excluded.xid, seq = excluded.seq, deleted = excluded.deleted, changed_at = now()
$$;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE FUNCTION ledger_change_stamp() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    flag text := 'nestegg.feed_stamped_' || NEW.member_id;
    me text := pg_current_xact_id()::text;
BEGIN
    IF current_setting(flag, true) IS NOT DISTINCT FROM me THEN
        RETURN NULL;
    END IF;
    PERFORM set_config(flag, me, true);
    PERFORM pg_advisory_xact_lock(hashtextextended('feed:' || NEW.member_id, 0));
    UPDATE ledger_change SET seq = nextval('ledger_change_seq')
    WHERE member_id = NEW.member_id AND xid = me::bigint;
    RETURN NULL;
END $$;
-- +goose StatementEnd
CREATE CONSTRAINT TRIGGER ledger_change_stamp AFTER INSERT OR UPDATE OF xid ON ledger_change
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_change_stamp();
