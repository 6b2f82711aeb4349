-- +goose Up
-- The changes feed. Triggers on every ledger table note each write of a
-- record; the feed keeps one row per (member, kind, record): the latest
-- change of that record, at a position (seq) in the member's feed.
--
-- A write only appends its notes to ledger_change_pending, plain rows no one
-- updates, so writes take no lock for the feed and never wait for one
-- another there (issue 41: folding at each commit under the member's lock
-- cost an entry create more than its own INSERT, and queued one member's
-- writes up to each other's commit). A reader gives them positions: before
-- a feed page is read, ledger_change_fold(member) takes the member's feed
-- lock and, holding it to its commit, folds every note committed by then
-- into ledger_change (the latest note of each record wins) with fresh
-- positions from a sequence, in key order, and deletes them. Notes of
-- transactions still in flight are not visible to the fold; they are folded
-- by a later one, at later positions. Folds of one member run one at a time
-- and each commits before the next starts, so one member's positions follow
-- the order of the folds' commits, and a reader's snapshot always holds a
-- prefix of them: a change never appears behind a cursor a client holds, on
-- any replica, however transactions interleave. Only a holder of the
-- member's feed lock writes the member's ledger_change rows, and a fold
-- waits for nothing else, so the feed adds no deadlock. The fold job
-- (changes.FoldJob) folds the notes of members who do not read their feed.
--
-- Every write path (handlers, restore, cascades such as a wallet deleted with
-- moveTo, foreign keys that delete or null rows) reaches these triggers, in the
-- writing transaction. A change that alters another record's answer notes
-- that record too: an entry its wallet's balance, its transfer, the expected
-- income of its ledger month and the one-time budgets whose period holds it
-- (the entry's note carries the facts, the fold finds the records); an
-- entry's tag links and a tag's rename its entries; a sub-category its
-- parent's `children`; the month start day the profile and every expected
-- income. Records another's change touches are noted only while they exist
-- (a deletion is written by the record's own trigger), and notes are folded
-- only for members that still exist (an account deletion cascades through
-- here, and then drops the member's notes: ledger_change_forget).
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

-- The notes not folded yet (see the top), in the order they were written
-- (id). An entry's own note carries what the fold needs to note the records
-- its answer feeds: its wallet, its transfer, its date and whether it is
-- income (the entry's row may be gone by the fold); other notes leave them
-- null.
CREATE TABLE ledger_change_pending (
    id          bigint  GENERATED ALWAYS AS IDENTITY,
    xid         bigint  NOT NULL,
    member_id   bigint  NOT NULL,
    kind        text    NOT NULL,
    record_id   bigint  NOT NULL,
    deleted     boolean NOT NULL,
    wallet_id   bigint,
    transfer_id bigint,
    day         date,
    income      boolean
)
-- A queue: vacuumed after a thousand dead rows, not after a fifth of its
-- size.
WITH (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 1000);
-- A member's notes, for the fold (one index: each note is one index write).
CREATE INDEX ledger_change_pending_member_idx ON ledger_change_pending (member_id);

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
-- Entries: one note per row the statement wrote (before and after, for an
-- UPDATE), with the facts the fold needs to note what the entry's answer
-- feeds (see the top), in one INSERT that reads nothing else: an entry
-- create's whole share of the feed is this one plain row.
CREATE FUNCTION ledger_change_entry() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO ledger_change_pending (xid, member_id, kind, record_id, deleted, wallet_id, transfer_id, day, income)
        SELECT pg_current_xact_id()::text::bigint, member_id, 'ENTRY', id, false, wallet_id, transfer_id, entry_date, type = 'income'
        FROM new_rows;
    ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO ledger_change_pending (xid, member_id, kind, record_id, deleted, wallet_id, transfer_id, day, income)
        SELECT pg_current_xact_id()::text::bigint, member_id, 'ENTRY', id, true, wallet_id, transfer_id, entry_date, type = 'income'
        FROM old_rows;
    ELSE
        INSERT INTO ledger_change_pending (xid, member_id, kind, record_id, deleted, wallet_id, transfer_id, day, income)
        SELECT pg_current_xact_id()::text::bigint, member_id, 'ENTRY', id, false, wallet_id, transfer_id, entry_date, type = 'income'
        FROM (SELECT member_id, id, wallet_id, transfer_id, entry_date, type FROM old_rows
              UNION ALL
              SELECT member_id, id, wallet_id, transfer_id, entry_date, type FROM new_rows) AS r;
    END IF;
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

-- Folds the member's notes committed so far (and, inside a writing
-- transaction such as a restore's, its own) into ledger_change (see the
-- top), and answers true; false, folding nothing, when p_wait is false and
-- another transaction holds the member's feed lock. The lock is taken by a
-- statement of its own, so the fold's statement, run after it, sees every
-- fold committed before (READ COMMITTED: a snapshot per statement); it is
-- held to the commit of the caller's transaction. Called as a statement of
-- its own before a feed page's snapshot is taken (changes.Page, which tries
-- a few times and else reads the positions there are), at the end of a
-- restore (changes.RestartTx, waiting) and by the fold job (trying once).
-- Derived notes (the records an entry's answer feeds) are found here, among
-- the records that exist now; a note of the record itself, when there is
-- one, wins over them.
-- +goose StatementBegin
CREATE FUNCTION ledger_change_fold(p_member bigint, p_wait boolean) RETURNS boolean LANGUAGE plpgsql
SET enable_seqscan = off AS $$
BEGIN
    IF p_wait THEN
        PERFORM pg_advisory_xact_lock(hashtextextended('feed:' || p_member, 0));
    ELSIF NOT pg_try_advisory_xact_lock(hashtextextended('feed:' || p_member, 0)) THEN
        RETURN false;
    END IF;
    WITH taken AS MATERIALIZED (
        DELETE FROM ledger_change_pending p WHERE p.member_id = p_member
        RETURNING p.id, p.xid, p.kind, p.record_id, p.deleted, p.wallet_id, p.transfer_id, p.day, p.income
    ), e AS MATERIALIZED (
        SELECT t.record_id, t.wallet_id, t.transfer_id, t.day, t.income FROM taken t
        WHERE t.kind = 'ENTRY' AND t.day IS NOT NULL
    ), days AS MATERIALIZED (
        -- The entries' days, once each: the budgets below are matched
        -- against these, not against every note (a fold after an import
        -- holds thousands).
        SELECT e.day, bool_or(e.income) AS income FROM e GROUP BY e.day
    ), last AS MATERIALIZED (
        SELECT max(t.xid) AS xid FROM taken t
    ), notes AS (
        SELECT t.id, t.xid, t.kind, t.record_id, t.deleted FROM taken t
        UNION ALL
        SELECT 0, l.xid, d.kind, d.record_id, false
        FROM last l CROSS JOIN (
            SELECT 'WALLET' AS kind, w.id AS record_id FROM wallet w
            WHERE w.member_id = p_member AND w.id IN (SELECT e.wallet_id FROM e)
            UNION
            SELECT 'TRANSFER', x.id FROM transfer x
            WHERE x.member_id = p_member AND x.id IN (SELECT e.transfer_id FROM e)
            UNION
            SELECT 'TRANSFER', x.id FROM transfer x
            WHERE x.member_id = p_member AND x.fee_entry_id IN (SELECT e.record_id FROM e)
            UNION
            -- The ledger month of a date with start day d: its calendar
            -- month from day d on, the month before it until then.
            SELECT 'BUDGET_INCOME', b.year * 100 + b.month
            FROM budget_income b
            WHERE b.member_id = p_member AND make_date(b.year, b.month, 1) IN (
                SELECT date_trunc('month',
                      CASE WHEN extract(day FROM d.day) >= m.month_start_day THEN d.day
                           ELSE d.day - interval '1 month' END)::date
                FROM days d JOIN member m ON m.id = p_member
                WHERE d.income)
            UNION
            SELECT 'ONETIME_BUDGET', o.id FROM budget_onetime o
            WHERE o.member_id = p_member AND EXISTS (
                SELECT 1 FROM days d WHERE d.day BETWEEN o.start_date AND o.end_date)
        ) AS d
    )
    INSERT INTO ledger_change AS c (member_id, kind, record_id, xid, seq, deleted)
    SELECT p_member, n.kind, n.record_id, n.xid, nextval('ledger_change_seq'), n.deleted
    FROM (
        SELECT DISTINCT ON (n.kind, n.record_id) n.kind, n.record_id, n.xid, n.deleted
        FROM notes n
        ORDER BY n.kind, n.record_id, n.id DESC
    ) n
    WHERE EXISTS (SELECT 1 FROM member m WHERE m.id = p_member)
    ORDER BY n.kind, n.record_id
    ON CONFLICT (member_id, kind, record_id) DO UPDATE
        SET xid = excluded.xid, seq = excluded.seq, deleted = excluded.deleted, changed_at = now();
    RETURN true;
END $$;
-- +goose StatementEnd

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

-- +goose StatementBegin
-- A member's deletion drops their notes not folded yet, at commit, after
-- its cascades wrote theirs (the cascaded statements' triggers run after
-- the member's own statement and row triggers): the notes carry no foreign
-- key to member, which would cost every note a check.
CREATE FUNCTION ledger_change_forget() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM ledger_change_pending p WHERE p.member_id = OLD.id;
    RETURN NULL;
END $$;
-- +goose StatementEnd
CREATE CONSTRAINT TRIGGER ledger_change_forget AFTER DELETE ON member
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_change_forget();
CREATE TRIGGER ledger_change_upd AFTER UPDATE OF month_start_day ON member
    FOR EACH ROW WHEN (OLD.month_start_day IS DISTINCT FROM NEW.month_start_day)
    EXECUTE FUNCTION ledger_change_member();

-- +goose Down
DROP TRIGGER ledger_change_forget ON member;
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
DROP FUNCTION ledger_change_fold(bigint, boolean);
DROP FUNCTION ledger_change_forget();
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
