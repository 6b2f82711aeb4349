-- +goose Up
-- The changes feed (issue 22). Triggers on every ledger table keep one row per
-- (member, kind, record): the latest change of that record. Its position in
-- the member's feed, seq, is stamped at commit: a deferred trigger takes a
-- per-member transaction lock and gives the transaction's rows of that member
-- fresh numbers from a sequence. The lock is held until the commit is
-- visible, so one member's stamps follow commit order, and a reader's snapshot
-- always holds a prefix of them: a change committed later never appears
-- behind a cursor a client holds, on any replica, however transactions
-- interleave. It is the last lock a transaction takes (the stamp runs after
-- every statement). The change rows themselves are row-locked by the upserts
-- as statements run: two transactions that each bump the same two records
-- in opposite orders (two transfers in opposite directions between the same
-- wallets, each bumping both wallets) can deadlock on them; the database
-- layer retries once, then answers 503.
--
-- Every write path (handlers, restore, cascades such as a wallet deleted with
-- moveTo, foreign keys that delete or null rows) reaches these triggers, in the
-- writing transaction. A change that alters another record's answer bumps that
-- record too: an entry its wallet's balance, its transfer, the expected income
-- of its ledger month and the one-time budgets whose period holds it; an entry's
-- tag links and a tag's rename its entries; a sub-category its parent's
-- `children`; the month start day the profile and every expected income.
-- Bumps are written only for records that still exist (a deletion is written by
-- the record's own trigger), and only for members that still exist (an account
-- deletion cascades through here).
CREATE TABLE ledger_change (
    member_id  bigint      NOT NULL REFERENCES member (id) ON DELETE CASCADE,
    kind       text        NOT NULL,
    -- The record's id; an expected income's is year * 100 + month and the
    -- profile's the member id.
    record_id  bigint      NOT NULL,
    -- The writing transaction (pg_current_xact_id() as bigint: xid8 stays
    -- below 2^63), so the commit-time stamp finds its rows.
    xid        bigint      NOT NULL,
    -- The position in the member's feed, stamped at commit.
    seq        bigint      NOT NULL,
    deleted    boolean     NOT NULL,
    changed_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (member_id, kind, record_id)
);
CREATE INDEX ledger_change_feed_idx ON ledger_change (member_id, seq);
CREATE INDEX ledger_change_xid_idx ON ledger_change (member_id, xid);
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

-- +goose StatementBegin
CREATE FUNCTION ledger_change_note(p_kind text, p_deleted boolean, p_members bigint[], p_ids bigint[])
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
-- Entries: the entry, then what its answer feeds (see the top). The rows
-- before and after the statement are gathered into one array, as a trigger
-- for one event cannot name the other event's transition table.
CREATE FUNCTION ledger_change_entry() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    ms bigint[];
    ids bigint[];
    touched account_entry[] := '{}';
    members bigint[];
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        touched := touched || ARRAY(SELECT r::account_entry FROM old_rows r);
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        touched := touched || ARRAY(SELECT r::account_entry FROM new_rows r);
    END IF;
    IF TG_OP = 'DELETE' THEN
        SELECT array_agg(member_id), array_agg(id) INTO ms, ids FROM old_rows;
        PERFORM ledger_change_note('ENTRY', true, ms, ids);
    ELSE
        SELECT array_agg(member_id), array_agg(id) INTO ms, ids FROM new_rows;
        PERFORM ledger_change_note('ENTRY', false, ms, ids);
    END IF;
    -- Every lookup below is held to these members (usually one), so it
    -- reads their rows by index, never another member's.
    members := ARRAY(SELECT DISTINCT t.member_id FROM unnest(touched) t);

    SELECT array_agg(w.member_id), array_agg(w.id) INTO ms, ids
    FROM wallet w
    WHERE w.member_id = ANY(members)
      AND (w.member_id, w.id) IN (SELECT t.member_id, t.wallet_id FROM unnest(touched) t);
    PERFORM ledger_change_note('WALLET', false, ms, ids);

    SELECT array_agg(tr.member_id), array_agg(tr.id) INTO ms, ids FROM (
        SELECT x.member_id, x.id FROM transfer x
        WHERE x.member_id = ANY(members)
          AND (x.member_id, x.id) IN (SELECT t.member_id, t.transfer_id FROM unnest(touched) t)
        UNION
        SELECT x.member_id, x.id FROM transfer x
        WHERE x.fee_entry_id = ANY(ARRAY(SELECT t.id FROM unnest(touched) t))
    ) tr;
    PERFORM ledger_change_note('TRANSFER', false, ms, ids);

    -- The ledger month of a date with start day d: its calendar month from
    -- day d on, the month before it until then.
    SELECT array_agg(b.member_id), array_agg(b.year * 100 + b.month) INTO ms, ids
    FROM budget_income b
    JOIN member m ON m.id = b.member_id
    WHERE b.member_id = ANY(members) AND EXISTS (
        SELECT 1 FROM unnest(touched) e
        WHERE e.member_id = b.member_id AND e.type = 'income'
          AND make_date(b.year, b.month, 1) = date_trunc('month',
              CASE WHEN extract(day FROM e.entry_date) >= m.month_start_day THEN e.entry_date
                   ELSE e.entry_date - interval '1 month' END)::date);
    PERFORM ledger_change_note('BUDGET_INCOME', false, ms, ids);

    SELECT array_agg(o.member_id), array_agg(o.id) INTO ms, ids
    FROM budget_onetime o
    WHERE o.member_id = ANY(members) AND EXISTS (
        SELECT 1 FROM unnest(touched) e
        WHERE e.member_id = o.member_id AND e.entry_date BETWEEN o.start_date AND o.end_date);
    PERFORM ledger_change_note('ONETIME_BUDGET', false, ms, ids);
    RETURN NULL;
END $$;
-- +goose StatementEnd

-- +goose StatementBegin
-- An entry's tag links: the entries (the links carry no member_id; the entry
-- gives it, and a link deleted with its entry needs no bump).
CREATE FUNCTION ledger_change_entry_tag() RETURNS trigger LANGUAGE plpgsql AS $$
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

-- +goose StatementBegin
-- At commit (deferred), once per transaction and member: the member's lock,
-- then fresh positions for this transaction's rows of the member. The stamp
-- sets only seq, so it does not fire this trigger again.
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

-- What existed before the feed: one change each, in this transaction.
SELECT ledger_change_note('PROFILE', false, ARRAY(SELECT id FROM member ORDER BY id), ARRAY(SELECT id FROM member ORDER BY id));
SELECT ledger_change_note(k, false, ms, ids) FROM (
    SELECT 'WALLET' AS k, array_agg(member_id) AS ms, array_agg(id) AS ids FROM wallet
    UNION ALL SELECT 'CATEGORY', array_agg(member_id), array_agg(id) FROM account_category
    UNION ALL SELECT 'TAG', array_agg(member_id), array_agg(id) FROM account_tag
    UNION ALL SELECT 'ENTRY', array_agg(member_id), array_agg(id) FROM account_entry
    UNION ALL SELECT 'TRANSFER', array_agg(member_id), array_agg(id) FROM transfer
    UNION ALL SELECT 'RECURRING', array_agg(member_id), array_agg(id) FROM recurring
    UNION ALL SELECT 'QUICK_ENTRY', array_agg(member_id), array_agg(id) FROM quick_entry
    UNION ALL SELECT 'BUDGET', array_agg(member_id), array_agg(id) FROM budget
    UNION ALL SELECT 'ONETIME_BUDGET', array_agg(member_id), array_agg(id) FROM budget_onetime
    UNION ALL SELECT 'BUDGET_INCOME', array_agg(member_id), array_agg(year * 100 + month) FROM budget_income
    UNION ALL SELECT 'STOCK', array_agg(member_id), array_agg(id) FROM stock
    UNION ALL SELECT 'TRADE', array_agg(member_id), array_agg(id) FROM invest_trade
) t WHERE ms IS NOT NULL;

-- +goose Down
DROP TRIGGER ledger_change_stamp ON ledger_change;
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
DROP FUNCTION ledger_change_stamp();
DROP FUNCTION ledger_change_member();
DROP FUNCTION ledger_change_category();
DROP FUNCTION ledger_change_tag();
DROP FUNCTION ledger_change_entry_tag();
DROP FUNCTION ledger_change_entry();
DROP FUNCTION ledger_change_budget_income();
DROP FUNCTION ledger_change_plain();
DROP FUNCTION ledger_change_note(text, boolean, bigint[], bigint[]);
DROP TABLE ledger_change_epoch;
DROP SEQUENCE ledger_change_seq;
DROP TABLE ledger_change;
