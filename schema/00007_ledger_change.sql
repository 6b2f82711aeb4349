-- +goose Up
-- The changes feed. Triggers on every ledger table note each write of a
-- record; the feed keeps one row per (member, kind, record): the latest
-- change of that record, at a position (seq) in the member's feed.
--
-- A statement only appends its notes to ledger_change_pending, a table no
-- one updates, so statements take no lock for the feed. At commit a deferred
-- trigger (ledger_change_fold) takes the member's feed lock and, holding it,
-- folds the transaction's notes into ledger_change (the latest note of each
-- record wins) with fresh positions from a sequence, in key order, then
-- deletes them. The lock is held until the commit is visible, so one
-- member's positions follow commit order, and a reader's snapshot always
-- holds a prefix of them: a change committed later never appears behind a
-- cursor a client holds, on any replica, however transactions interleave.
-- Only a holder of the member's feed lock writes the member's ledger_change
-- rows, and a holder waits for nothing else (it runs after every statement),
-- so the feed adds no deadlock.
--
-- Every write path (handlers, restore, cascades such as a wallet deleted with
-- moveTo, foreign keys that delete or null rows) reaches these triggers, in the
-- writing transaction. A change that alters another record's answer notes
-- that record too: an entry its wallet's balance, its transfer, the expected
-- income of its ledger month and the one-time budgets whose period holds it;
-- an entry's tag links and a tag's rename its entries; a sub-category its
-- parent's `children`; the month start day the profile and every expected
-- income. Notes are written only for records that still exist (a deletion is
-- written by the record's own trigger), and folded only for members that
-- still exist (an account deletion cascades through here).
CREATE TABLE ledger_change (
    member_id  bigint      NOT NULL REFERENCES member (id) ON DELETE CASCADE,
    kind       text        NOT NULL,
    -- The record's id; an expected income's is year * 100 + month and the
    -- profile's the member id.
    record_id  bigint      NOT NULL,
    -- The transaction that wrote the change (pg_current_xact_id() as
    -- bigint: xid8 stays below 2^63), for whoever investigates a feed; no
    -- query reads it, so it has no index (an index on it cost every note
    -- an index write).
    xid        bigint      NOT NULL,
    -- The position in the member's feed, stamped at commit.
    seq        bigint      NOT NULL,
    deleted    boolean     NOT NULL,
    changed_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (member_id, kind, record_id)
);
CREATE INDEX ledger_change_feed_idx ON ledger_change (member_id, seq);
CREATE INDEX ledger_change_tombstone_idx ON ledger_change (changed_at) WHERE deleted;
CREATE SEQUENCE ledger_change_seq;

-- A member's feed epoch (bumped by a restore: every cursor before it answers
-- 410) and the newest position whose tombstone the prune job removed (a
-- cursor before it may have missed one: 410). No row: epoch 1, nothing
-- pruned.
CREATE TABLE ledger_change_epoch (
    member_id  bigint NOT NULL PRIMARY KEY REFERENCES member (id) ON DELETE CASCADE,
    epoch      bigint NOT NULL DEFAULT 1,
    pruned_seq bigint NOT NULL DEFAULT 0
);

-- The notes of transactions not yet committed (see the top).
CREATE TABLE ledger_change_pending (
    id        bigserial PRIMARY KEY,
    xid       bigint  NOT NULL,
    member_id bigint  NOT NULL,
    kind      text    NOT NULL,
    record_id bigint  NOT NULL,
    deleted   boolean NOT NULL
);
-- A transaction's notes of a member (the fold), and of one record among them
-- (a restore's DeleteLedgerTombstones finds each deleted record's notes by
-- key). The table is empty between transactions, so its statistics make the
-- planner expect a few rows: a join against a transaction's notes then runs
-- as a nested loop, which must find each record by index, not by scanning
-- every note of the transaction (a 100,000-entry restore: 10^10 rows).
CREATE INDEX ledger_change_pending_xid_idx ON ledger_change_pending (xid, member_id, kind, record_id);

-- Appends notes; PL/pgSQL rather than SQL because PostgreSQL 15 plans a SQL
-- function's body again on every PERFORM (it keeps a SQL function's plan only
-- for the query that called it), and every ledger write calls this several
-- times (an entry's INSERT five: 26 against 6 us a call).
-- +goose StatementBegin
CREATE FUNCTION ledger_change_note(p_kind text, p_deleted boolean, p_members bigint[], p_ids bigint[])
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO ledger_change_pending (xid, member_id, kind, record_id, deleted)
    SELECT pg_current_xact_id()::text::bigint, u.member_id, p_kind, u.record_id, p_deleted
    FROM unnest(p_members, p_ids) AS u (member_id, record_id)
    WHERE u.member_id IS NOT NULL AND u.record_id IS NOT NULL;
END
$$;
-- +goose StatementEnd

-- +goose StatementBegin
-- Tables whose rows carry member_id and id, and whose answer depends on no
-- other table: TG_ARGV[0] is the kind.
CREATE FUNCTION ledger_change_plain() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    ms bigint[];
    ids bigint[];
BEGIN
    IF TG_OP = 'DELETE' THEN
        SELECT array_agg(member_id), array_agg(id) INTO ms, ids FROM old_rows;
        PERFORM ledger_change_note(TG_ARGV[0], true, ms, ids);
    ELSE
        SELECT array_agg(member_id), array_agg(id) INTO ms, ids FROM new_rows;
        PERFORM ledger_change_note(TG_ARGV[0], false, ms, ids);
    END IF;
    RETURN NULL;
END $$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION ledger_change_budget_income() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    ms bigint[];
    ids bigint[];
BEGIN
    IF TG_OP = 'DELETE' THEN
        SELECT array_agg(member_id), array_agg(year * 100 + month) INTO ms, ids FROM old_rows;
        PERFORM ledger_change_note('BUDGET_INCOME', true, ms, ids);
    ELSE
        SELECT array_agg(member_id), array_agg(year * 100 + month) INTO ms, ids FROM new_rows;
        PERFORM ledger_change_note('BUDGET_INCOME', false, ms, ids);
    END IF;
    RETURN NULL;
END $$;
-- +goose StatementEnd

-- +goose StatementBegin
-- Entries: the entry, then what its answer feeds (see the top). The
-- statement's rows are read once into arrays of their columns (a trigger for
-- one event cannot name the other event's transition table; an UPDATE's
-- rows before and after both count), and every note is written by one
-- INSERT: one statement a write, however many kinds it notes (written as
-- five lookups each with its own INSERT, the notes cost an entry create more
-- than the rest of its statement). The lookups are held to the writing
-- members and run with enable_seqscan off: a PL/pgSQL function keeps its
-- plans for the connection's life, and a plan made while wallet held a few
-- rows (a sequential scan) would read every member's wallets on every entry
-- write where no ANALYZE replaced it.
CREATE FUNCTION ledger_change_entry() RETURNS trigger LANGUAGE plpgsql
SET enable_seqscan = off AS $$
DECLARE
    ms bigint[]; ids bigint[]; ws bigint[]; trs bigint[]; incs boolean[]; days date[];
    members bigint[];
BEGIN
    IF TG_OP = 'INSERT' THEN
        SELECT array_agg(member_id), array_agg(id), array_agg(wallet_id), array_agg(transfer_id),
               array_agg(type = 'income'), array_agg(entry_date), array_agg(DISTINCT member_id)
        INTO ms, ids, ws, trs, incs, days, members FROM new_rows;
    ELSIF TG_OP = 'DELETE' THEN
        SELECT array_agg(member_id), array_agg(id), array_agg(wallet_id), array_agg(transfer_id),
               array_agg(type = 'income'), array_agg(entry_date), array_agg(DISTINCT member_id)
        INTO ms, ids, ws, trs, incs, days, members FROM old_rows;
    ELSE
        SELECT array_agg(member_id), array_agg(id), array_agg(wallet_id), array_agg(transfer_id),
               array_agg(type = 'income'), array_agg(entry_date), array_agg(DISTINCT member_id)
        INTO ms, ids, ws, trs, incs, days, members
        FROM (SELECT member_id, id, wallet_id, transfer_id, type, entry_date FROM old_rows
              UNION ALL
              SELECT member_id, id, wallet_id, transfer_id, type, entry_date FROM new_rows) AS r;
    END IF;
    INSERT INTO ledger_change_pending (xid, member_id, kind, record_id, deleted)
    WITH t AS (
        SELECT * FROM unnest(ms, ids, ws, trs, incs, days)
            AS t (member_id, id, wallet_id, transfer_id, income, entry_date)
    )
    SELECT pg_current_xact_id()::text::bigint, n.member_id, n.kind, n.record_id,
           n.kind = 'ENTRY' AND TG_OP = 'DELETE'
    FROM (
        SELECT t.member_id, 'ENTRY' AS kind, t.id AS record_id FROM t
        UNION
        SELECT w.member_id, 'WALLET', w.id FROM wallet w
        WHERE w.member_id = ANY(members) AND (w.member_id, w.id) IN (SELECT t.member_id, t.wallet_id FROM t)
        UNION
        SELECT x.member_id, 'TRANSFER', x.id FROM transfer x
        WHERE x.member_id = ANY(members) AND (x.member_id, x.id) IN (SELECT t.member_id, t.transfer_id FROM t)
        UNION
        SELECT x.member_id, 'TRANSFER', x.id FROM transfer x WHERE x.fee_entry_id = ANY(ids)
        UNION
        -- The ledger month of a date with start day d: its calendar month
        -- from day d on, the month before it until then.
        SELECT b.member_id, 'BUDGET_INCOME', b.year * 100 + b.month
        FROM budget_income b JOIN member m ON m.id = b.member_id
        WHERE b.member_id = ANY(members) AND EXISTS (
            SELECT 1 FROM t WHERE t.member_id = b.member_id AND t.income
              AND make_date(b.year, b.month, 1) = date_trunc('month',
                  CASE WHEN extract(day FROM t.entry_date) >= m.month_start_day THEN t.entry_date
                       ELSE t.entry_date - interval '1 month' END)::date)
        UNION
        SELECT o.member_id, 'ONETIME_BUDGET', o.id FROM budget_onetime o
        WHERE o.member_id = ANY(members) AND EXISTS (
            SELECT 1 FROM t WHERE t.member_id = o.member_id AND t.entry_date BETWEEN o.start_date AND o.end_date)
    ) AS n;
    RETURN NULL;
END $$;
-- +goose StatementEnd

-- An entry's tag links: the entries (the links carry no member_id; the entry
-- gives it). The links' entry ids are gathered first and the entries read by
-- key (enable_seqscan off), whatever size account_entry had when the plan
-- was made.
-- +goose StatementBegin
CREATE FUNCTION ledger_change_entry_tag() RETURNS trigger LANGUAGE plpgsql
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
-- Tags: the tag, and on a rename the entries that carry it (entries answer
-- tag names).
CREATE FUNCTION ledger_change_tag() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    ms bigint[];
    ids bigint[];
BEGIN
    IF TG_OP = 'DELETE' THEN
        SELECT array_agg(member_id), array_agg(id) INTO ms, ids FROM old_rows;
        PERFORM ledger_change_note('TAG', true, ms, ids);
        RETURN NULL;
    END IF;
    SELECT array_agg(member_id), array_agg(id) INTO ms, ids FROM new_rows;
    PERFORM ledger_change_note('TAG', false, ms, ids);
    IF TG_OP = 'UPDATE' THEN
        SELECT array_agg(e.member_id), array_agg(e.id) INTO ms, ids
        FROM account_entry e
        WHERE e.id IN (
            SELECT et.entry_id FROM account_entry_tag et
            JOIN new_rows n ON n.id = et.tag_id
            JOIN old_rows o ON o.id = n.id
            WHERE o.name IS DISTINCT FROM n.name);
        PERFORM ledger_change_note('ENTRY', false, ms, ids);
    END IF;
    RETURN NULL;
END $$;
-- +goose StatementEnd

-- +goose StatementBegin
-- Categories: the category, its parent (whose answer lists its children),
-- and on an update the one-time budgets of it or its parents (their spent
-- counts sub-categories).
CREATE FUNCTION ledger_change_category() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    ms bigint[];
    ids bigint[];
    touched account_category[] := '{}';
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        touched := touched || ARRAY(SELECT r::account_category FROM old_rows r);
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        touched := touched || ARRAY(SELECT r::account_category FROM new_rows r);
    END IF;
    IF TG_OP = 'DELETE' THEN
        SELECT array_agg(member_id), array_agg(id) INTO ms, ids FROM old_rows;
        PERFORM ledger_change_note('CATEGORY', true, ms, ids);
    ELSE
        SELECT array_agg(member_id), array_agg(id) INTO ms, ids FROM new_rows;
        PERFORM ledger_change_note('CATEGORY', false, ms, ids);
    END IF;

    SELECT array_agg(c.member_id), array_agg(c.id) INTO ms, ids
    FROM account_category c
    WHERE c.member_id = ANY(ARRAY(SELECT DISTINCT t.member_id FROM unnest(touched) t))
      AND (c.member_id, c.id) IN (SELECT t.member_id, t.parent_id FROM unnest(touched) t);
    PERFORM ledger_change_note('CATEGORY', false, ms, ids);

    IF TG_OP = 'UPDATE' THEN
        SELECT array_agg(o.member_id), array_agg(o.id) INTO ms, ids
        FROM budget_onetime o
        WHERE o.member_id = ANY(ARRAY(SELECT DISTINCT t.member_id FROM unnest(touched) t))
          AND (o.member_id, o.category_id) IN (
            SELECT t.member_id, t.id FROM unnest(touched) t
            UNION SELECT t.member_id, t.parent_id FROM unnest(touched) t);
        PERFORM ledger_change_note('ONETIME_BUDGET', false, ms, ids);
    END IF;
    RETURN NULL;
END $$;
-- +goose StatementEnd

-- +goose StatementBegin
-- The member: a new member's profile (so an initial sync learns the month
-- start day), and a changed start day (every expected income's month moves).
CREATE FUNCTION ledger_change_member() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM ledger_change_note('PROFILE', false, ARRAY[NEW.id], ARRAY[NEW.id]);
    IF TG_OP = 'UPDATE' THEN
        PERFORM ledger_change_note('BUDGET_INCOME', false,
            ARRAY(SELECT member_id FROM budget_income WHERE member_id = NEW.id ORDER BY year, month),
            ARRAY(SELECT year * 100 + month FROM budget_income WHERE member_id = NEW.id ORDER BY year, month));
    END IF;
    RETURN NULL;
END $$;
-- +goose StatementEnd

-- At commit (deferred), once per transaction and member: the member's feed
-- lock, then the transaction's notes of the member folded into
-- ledger_change with fresh positions. Notes of a member deleted in the same
-- transaction are dropped (the account's rows went with it). "Already folded
-- in this transaction" is one transaction-local setting,
-- nestegg.feed_folded = '<xid>:,<member>,<member>,', not a setting named after
-- each member: PostgreSQL keeps every custom setting name a session has used
-- for the session's life, and on PostgreSQL 15 each new name costs more than
-- the last, so a pooled connection would grow slower with every member it
-- served. The value names its transaction, so one left from another
-- transaction is never read as this one's.
-- +goose StatementBegin
CREATE FUNCTION ledger_change_fold() RETURNS trigger LANGUAGE plpgsql AS $$
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

CREATE CONSTRAINT TRIGGER ledger_change_fold AFTER INSERT ON ledger_change_pending
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_change_fold();

CREATE TRIGGER ledger_change_ins AFTER INSERT ON wallet REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_change_plain('WALLET');
CREATE TRIGGER ledger_change_upd AFTER UPDATE ON wallet REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_change_plain('WALLET');
CREATE TRIGGER ledger_change_del AFTER DELETE ON wallet REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_change_plain('WALLET');

CREATE TRIGGER ledger_change_ins AFTER INSERT ON account_category REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_change_category();
CREATE TRIGGER ledger_change_upd AFTER UPDATE ON account_category REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_change_category();
CREATE TRIGGER ledger_change_del AFTER DELETE ON account_category REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_change_category();

CREATE TRIGGER ledger_change_ins AFTER INSERT ON account_tag REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_change_tag();
CREATE TRIGGER ledger_change_upd AFTER UPDATE ON account_tag REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_change_tag();
CREATE TRIGGER ledger_change_del AFTER DELETE ON account_tag REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_change_tag();

CREATE TRIGGER ledger_change_ins AFTER INSERT ON account_entry REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_change_entry();
CREATE TRIGGER ledger_change_upd AFTER UPDATE ON account_entry REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_change_entry();
CREATE TRIGGER ledger_change_del AFTER DELETE ON account_entry REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_change_entry();

CREATE TRIGGER ledger_change_ins AFTER INSERT ON account_entry_tag REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_change_entry_tag();
CREATE TRIGGER ledger_change_del AFTER DELETE ON account_entry_tag REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_change_entry_tag();

CREATE TRIGGER ledger_change_ins AFTER INSERT ON transfer REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_change_plain('TRANSFER');
CREATE TRIGGER ledger_change_upd AFTER UPDATE ON transfer REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_change_plain('TRANSFER');
CREATE TRIGGER ledger_change_del AFTER DELETE ON transfer REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_change_plain('TRANSFER');

CREATE TRIGGER ledger_change_ins AFTER INSERT ON recurring REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_change_plain('RECURRING');
CREATE TRIGGER ledger_change_upd AFTER UPDATE ON recurring REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_change_plain('RECURRING');
CREATE TRIGGER ledger_change_del AFTER DELETE ON recurring REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_change_plain('RECURRING');

CREATE TRIGGER ledger_change_ins AFTER INSERT ON quick_entry REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_change_plain('QUICK_ENTRY');
CREATE TRIGGER ledger_change_upd AFTER UPDATE ON quick_entry REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_change_plain('QUICK_ENTRY');
CREATE TRIGGER ledger_change_del AFTER DELETE ON quick_entry REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_change_plain('QUICK_ENTRY');

CREATE TRIGGER ledger_change_ins AFTER INSERT ON budget REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_change_plain('BUDGET');
CREATE TRIGGER ledger_change_upd AFTER UPDATE ON budget REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_change_plain('BUDGET');
CREATE TRIGGER ledger_change_del AFTER DELETE ON budget REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_change_plain('BUDGET');

CREATE TRIGGER ledger_change_ins AFTER INSERT ON budget_onetime REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_change_plain('ONETIME_BUDGET');
CREATE TRIGGER ledger_change_upd AFTER UPDATE ON budget_onetime REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_change_plain('ONETIME_BUDGET');
CREATE TRIGGER ledger_change_del AFTER DELETE ON budget_onetime REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_change_plain('ONETIME_BUDGET');

CREATE TRIGGER ledger_change_ins AFTER INSERT ON budget_income REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_change_budget_income();
CREATE TRIGGER ledger_change_upd AFTER UPDATE ON budget_income REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_change_budget_income();
CREATE TRIGGER ledger_change_del AFTER DELETE ON budget_income REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_change_budget_income();

CREATE TRIGGER ledger_change_ins AFTER INSERT ON stock REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_change_plain('STOCK');
CREATE TRIGGER ledger_change_upd AFTER UPDATE ON stock REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_change_plain('STOCK');
CREATE TRIGGER ledger_change_del AFTER DELETE ON stock REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_change_plain('STOCK');

CREATE TRIGGER ledger_change_ins AFTER INSERT ON invest_trade REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_change_plain('TRADE');
CREATE TRIGGER ledger_change_upd AFTER UPDATE ON invest_trade REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_change_plain('TRADE');
CREATE TRIGGER ledger_change_del AFTER DELETE ON invest_trade REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_change_plain('TRADE');

CREATE TRIGGER ledger_change_ins AFTER INSERT ON member
    FOR EACH ROW EXECUTE FUNCTION ledger_change_member();
CREATE TRIGGER ledger_change_upd AFTER UPDATE OF month_start_day ON member
    FOR EACH ROW WHEN (OLD.month_start_day IS DISTINCT FROM NEW.month_start_day)
    EXECUTE FUNCTION ledger_change_member();

-- +goose Down
DROP TRIGGER ledger_change_fold ON ledger_change_pending;
DROP TRIGGER ledger_change_ins ON member;
DROP TRIGGER ledger_change_upd ON member;
DROP TRIGGER ledger_change_ins ON wallet;
DROP TRIGGER ledger_change_upd ON wallet;
DROP TRIGGER ledger_change_del ON wallet;
DROP TRIGGER ledger_change_ins ON account_category;
DROP TRIGGER ledger_change_upd ON account_category;
DROP TRIGGER ledger_change_del ON account_category;
DROP TRIGGER ledger_change_ins ON account_tag;
DROP TRIGGER ledger_change_upd ON account_tag;
DROP TRIGGER ledger_change_del ON account_tag;
DROP TRIGGER ledger_change_ins ON account_entry;
DROP TRIGGER ledger_change_upd ON account_entry;
DROP TRIGGER ledger_change_del ON account_entry;
DROP TRIGGER ledger_change_ins ON account_entry_tag;
DROP TRIGGER ledger_change_del ON account_entry_tag;
DROP TRIGGER ledger_change_ins ON transfer;
DROP TRIGGER ledger_change_upd ON transfer;
DROP TRIGGER ledger_change_del ON transfer;
DROP TRIGGER ledger_change_ins ON recurring;
DROP TRIGGER ledger_change_upd ON recurring;
DROP TRIGGER ledger_change_del ON recurring;
DROP TRIGGER ledger_change_ins ON quick_entry;
DROP TRIGGER ledger_change_upd ON quick_entry;
DROP TRIGGER ledger_change_del ON quick_entry;
DROP TRIGGER ledger_change_ins ON budget;
DROP TRIGGER ledger_change_upd ON budget;
DROP TRIGGER ledger_change_del ON budget;
DROP TRIGGER ledger_change_ins ON budget_onetime;
DROP TRIGGER ledger_change_upd ON budget_onetime;
DROP TRIGGER ledger_change_del ON budget_onetime;
DROP TRIGGER ledger_change_ins ON budget_income;
DROP TRIGGER ledger_change_upd ON budget_income;
DROP TRIGGER ledger_change_del ON budget_income;
DROP TRIGGER ledger_change_ins ON stock;
DROP TRIGGER ledger_change_upd ON stock;
DROP TRIGGER ledger_change_del ON stock;
DROP TRIGGER ledger_change_ins ON invest_trade;
DROP TRIGGER ledger_change_upd ON invest_trade;
DROP TRIGGER ledger_change_del ON invest_trade;
DROP FUNCTION ledger_change_fold();
DROP FUNCTION ledger_change_member();
DROP FUNCTION ledger_change_category();
DROP FUNCTION ledger_change_tag();
DROP FUNCTION ledger_change_entry_tag();
DROP FUNCTION ledger_change_entry();
DROP FUNCTION ledger_change_budget_income();
DROP FUNCTION ledger_change_plain();
DROP FUNCTION ledger_change_note(text, boolean, bigint[], bigint[]);
DROP TABLE ledger_change_pending;
DROP TABLE ledger_change_epoch;
DROP SEQUENCE ledger_change_seq;
DROP TABLE ledger_change;
