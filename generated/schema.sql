-- The schema the migrations in schema/ make, written by `make generate` (pg_dump).
-- Do not edit: change a migration, then run make generate.

--
-- PostgreSQL database dump
--

--
-- Name: book_attribution_note(bigint[]); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.book_attribution_note(p_ledgers bigint[]) RETURNS void
    LANGUAGE plpgsql
    AS $$
BEGIN
    PERFORM ledger_change_note('ENTRY', false,
        ARRAY(SELECT e.member_id FROM account_entry e WHERE e.member_id = ANY(p_ledgers) ORDER BY e.id),
        ARRAY(SELECT e.id FROM account_entry e WHERE e.member_id = ANY(p_ledgers) ORDER BY e.id));
    PERFORM ledger_change_note('TRANSFER', false,
        ARRAY(SELECT t.member_id FROM transfer t WHERE t.member_id = ANY(p_ledgers) ORDER BY t.id),
        ARRAY(SELECT t.id FROM transfer t WHERE t.member_id = ANY(p_ledgers) ORDER BY t.id));
END $$;

--
-- Name: book_attribution_renamed(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.book_attribution_renamed() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    -- The member's personal ledger and every book they are or were in.
    PERFORM book_attribution_note(ARRAY[NEW.id] || ARRAY(
        SELECT b.ledger_member_id FROM book_member bm JOIN book b ON b.id = bm.book_id WHERE bm.member_id = NEW.id));
    RETURN NULL;
END $$;

--
-- Name: book_attribution_roster(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.book_attribution_roster() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE
    v_book bigint := CASE WHEN TG_OP = 'DELETE' THEN OLD.book_id ELSE NEW.book_id END;
BEGIN
    PERFORM book_attribution_note(ARRAY(SELECT b.ledger_member_id FROM book b WHERE b.id = v_book));
    RETURN NULL;
END $$;

--
-- Name: comment_count(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.comment_count() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        UPDATE post SET comment_count = comment_count - 1 WHERE id = OLD.post_id;
    ELSE
        UPDATE post SET comment_count = comment_count + 1 WHERE id = NEW.post_id;
    END IF;
    RETURN NULL;
END $$;

--
-- Name: comment_vote_count(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.comment_vote_count() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    IF TG_OP IN ('DELETE', 'UPDATE') THEN
        UPDATE comment SET up_count = up_count - (OLD.direction = 'UP')::int,
                           down_count = down_count - (OLD.direction = 'DOWN')::int
        WHERE id = OLD.comment_id;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        UPDATE comment SET up_count = up_count + (NEW.direction = 'UP')::int,
                           down_count = down_count + (NEW.direction = 'DOWN')::int
        WHERE id = NEW.comment_id;
    END IF;
    RETURN NULL;
END $$;

--
-- Name: account_tag; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.account_tag (
    id bigint NOT NULL,
    member_id bigint NOT NULL,
    name text NOT NULL,
    sort_order integer NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    version bigint DEFAULT 1 NOT NULL
);

--
-- Name: ensure_member_tags(bigint, text[]); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.ensure_member_tags(p_member bigint, p_names text[]) RETURNS SETOF public.account_tag
    LANGUAGE plpgsql STRICT
    AS $$
BEGIN
    INSERT INTO account_tag (member_id, name, sort_order)
    SELECT p_member, x.name,
        (SELECT COALESCE(MAX(t.sort_order), 0) FROM account_tag t WHERE t.member_id = p_member) + x.ord
    FROM unnest(p_names) WITH ORDINALITY AS x (name, ord)
    ORDER BY x.name
    ON CONFLICT (member_id, name) DO NOTHING;
    RETURN QUERY SELECT t.* FROM account_tag t
        WHERE t.member_id = p_member AND t.name = ANY (p_names)
        ORDER BY t.sort_order, t.id
        FOR KEY SHARE;
END
$$;

--
-- Name: entry_tags_version(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.entry_tags_version() RETURNS trigger
    LANGUAGE plpgsql
    SET enable_seqscan TO 'off'
    AS $$
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

--
-- Name: ledger_change_budget_income(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.ledger_change_budget_income() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
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

--
-- Name: ledger_change_category(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.ledger_change_category() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
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

--
-- Name: ledger_change_entry(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.ledger_change_entry() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
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

--
-- Name: ledger_change_entry_tag(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.ledger_change_entry_tag() RETURNS trigger
    LANGUAGE plpgsql
    SET enable_seqscan TO 'off'
    AS $$
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

--
-- Name: ledger_change_fold(bigint, boolean); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.ledger_change_fold(p_member bigint, p_wait boolean) RETURNS boolean
    LANGUAGE plpgsql
    SET enable_seqscan TO 'off'
    AS $$
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

--
-- Name: ledger_change_forget(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.ledger_change_forget() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    DELETE FROM ledger_change_pending p WHERE p.member_id = OLD.id;
    RETURN NULL;
END $$;

--
-- Name: ledger_change_member(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.ledger_change_member() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    PERFORM ledger_change_note('PROFILE', false, ARRAY[NEW.id], ARRAY[NEW.id]);
    IF TG_OP = 'UPDATE' THEN
        PERFORM ledger_change_note('BUDGET_INCOME', false,
            ARRAY(SELECT member_id FROM budget_income WHERE member_id = NEW.id ORDER BY year, month),
            ARRAY(SELECT year * 100 + month FROM budget_income WHERE member_id = NEW.id ORDER BY year, month));
    END IF;
    RETURN NULL;
END $$;

--
-- Name: ledger_change_note(text, boolean, bigint[], bigint[]); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.ledger_change_note(p_kind text, p_deleted boolean, p_members bigint[], p_ids bigint[]) RETURNS void
    LANGUAGE plpgsql
    AS $$
BEGIN
    INSERT INTO ledger_change_pending (xid, member_id, kind, record_id, deleted)
    SELECT pg_current_xact_id()::text::bigint, u.member_id, p_kind, u.record_id, p_deleted
    FROM unnest(p_members, p_ids) AS u (member_id, record_id)
    WHERE u.member_id IS NOT NULL AND u.record_id IS NOT NULL;
END
$$;

--
-- Name: ledger_change_plain(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.ledger_change_plain() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
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

--
-- Name: ledger_change_tag(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.ledger_change_tag() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
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

--
-- Name: post_total_count(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.post_total_count() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        UPDATE post_total t SET visible = t.visible + d.n
        FROM (SELECT category, count(*) AS n FROM new_rows WHERE block_reason IS NULL GROUP BY category) d
        WHERE t.category = d.category;
    ELSIF TG_OP = 'DELETE' THEN
        UPDATE post_total t SET visible = t.visible - d.n
        FROM (SELECT category, count(*) AS n FROM old_rows WHERE block_reason IS NULL GROUP BY category) d
        WHERE t.category = d.category;
    ELSE
        UPDATE post_total t SET visible = t.visible + d.n
        FROM (
            SELECT category, sum(n) AS n FROM (
                SELECT category, -1 AS n FROM old_rows WHERE block_reason IS NULL
                UNION ALL
                SELECT category, 1 FROM new_rows WHERE block_reason IS NULL
            ) c GROUP BY category
        ) d
        WHERE t.category = d.category AND d.n <> 0;
    END IF;
    RETURN NULL;
END $$;

--
-- Name: post_vote_count(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.post_vote_count() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    IF TG_OP IN ('DELETE', 'UPDATE') THEN
        UPDATE post SET up_count = up_count - (OLD.direction = 'UP')::int,
                        down_count = down_count - (OLD.direction = 'DOWN')::int
        WHERE id = OLD.post_id;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        UPDATE post SET up_count = up_count + (NEW.direction = 'UP')::int,
                        down_count = down_count + (NEW.direction = 'DOWN')::int
        WHERE id = NEW.post_id;
    END IF;
    RETURN NULL;
END $$;

--
-- Name: record_version(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.record_version() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    NEW.version := OLD.version + 1;
    RETURN NEW;
END
$$;

--
-- Name: report_count(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.report_count() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE
    delta int := CASE WHEN TG_OP = 'DELETE' THEN -1 ELSE 1 END;
    r report := CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
BEGIN
    IF r.post_id IS NOT NULL THEN
        UPDATE post SET report_count = report_count + delta WHERE id = r.post_id;
    ELSE
        UPDATE comment SET report_count = report_count + delta WHERE id = r.comment_id;
    END IF;
    RETURN NULL;
END $$;

--
-- Name: retry_statement(text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.retry_statement(reason text) RETURNS boolean
    LANGUAGE plpgsql
    AS $$
BEGIN
    RAISE EXCEPTION USING ERRCODE = 'serialization_failure', MESSAGE = reason;
END
$$;

--
-- Name: wallet_net_entries(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.wallet_net_entries() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE
    members bigint[];
    mid bigint;
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO wallet_net_delta (member_id, wallet_id, day, net, gross)
        SELECT member_id, wallet_id, entry_date,
               sum(CASE WHEN type = 'income' THEN amount ELSE -amount END), sum(amount)
        FROM new_rows WHERE NOT pending AND wallet_id IS NOT NULL
        GROUP BY member_id, wallet_id, entry_date
        HAVING sum(amount) <> 0;
        SELECT array_agg(DISTINCT member_id) INTO members FROM new_rows WHERE NOT pending AND wallet_id IS NOT NULL;
    ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO wallet_net_delta (member_id, wallet_id, day, net, gross)
        SELECT o.member_id, o.wallet_id, o.entry_date,
               sum(CASE WHEN o.type = 'income' THEN -o.amount ELSE o.amount END), -sum(o.amount)
        FROM old_rows o JOIN wallet w ON w.member_id = o.member_id AND w.id = o.wallet_id
        WHERE NOT o.pending
        GROUP BY o.member_id, o.wallet_id, o.entry_date
        HAVING sum(o.amount) <> 0;
        SELECT array_agg(DISTINCT member_id) INTO members FROM old_rows WHERE NOT pending AND wallet_id IS NOT NULL;
    ELSE
        INSERT INTO wallet_net_delta (member_id, wallet_id, day, net, gross)
        SELECT c.member_id, c.wallet_id, c.entry_date, sum(c.net), sum(c.gross)
        FROM (SELECT member_id, wallet_id, entry_date, CASE WHEN type = 'income' THEN amount ELSE -amount END AS net,
                     amount AS gross
              FROM new_rows WHERE NOT pending AND wallet_id IS NOT NULL
              UNION ALL
              SELECT member_id, wallet_id, entry_date, CASE WHEN type = 'income' THEN -amount ELSE amount END,
                     -amount
              FROM old_rows WHERE NOT pending AND wallet_id IS NOT NULL) AS c
        JOIN wallet w ON w.member_id = c.member_id AND w.id = c.wallet_id
        GROUP BY c.member_id, c.wallet_id, c.entry_date
        HAVING sum(c.net) <> 0 OR sum(c.gross) <> 0;
        SELECT array_agg(DISTINCT member_id) INTO members
        FROM (SELECT member_id FROM new_rows WHERE NOT pending AND wallet_id IS NOT NULL
              UNION SELECT member_id FROM old_rows WHERE NOT pending AND wallet_id IS NOT NULL) AS m;
    END IF;
    FOR mid IN SELECT u.id FROM unnest(members) AS u(id) ORDER BY 1 LOOP
        IF (SELECT count(*) FROM (SELECT FROM wallet_net_delta d WHERE d.member_id = mid
                                  LIMIT wallet_net_fold_at()) AS d) >= wallet_net_fold_at()
           AND pg_try_advisory_xact_lock(hashtextextended('wallet_net:' || mid, 0)) THEN
            PERFORM wallet_net_fold(mid);
        END IF;
    END LOOP;
    RETURN NULL;
END
$$;

--
-- Name: wallet_net_fold(bigint); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.wallet_net_fold(mid bigint) RETURNS void
    LANGUAGE plpgsql
    SET enable_bitmapscan TO 'off'
    SET enable_seqscan TO 'off'
    AS $$
BEGIN
    WITH folded AS (
        DELETE FROM wallet_net_delta d WHERE d.member_id = mid
        RETURNING d.wallet_id, d.day, d.net, d.gross
    )
    INSERT INTO wallet_net AS r (member_id, wallet_id, period, start, net, gross)
    SELECT mid, x.wallet_id, p.period, p.start, sum(x.net), sum(x.gross)
    FROM folded x
    JOIN wallet w ON w.member_id = mid AND w.id = x.wallet_id
    CROSS JOIN LATERAL (VALUES
        ('total', '-infinity'::date),
        ('month', date_trunc('month', x.day::timestamp)::date),
        ('week',  date_trunc('week', x.day::timestamp)::date)
    ) AS p(period, start)
    GROUP BY p.period, p.start, x.wallet_id
    HAVING sum(x.net) <> 0 OR sum(x.gross) <> 0
    ORDER BY p.period, p.start, x.wallet_id
    ON CONFLICT (member_id, period, start, wallet_id) DO UPDATE
        SET net = r.net + EXCLUDED.net, gross = r.gross + EXCLUDED.gross;
END
$$;

--
-- Name: wallet_net_fold_at(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.wallet_net_fold_at() RETURNS integer
    LANGUAGE sql IMMUTABLE
    AS $$SELECT 32$$;

--
-- Name: account_category; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.account_category (
    id bigint NOT NULL,
    member_id bigint NOT NULL,
    parent_id bigint,
    name text NOT NULL,
    type text NOT NULL,
    sort_order integer NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    version bigint DEFAULT 1 NOT NULL,
    CONSTRAINT account_category_type_check CHECK ((type = ANY (ARRAY['income'::text, 'expense'::text])))
);

--
-- Name: account_category_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.account_category ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.account_category_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: account_entry; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.account_entry (
    id bigint NOT NULL,
    member_id bigint NOT NULL,
    wallet_id bigint,
    category_id bigint,
    type text NOT NULL,
    amount bigint NOT NULL,
    entry_date date NOT NULL,
    memo text DEFAULT ''::text NOT NULL,
    currency text,
    original_amount numeric,
    exchange_rate numeric,
    installment_months integer,
    pending boolean DEFAULT false NOT NULL,
    notif_key text,
    transfer_id bigint,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    awaiting_rate boolean GENERATED ALWAYS AS ((pending AND (currency IS NOT NULL) AND (exchange_rate IS NULL) AND (amount = 0))) STORED NOT NULL,
    version bigint DEFAULT 1 NOT NULL,
    created_by bigint,
    paid_by bigint,
    CONSTRAINT account_entry_type_check CHECK ((type = ANY (ARRAY['income'::text, 'expense'::text])))
);

--
-- Name: account_entry_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.account_entry ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.account_entry_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: account_entry_import; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.account_entry_import (
    member_id bigint NOT NULL,
    row_hash bytea NOT NULL,
    entry_id bigint NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: account_entry_tag; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.account_entry_tag (
    entry_id bigint NOT NULL,
    tag_id bigint NOT NULL
);

--
-- Name: account_tag_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.account_tag ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.account_tag_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: app_setting; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.app_setting (
    key text NOT NULL,
    value jsonb NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: auth_failure; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.auth_failure (
    id bigint NOT NULL,
    key text NOT NULL,
    failed_at timestamp with time zone NOT NULL
);

--
-- Name: auth_failure_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.auth_failure ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.auth_failure_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: auth_session; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.auth_session (
    token_hash text NOT NULL,
    member_id bigint NOT NULL,
    data bytea NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    epoch bigint DEFAULT 0 NOT NULL,
    deadline timestamp with time zone NOT NULL
);

--
-- Name: board_image; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.board_image (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    member_id bigint NOT NULL,
    content_type text NOT NULL,
    data bytea NOT NULL,
    sha256 text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    meta_stripped boolean DEFAULT true NOT NULL
);

--
-- Name: book; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.book (
    id bigint NOT NULL,
    ledger_member_id bigint NOT NULL,
    name text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT book_name_check CHECK (((length(name) >= 1) AND (length(name) <= 50)))
);

--
-- Name: book_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.book ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.book_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: book_invitation; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.book_invitation (
    id bigint NOT NULL,
    book_id bigint NOT NULL,
    code_hash bytea NOT NULL,
    role text NOT NULL,
    created_by bigint NOT NULL,
    created_at timestamp with time zone NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    used_at timestamp with time zone,
    used_by bigint,
    revoked_at timestamp with time zone,
    CONSTRAINT book_invitation_role_check CHECK ((role = ANY (ARRAY['EDITOR'::text, 'VIEWER'::text])))
);

--
-- Name: book_invitation_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.book_invitation ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.book_invitation_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: book_member; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.book_member (
    book_id bigint NOT NULL,
    member_id bigint NOT NULL,
    role text NOT NULL,
    weight integer DEFAULT 1 NOT NULL,
    joined_at timestamp with time zone DEFAULT now() NOT NULL,
    left_at timestamp with time zone,
    CONSTRAINT book_member_role_check CHECK ((role = ANY (ARRAY['OWNER'::text, 'EDITOR'::text, 'VIEWER'::text]))),
    CONSTRAINT book_member_weight_check CHECK (((weight >= 1) AND (weight <= 1000)))
);

--
-- Name: book_settlement; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.book_settlement (
    book_id bigint NOT NULL,
    year integer NOT NULL,
    month integer NOT NULL,
    settled_at timestamp with time zone NOT NULL,
    settled_by bigint NOT NULL,
    CONSTRAINT book_settlement_month_check CHECK (((month >= 1) AND (month <= 12)))
);

--
-- Name: budget; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.budget (
    id bigint NOT NULL,
    member_id bigint NOT NULL,
    category_id bigint NOT NULL,
    year integer NOT NULL,
    month integer NOT NULL,
    amount bigint NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    version bigint DEFAULT 1 NOT NULL,
    CONSTRAINT budget_amount_check CHECK ((amount >= 0)),
    CONSTRAINT budget_month_check CHECK (((month >= 1) AND (month <= 12)))
);

--
-- Name: budget_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.budget ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.budget_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: budget_income; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.budget_income (
    member_id bigint NOT NULL,
    year integer NOT NULL,
    month integer NOT NULL,
    amount bigint NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT budget_income_amount_check CHECK ((amount >= 0)),
    CONSTRAINT budget_income_month_check CHECK (((month >= 1) AND (month <= 12)))
);

--
-- Name: budget_onetime; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.budget_onetime (
    id bigint NOT NULL,
    member_id bigint NOT NULL,
    name text NOT NULL,
    amount bigint NOT NULL,
    start_date date NOT NULL,
    end_date date NOT NULL,
    category_id bigint,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    version bigint DEFAULT 1 NOT NULL,
    CONSTRAINT budget_onetime_amount_check CHECK ((amount >= 0)),
    CONSTRAINT budget_onetime_check CHECK ((end_date >= start_date))
);

--
-- Name: budget_onetime_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.budget_onetime ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.budget_onetime_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: card_bill_payment; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.card_bill_payment (
    member_id bigint NOT NULL,
    wallet_id bigint NOT NULL,
    closing_date date NOT NULL,
    transfer_id bigint,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: card_checkpoint; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.card_checkpoint (
    member_id bigint NOT NULL,
    wallet_id bigint NOT NULL,
    closing_date date NOT NULL,
    consumed bigint NOT NULL,
    carry_closings date[] NOT NULL,
    carry_amounts bigint[] NOT NULL,
    schedule text NOT NULL,
    seq bigint NOT NULL,
    snapshot pg_snapshot NOT NULL,
    epoch bigint NOT NULL,
    CONSTRAINT card_checkpoint_check CHECK ((cardinality(carry_amounts) = cardinality(carry_closings))),
    CONSTRAINT card_checkpoint_consumed_check CHECK ((consumed >= 0))
);

--
-- Name: card_cycle_past; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.card_cycle_past (
    member_id bigint NOT NULL,
    wallet_id bigint NOT NULL,
    until_date date NOT NULL,
    statement_day integer NOT NULL,
    payment_day integer NOT NULL,
    CONSTRAINT card_cycle_past_payment_day_check CHECK (((payment_day >= 1) AND (payment_day <= 31))),
    CONSTRAINT card_cycle_past_statement_day_check CHECK (((statement_day >= 1) AND (statement_day <= 31)))
);

--
-- Name: comment; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.comment (
    id bigint NOT NULL,
    post_id bigint NOT NULL,
    member_id bigint NOT NULL,
    body text NOT NULL,
    block_reason text,
    up_count integer DEFAULT 0 NOT NULL,
    down_count integer DEFAULT 0 NOT NULL,
    report_count integer DEFAULT 0 NOT NULL,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    version bigint DEFAULT 1 NOT NULL,
    CONSTRAINT comment_block_reason_check CHECK ((block_reason = ANY (ARRAY['REPORTS'::text, 'SPAM'::text])))
);

--
-- Name: comment_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.comment ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.comment_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: comment_vote; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.comment_vote (
    comment_id bigint NOT NULL,
    member_id bigint NOT NULL,
    direction text NOT NULL,
    author_points integer DEFAULT 0 NOT NULL,
    created_at timestamp with time zone NOT NULL,
    CONSTRAINT comment_vote_direction_check CHECK ((direction = ANY (ARRAY['UP'::text, 'DOWN'::text])))
);

--
-- Name: default_category; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.default_category (
    id bigint NOT NULL,
    parent_id bigint,
    name text NOT NULL,
    type text NOT NULL,
    sort_order integer NOT NULL,
    CONSTRAINT default_category_type_check CHECK ((type = ANY (ARRAY['income'::text, 'expense'::text])))
);

--
-- Name: default_category_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.default_category ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.default_category_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: fx_lookup; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.fx_lookup (
    from_currency text NOT NULL,
    to_currency text NOT NULL,
    day date NOT NULL,
    failed boolean NOT NULL,
    until timestamp with time zone NOT NULL
);

--
-- Name: fx_rate; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.fx_rate (
    from_currency text NOT NULL,
    to_currency text NOT NULL,
    day date NOT NULL,
    rate numeric NOT NULL,
    rate_date date NOT NULL,
    fetched_at timestamp with time zone NOT NULL,
    CONSTRAINT fx_rate_from_currency_check CHECK ((from_currency ~ '^[A-Z]{3}$'::text)),
    CONSTRAINT fx_rate_rate_check CHECK ((rate > (0)::numeric)),
    CONSTRAINT fx_rate_to_currency_check CHECK ((to_currency ~ '^[A-Z]{3}$'::text))
);

--
-- Name: heavy_work; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.heavy_work (
    member_id bigint NOT NULL,
    operation text NOT NULL,
    token bytea NOT NULL,
    started_at timestamp with time zone NOT NULL,
    until timestamp with time zone NOT NULL
);

--
-- Name: iap_purchase; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.iap_purchase (
    id bigint NOT NULL,
    member_id bigint NOT NULL,
    purchase_token text NOT NULL,
    product_id text NOT NULL,
    auto_renew boolean NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    store_expires_at timestamp with time zone,
    test_mode boolean DEFAULT false NOT NULL,
    created_at timestamp with time zone NOT NULL
);

--
-- Name: iap_purchase_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.iap_purchase ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.iap_purchase_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: idempotency_key; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.idempotency_key (
    member_id bigint NOT NULL,
    key text NOT NULL,
    fingerprint bytea NOT NULL,
    answer bytea NOT NULL,
    created_at timestamp with time zone NOT NULL,
    book_id bigint DEFAULT 0 NOT NULL,
    CONSTRAINT idempotency_key_key_check CHECK (((length(key) >= 1) AND (length(key) <= 255)))
);

--
-- Name: image_upload_day; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.image_upload_day (
    member_id bigint NOT NULL,
    day date NOT NULL,
    uploads integer NOT NULL
);

--
-- Name: invest_trade; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.invest_trade (
    id bigint NOT NULL,
    member_id bigint NOT NULL,
    stock_id bigint NOT NULL,
    side text NOT NULL,
    trade_date date NOT NULL,
    quantity numeric(18,6) NOT NULL,
    price numeric(18,6) NOT NULL,
    fee numeric(18,6) DEFAULT 0 NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    version bigint DEFAULT 1 NOT NULL,
    CONSTRAINT invest_trade_fee_check CHECK ((fee >= (0)::numeric)),
    CONSTRAINT invest_trade_price_check CHECK ((price >= (0)::numeric)),
    CONSTRAINT invest_trade_quantity_check CHECK ((quantity > (0)::numeric)),
    CONSTRAINT invest_trade_side_check CHECK ((side = ANY (ARRAY['BUY'::text, 'SELL'::text])))
);

--
-- Name: invest_trade_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.invest_trade ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.invest_trade_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: job_run; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.job_run (
    name text NOT NULL,
    last_run_at timestamp with time zone NOT NULL
);

--
-- Name: ledger_change; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.ledger_change (
    member_id bigint NOT NULL,
    kind text NOT NULL,
    record_id bigint NOT NULL,
    xid bigint NOT NULL,
    seq bigint NOT NULL,
    deleted boolean NOT NULL,
    changed_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: ledger_change_epoch; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.ledger_change_epoch (
    member_id bigint NOT NULL,
    epoch bigint DEFAULT 1 NOT NULL,
    pruned_seq bigint DEFAULT 0 NOT NULL
);

--
-- Name: ledger_change_pending; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.ledger_change_pending (
    id bigint NOT NULL,
    xid bigint NOT NULL,
    member_id bigint NOT NULL,
    kind text NOT NULL,
    record_id bigint NOT NULL,
    deleted boolean NOT NULL,
    wallet_id bigint,
    transfer_id bigint,
    day date,
    income boolean
)
WITH (autovacuum_vacuum_scale_factor='0', autovacuum_vacuum_threshold='1000');

--
-- Name: ledger_change_pending_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.ledger_change_pending ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.ledger_change_pending_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: ledger_change_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.ledger_change_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

--
-- Name: member; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.member (
    id bigint NOT NULL,
    email text,
    password_hash text,
    name text NOT NULL,
    role text DEFAULT 'USER'::text NOT NULL,
    status text DEFAULT 'ACTIVE'::text NOT NULL,
    provider text DEFAULT 'LOCAL'::text NOT NULL,
    idp_a_id text,
    idp_b_id text,
    idp_a_picture text,
    profile_image text,
    plan text DEFAULT 'FREE'::text NOT NULL,
    plan_expires_at timestamp with time zone,
    plan_product text,
    plan_auto_renew boolean DEFAULT false NOT NULL,
    points bigint DEFAULT 0 NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    session_epoch bigint DEFAULT 0 NOT NULL,
    email_verified boolean DEFAULT false NOT NULL,
    month_start_day smallint DEFAULT 1 NOT NULL,
    profile_image_id uuid,
    version bigint DEFAULT 1 NOT NULL,
    kind text DEFAULT 'PERSON'::text NOT NULL,
    CONSTRAINT member_check CHECK (((kind = 'PERSON'::text) OR ((email IS NULL) AND (password_hash IS NULL) AND (idp_a_id IS NULL) AND (idp_b_id IS NULL)))),
    CONSTRAINT member_kind_check CHECK ((kind = ANY (ARRAY['PERSON'::text, 'BOOK'::text]))),
    CONSTRAINT member_month_start_day_check CHECK (((month_start_day >= 1) AND (month_start_day <= 28))),
    CONSTRAINT member_plan_check CHECK ((plan = ANY (ARRAY['FREE'::text, 'PREMIUM'::text]))),
    CONSTRAINT member_points_check CHECK ((points >= 0)),
    CONSTRAINT member_provider_check CHECK ((provider = ANY (ARRAY['LOCAL'::text, 'IDP_A'::text, 'IDP_B'::text]))),
    CONSTRAINT member_role_check CHECK ((role = ANY (ARRAY['USER'::text, 'ADMIN'::text]))),
    CONSTRAINT member_status_check CHECK ((status = ANY (ARRAY['ACTIVE'::text, 'SUSPENDED'::text])))
);

--
-- Name: member_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.member ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.member_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: notification_key; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.notification_key (
    member_id bigint NOT NULL,
    notif_key text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: outside_call_count; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.outside_call_count (
    member_id bigint NOT NULL,
    kind text NOT NULL,
    day date NOT NULL,
    calls integer NOT NULL,
    CONSTRAINT outside_call_count_calls_check CHECK ((calls > 0)),
    CONSTRAINT outside_call_count_kind_check CHECK ((kind = ANY (ARRAY['FX'::text, 'AI'::text, 'OCR'::text])))
);

--
-- Name: point_history; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.point_history (
    id bigint NOT NULL,
    member_id bigint NOT NULL,
    points integer NOT NULL,
    reason text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: point_history_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.point_history ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.point_history_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: post; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.post (
    id bigint NOT NULL,
    member_id bigint NOT NULL,
    category text NOT NULL,
    title text NOT NULL,
    body text NOT NULL,
    tags text[] DEFAULT '{}'::text[] NOT NULL,
    image_urls text[] DEFAULT '{}'::text[] NOT NULL,
    notice boolean DEFAULT false NOT NULL,
    block_reason text,
    up_count integer DEFAULT 0 NOT NULL,
    down_count integer DEFAULT 0 NOT NULL,
    comment_count integer DEFAULT 0 NOT NULL,
    report_count integer DEFAULT 0 NOT NULL,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    version bigint DEFAULT 1 NOT NULL,
    hot_votes boolean GENERATED ALWAYS AS ((up_count >= 50)) STORED NOT NULL,
    CONSTRAINT post_block_reason_check CHECK ((block_reason = ANY (ARRAY['REPORTS'::text, 'SPAM'::text]))),
    CONSTRAINT post_category_check CHECK ((category = ANY (ARRAY['community'::text, 'saving'::text, 'tips'::text])))
);

--
-- Name: post_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.post ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.post_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: post_image; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.post_image (
    post_id bigint NOT NULL,
    image_id uuid NOT NULL
);

--
-- Name: post_total; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.post_total (
    category text NOT NULL,
    visible bigint DEFAULT 0 NOT NULL,
    CONSTRAINT post_total_category_check CHECK ((category = ANY (ARRAY['community'::text, 'saving'::text, 'tips'::text])))
);

--
-- Name: post_vote; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.post_vote (
    post_id bigint NOT NULL,
    member_id bigint NOT NULL,
    direction text NOT NULL,
    author_points integer DEFAULT 0 NOT NULL,
    created_at timestamp with time zone NOT NULL,
    CONSTRAINT post_vote_direction_check CHECK ((direction = ANY (ARRAY['UP'::text, 'DOWN'::text])))
);

--
-- Name: quick_entry; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.quick_entry (
    id bigint NOT NULL,
    member_id bigint NOT NULL,
    name text NOT NULL,
    type text NOT NULL,
    amount bigint NOT NULL,
    wallet_id bigint,
    category_id bigint,
    memo text DEFAULT ''::text NOT NULL,
    tags text[] DEFAULT '{}'::text[] NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    version bigint DEFAULT 1 NOT NULL,
    CONSTRAINT quick_entry_type_check CHECK ((type = ANY (ARRAY['income'::text, 'expense'::text])))
);

--
-- Name: quick_entry_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.quick_entry ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.quick_entry_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: recurring; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.recurring (
    id bigint NOT NULL,
    member_id bigint NOT NULL,
    name text NOT NULL,
    type text NOT NULL,
    amount bigint NOT NULL,
    wallet_id bigint,
    category_id bigint,
    day integer NOT NULL,
    memo text DEFAULT ''::text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    version bigint DEFAULT 1 NOT NULL,
    auto_post boolean DEFAULT true NOT NULL,
    last_posted_on date,
    next_month date DEFAULT ((date_trunc('month'::text, (CURRENT_DATE)::timestamp with time zone) + '1 mon'::interval))::date NOT NULL,
    CONSTRAINT recurring_type_check CHECK ((type = ANY (ARRAY['income'::text, 'expense'::text])))
);

--
-- Name: recurring_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.recurring ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.recurring_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: recurring_post; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.recurring_post (
    recurring_id bigint NOT NULL,
    month date NOT NULL,
    occurs_on date NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: report; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.report (
    id bigint NOT NULL,
    member_id bigint NOT NULL,
    post_id bigint,
    comment_id bigint,
    created_at timestamp with time zone NOT NULL,
    CONSTRAINT report_check CHECK ((num_nonnulls(post_id, comment_id) = 1))
);

--
-- Name: report_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.report ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.report_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: signup_attempt; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.signup_attempt (
    id bigint NOT NULL,
    address text NOT NULL,
    attempted_at timestamp with time zone NOT NULL
);

--
-- Name: signup_attempt_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.signup_attempt ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.signup_attempt_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: stock; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.stock (
    id bigint NOT NULL,
    member_id bigint NOT NULL,
    code text NOT NULL,
    name text NOT NULL,
    market text,
    currency text DEFAULT 'KRW'::text NOT NULL,
    wallet_id bigint,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    version bigint DEFAULT 1 NOT NULL
);

--
-- Name: stock_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.stock ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.stock_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: stock_quote; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.stock_quote (
    code text NOT NULL,
    quote_day date NOT NULL,
    price numeric NOT NULL,
    currency text NOT NULL,
    quoted_at timestamp with time zone NOT NULL
);

--
-- Name: tag_group; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.tag_group (
    id bigint NOT NULL,
    name text NOT NULL,
    tags text[] DEFAULT '{}'::text[] NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: tag_group_board; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.tag_group_board (
    tag_group_id bigint NOT NULL,
    board text NOT NULL,
    CONSTRAINT tag_group_board_board_check CHECK ((board = ANY (ARRAY['community'::text, 'saving'::text, 'tips'::text])))
);

--
-- Name: tag_group_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.tag_group ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.tag_group_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: transfer; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.transfer (
    id bigint NOT NULL,
    member_id bigint NOT NULL,
    transfer_date date NOT NULL,
    amount bigint NOT NULL,
    memo text DEFAULT ''::text NOT NULL,
    fee_entry_id bigint,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    version bigint DEFAULT 1 NOT NULL,
    created_by bigint,
    paid_by bigint,
    CONSTRAINT transfer_amount_check CHECK ((amount >= 0))
);

--
-- Name: transfer_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.transfer ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.transfer_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: wallet; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.wallet (
    id bigint NOT NULL,
    member_id bigint NOT NULL,
    name text NOT NULL,
    type text NOT NULL,
    opening_balance bigint DEFAULT 0 NOT NULL,
    account_number character varying(255),
    loan_amount bigint,
    loan_rate numeric,
    loan_method text,
    loan_months integer,
    loan_start date,
    loan_payment bigint,
    manual_valuation boolean DEFAULT false NOT NULL,
    current_value bigint,
    statement_day integer,
    payment_day integer,
    payment_wallet_id bigint,
    sort_order integer NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    version bigint DEFAULT 1 NOT NULL,
    CONSTRAINT wallet_card_cycle_check CHECK ((((statement_day IS NULL) = (payment_day IS NULL)) AND ((statement_day IS NULL) = (payment_wallet_id IS NULL)) AND ((statement_day IS NULL) OR (type = 'CARD'::text)) AND (payment_wallet_id IS DISTINCT FROM id))),
    CONSTRAINT wallet_payment_day_check CHECK (((payment_day >= 1) AND (payment_day <= 31))),
    CONSTRAINT wallet_statement_day_check CHECK (((statement_day >= 1) AND (statement_day <= 31)))
);

--
-- Name: wallet_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.wallet ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.wallet_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: wallet_net; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.wallet_net (
    member_id bigint NOT NULL,
    wallet_id bigint NOT NULL,
    period text NOT NULL,
    start date NOT NULL,
    net numeric NOT NULL,
    gross numeric DEFAULT 0 NOT NULL,
    CONSTRAINT wallet_net_period_check CHECK ((period = ANY (ARRAY['total'::text, 'month'::text, 'week'::text])))
);

--
-- Name: wallet_net_delta; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.wallet_net_delta (
    member_id bigint NOT NULL,
    wallet_id bigint NOT NULL,
    day date NOT NULL,
    net numeric NOT NULL,
    gross numeric DEFAULT 0 NOT NULL
)
WITH (autovacuum_vacuum_scale_factor='0', autovacuum_vacuum_threshold='1000');

--
-- Name: account_category account_category_member_id_id_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.account_category
    ADD CONSTRAINT account_category_member_id_id_key UNIQUE (member_id, id);

--
-- Name: account_category account_category_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.account_category
    ADD CONSTRAINT account_category_pkey PRIMARY KEY (id);

--
-- Name: account_entry_import account_entry_import_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.account_entry_import
    ADD CONSTRAINT account_entry_import_pkey PRIMARY KEY (member_id, row_hash);

--
-- Name: account_entry account_entry_member_id_id_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.account_entry
    ADD CONSTRAINT account_entry_member_id_id_key UNIQUE (member_id, id);

--
-- Name: account_entry account_entry_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.account_entry
    ADD CONSTRAINT account_entry_pkey PRIMARY KEY (id);

--
-- Name: account_entry_tag account_entry_tag_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.account_entry_tag
    ADD CONSTRAINT account_entry_tag_pkey PRIMARY KEY (entry_id, tag_id);

--
-- Name: account_tag account_tag_member_id_id_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.account_tag
    ADD CONSTRAINT account_tag_member_id_id_key UNIQUE (member_id, id);

--
-- Name: account_tag account_tag_member_name_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.account_tag
    ADD CONSTRAINT account_tag_member_name_key UNIQUE (member_id, name);

--
-- Name: account_tag account_tag_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.account_tag
    ADD CONSTRAINT account_tag_pkey PRIMARY KEY (id);

--
-- Name: app_setting app_setting_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.app_setting
    ADD CONSTRAINT app_setting_pkey PRIMARY KEY (key);

--
-- Name: auth_failure auth_failure_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.auth_failure
    ADD CONSTRAINT auth_failure_pkey PRIMARY KEY (id);

--
-- Name: auth_session auth_session_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.auth_session
    ADD CONSTRAINT auth_session_pkey PRIMARY KEY (token_hash);

--
-- Name: board_image board_image_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.board_image
    ADD CONSTRAINT board_image_pkey PRIMARY KEY (id);

--
-- Name: book_invitation book_invitation_code_hash_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.book_invitation
    ADD CONSTRAINT book_invitation_code_hash_key UNIQUE (code_hash);

--
-- Name: book_invitation book_invitation_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.book_invitation
    ADD CONSTRAINT book_invitation_pkey PRIMARY KEY (id);

--
-- Name: book book_ledger_member_id_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.book
    ADD CONSTRAINT book_ledger_member_id_key UNIQUE (ledger_member_id);

--
-- Name: book_member book_member_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.book_member
    ADD CONSTRAINT book_member_pkey PRIMARY KEY (book_id, member_id);

--
-- Name: book book_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.book
    ADD CONSTRAINT book_pkey PRIMARY KEY (id);

--
-- Name: book_settlement book_settlement_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.book_settlement
    ADD CONSTRAINT book_settlement_pkey PRIMARY KEY (book_id, year, month);

--
-- Name: budget_income budget_income_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.budget_income
    ADD CONSTRAINT budget_income_pkey PRIMARY KEY (member_id, year, month);

--
-- Name: budget budget_member_month_category_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.budget
    ADD CONSTRAINT budget_member_month_category_key UNIQUE (member_id, year, month, category_id);

--
-- Name: budget_onetime budget_onetime_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.budget_onetime
    ADD CONSTRAINT budget_onetime_pkey PRIMARY KEY (id);

--
-- Name: budget budget_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.budget
    ADD CONSTRAINT budget_pkey PRIMARY KEY (id);

--
-- Name: card_bill_payment card_bill_payment_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.card_bill_payment
    ADD CONSTRAINT card_bill_payment_pkey PRIMARY KEY (member_id, wallet_id, closing_date);

--
-- Name: card_checkpoint card_checkpoint_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.card_checkpoint
    ADD CONSTRAINT card_checkpoint_pkey PRIMARY KEY (member_id, wallet_id);

--
-- Name: card_cycle_past card_cycle_past_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.card_cycle_past
    ADD CONSTRAINT card_cycle_past_pkey PRIMARY KEY (member_id, wallet_id, until_date);

--
-- Name: comment comment_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.comment
    ADD CONSTRAINT comment_pkey PRIMARY KEY (id);

--
-- Name: comment_vote comment_vote_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.comment_vote
    ADD CONSTRAINT comment_vote_pkey PRIMARY KEY (comment_id, member_id);

--
-- Name: default_category default_category_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.default_category
    ADD CONSTRAINT default_category_pkey PRIMARY KEY (id);

--
-- Name: fx_lookup fx_lookup_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.fx_lookup
    ADD CONSTRAINT fx_lookup_pkey PRIMARY KEY (from_currency, to_currency, day);

--
-- Name: fx_rate fx_rate_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.fx_rate
    ADD CONSTRAINT fx_rate_pkey PRIMARY KEY (from_currency, to_currency, day);

--
-- Name: heavy_work heavy_work_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.heavy_work
    ADD CONSTRAINT heavy_work_pkey PRIMARY KEY (member_id);

--
-- Name: iap_purchase iap_purchase_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.iap_purchase
    ADD CONSTRAINT iap_purchase_pkey PRIMARY KEY (id);

--
-- Name: iap_purchase iap_purchase_purchase_token_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.iap_purchase
    ADD CONSTRAINT iap_purchase_purchase_token_key UNIQUE (purchase_token);

--
-- Name: idempotency_key idempotency_key_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.idempotency_key
    ADD CONSTRAINT idempotency_key_pkey PRIMARY KEY (member_id, book_id, key);

--
-- Name: image_upload_day image_upload_day_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.image_upload_day
    ADD CONSTRAINT image_upload_day_pkey PRIMARY KEY (member_id, day);

--
-- Name: invest_trade invest_trade_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.invest_trade
    ADD CONSTRAINT invest_trade_pkey PRIMARY KEY (id);

--
-- Name: job_run job_run_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.job_run
    ADD CONSTRAINT job_run_pkey PRIMARY KEY (name);

--
-- Name: ledger_change_epoch ledger_change_epoch_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ledger_change_epoch
    ADD CONSTRAINT ledger_change_epoch_pkey PRIMARY KEY (member_id);

--
-- Name: ledger_change ledger_change_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ledger_change
    ADD CONSTRAINT ledger_change_pkey PRIMARY KEY (member_id, kind, record_id);

--
-- Name: member member_idp_a_id_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.member
    ADD CONSTRAINT member_idp_a_id_key UNIQUE (idp_a_id);

--
-- Name: member member_idp_b_id_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.member
    ADD CONSTRAINT member_idp_b_id_key UNIQUE (idp_b_id);

--
-- Name: member member_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.member
    ADD CONSTRAINT member_pkey PRIMARY KEY (id);

--
-- Name: notification_key notification_key_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.notification_key
    ADD CONSTRAINT notification_key_pkey PRIMARY KEY (member_id, notif_key);

--
-- Name: outside_call_count outside_call_count_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.outside_call_count
    ADD CONSTRAINT outside_call_count_pkey PRIMARY KEY (member_id, kind, day);

--
-- Name: point_history point_history_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.point_history
    ADD CONSTRAINT point_history_pkey PRIMARY KEY (id);

--
-- Name: post_image post_image_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.post_image
    ADD CONSTRAINT post_image_pkey PRIMARY KEY (post_id, image_id);

--
-- Name: post post_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.post
    ADD CONSTRAINT post_pkey PRIMARY KEY (id);

--
-- Name: post_total post_total_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.post_total
    ADD CONSTRAINT post_total_pkey PRIMARY KEY (category);

--
-- Name: post_vote post_vote_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.post_vote
    ADD CONSTRAINT post_vote_pkey PRIMARY KEY (post_id, member_id);

--
-- Name: quick_entry quick_entry_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.quick_entry
    ADD CONSTRAINT quick_entry_pkey PRIMARY KEY (id);

--
-- Name: recurring recurring_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.recurring
    ADD CONSTRAINT recurring_pkey PRIMARY KEY (id);

--
-- Name: recurring_post recurring_post_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.recurring_post
    ADD CONSTRAINT recurring_post_pkey PRIMARY KEY (recurring_id, month);

--
-- Name: report report_comment_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.report
    ADD CONSTRAINT report_comment_key UNIQUE (member_id, comment_id);

--
-- Name: report report_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.report
    ADD CONSTRAINT report_pkey PRIMARY KEY (id);

--
-- Name: report report_post_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.report
    ADD CONSTRAINT report_post_key UNIQUE (member_id, post_id);

--
-- Name: signup_attempt signup_attempt_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.signup_attempt
    ADD CONSTRAINT signup_attempt_pkey PRIMARY KEY (id);

--
-- Name: stock stock_member_id_id_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.stock
    ADD CONSTRAINT stock_member_id_id_key UNIQUE (member_id, id);

--
-- Name: stock stock_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.stock
    ADD CONSTRAINT stock_pkey PRIMARY KEY (id);

--
-- Name: stock_quote stock_quote_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.stock_quote
    ADD CONSTRAINT stock_quote_pkey PRIMARY KEY (code, quote_day);

--
-- Name: tag_group_board tag_group_board_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.tag_group_board
    ADD CONSTRAINT tag_group_board_pkey PRIMARY KEY (tag_group_id, board);

--
-- Name: tag_group tag_group_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.tag_group
    ADD CONSTRAINT tag_group_pkey PRIMARY KEY (id);

--
-- Name: transfer transfer_member_id_id_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.transfer
    ADD CONSTRAINT transfer_member_id_id_key UNIQUE (member_id, id);

--
-- Name: transfer transfer_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.transfer
    ADD CONSTRAINT transfer_pkey PRIMARY KEY (id);

--
-- Name: wallet wallet_member_id_id_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.wallet
    ADD CONSTRAINT wallet_member_id_id_key UNIQUE (member_id, id);

--
-- Name: wallet_net wallet_net_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.wallet_net
    ADD CONSTRAINT wallet_net_pkey PRIMARY KEY (member_id, period, start, wallet_id);

--
-- Name: wallet wallet_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.wallet
    ADD CONSTRAINT wallet_pkey PRIMARY KEY (id);

--
-- Name: account_category_parent_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX account_category_parent_idx ON public.account_category USING btree (member_id, parent_id);

--
-- Name: account_entry_category_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX account_entry_category_idx ON public.account_entry USING btree (member_id, category_id);

--
-- Name: account_entry_import_entry_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX account_entry_import_entry_idx ON public.account_entry_import USING btree (entry_id);

--
-- Name: account_entry_member_date_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX account_entry_member_date_idx ON public.account_entry USING btree (member_id, entry_date DESC, created_at DESC, id DESC);

--
-- Name: account_entry_notif_key_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX account_entry_notif_key_idx ON public.account_entry USING btree (member_id, notif_key) WHERE (notif_key IS NOT NULL);

--
-- Name: account_entry_pending_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX account_entry_pending_idx ON public.account_entry USING btree (member_id) WHERE pending;

--
-- Name: account_entry_tag_tag_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX account_entry_tag_tag_idx ON public.account_entry_tag USING btree (tag_id);

--
-- Name: account_entry_transfer_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX account_entry_transfer_idx ON public.account_entry USING btree (transfer_id) WHERE (transfer_id IS NOT NULL);

--
-- Name: account_entry_wallet_date_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX account_entry_wallet_date_idx ON public.account_entry USING btree (member_id, wallet_id, entry_date);

--
-- Name: account_entry_walletless_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX account_entry_walletless_idx ON public.account_entry USING btree (member_id) WHERE ((wallet_id IS NULL) AND (NOT pending));

--
-- Name: auth_failure_key_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX auth_failure_key_idx ON public.auth_failure USING btree (key, failed_at);

--
-- Name: auth_session_expiry_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX auth_session_expiry_idx ON public.auth_session USING btree (expires_at);

--
-- Name: auth_session_member_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX auth_session_member_idx ON public.auth_session USING btree (member_id);

--
-- Name: board_image_created_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX board_image_created_idx ON public.board_image USING btree (created_at);

--
-- Name: board_image_member_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX board_image_member_idx ON public.board_image USING btree (member_id);

--
-- Name: board_image_unstripped_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX board_image_unstripped_idx ON public.board_image USING btree (id) WHERE (NOT meta_stripped);

--
-- Name: book_invitation_book_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX book_invitation_book_idx ON public.book_invitation USING btree (book_id);

--
-- Name: book_member_member_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX book_member_member_idx ON public.book_member USING btree (member_id) WHERE (left_at IS NULL);

--
-- Name: budget_category_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX budget_category_idx ON public.budget USING btree (member_id, category_id);

--
-- Name: budget_onetime_category_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX budget_onetime_category_idx ON public.budget_onetime USING btree (member_id, category_id);

--
-- Name: budget_onetime_member_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX budget_onetime_member_idx ON public.budget_onetime USING btree (member_id, start_date);

--
-- Name: card_bill_payment_transfer_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX card_bill_payment_transfer_idx ON public.card_bill_payment USING btree (member_id, transfer_id) WHERE (transfer_id IS NOT NULL);

--
-- Name: comment_member_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX comment_member_idx ON public.comment USING btree (member_id, created_at DESC, id DESC);

--
-- Name: comment_post_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX comment_post_idx ON public.comment USING btree (post_id, created_at, id);

--
-- Name: comment_reported_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX comment_reported_idx ON public.comment USING btree (report_count DESC, id DESC) WHERE ((report_count > 0) OR (block_reason IS NOT NULL));

--
-- Name: comment_vote_member_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX comment_vote_member_idx ON public.comment_vote USING btree (member_id);

--
-- Name: default_category_parent_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX default_category_parent_idx ON public.default_category USING btree (parent_id);

--
-- Name: iap_purchase_member_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX iap_purchase_member_idx ON public.iap_purchase USING btree (member_id, expires_at DESC, id DESC);

--
-- Name: idempotency_key_created_at_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX idempotency_key_created_at_idx ON public.idempotency_key USING brin (created_at);

--
-- Name: invest_trade_member_date_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX invest_trade_member_date_idx ON public.invest_trade USING btree (member_id, trade_date DESC, id DESC);

--
-- Name: invest_trade_stock_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX invest_trade_stock_idx ON public.invest_trade USING btree (member_id, stock_id, trade_date, id);

--
-- Name: ledger_change_feed_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ledger_change_feed_idx ON public.ledger_change USING btree (member_id, seq);

--
-- Name: ledger_change_pending_member_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ledger_change_pending_member_idx ON public.ledger_change_pending USING btree (member_id);

--
-- Name: ledger_change_tombstone_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ledger_change_tombstone_idx ON public.ledger_change USING btree (changed_at) WHERE deleted;

--
-- Name: member_email_key; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX member_email_key ON public.member USING btree (lower(email)) WHERE (email IS NOT NULL);

--
-- Name: member_plan_expiry_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX member_plan_expiry_idx ON public.member USING btree (plan_expires_at) WHERE ((plan = 'PREMIUM'::text) AND (plan_expires_at IS NOT NULL));

--
-- Name: member_profile_image_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX member_profile_image_idx ON public.member USING btree (profile_image_id) WHERE (profile_image_id IS NOT NULL);

--
-- Name: outside_call_count_day; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX outside_call_count_day ON public.outside_call_count USING btree (day);

--
-- Name: point_history_member_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX point_history_member_idx ON public.point_history USING btree (member_id, created_at DESC, id DESC);

--
-- Name: post_hot_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX post_hot_idx ON public.post USING btree (created_at DESC) WHERE (hot_votes AND (NOT notice) AND (block_reason IS NULL));

--
-- Name: post_image_image_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX post_image_image_idx ON public.post_image USING btree (image_id);

--
-- Name: post_list_all_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX post_list_all_idx ON public.post USING btree (created_at DESC, id DESC) WHERE (block_reason IS NULL);

--
-- Name: post_list_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX post_list_idx ON public.post USING btree (category, created_at DESC, id DESC) WHERE (block_reason IS NULL);

--
-- Name: post_member_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX post_member_idx ON public.post USING btree (member_id, created_at DESC, id DESC);

--
-- Name: post_notice_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX post_notice_idx ON public.post USING btree (created_at DESC) WHERE (notice AND (block_reason IS NULL));

--
-- Name: post_reported_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX post_reported_idx ON public.post USING btree (report_count DESC, id DESC) WHERE ((report_count > 0) OR (block_reason IS NOT NULL));

--
-- Name: post_tags_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX post_tags_idx ON public.post USING gin (tags);

--
-- Name: post_vote_member_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX post_vote_member_idx ON public.post_vote USING btree (member_id);

--
-- Name: post_vote_up_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX post_vote_up_idx ON public.post_vote USING btree (post_id, created_at DESC) WHERE (direction = 'UP'::text);

--
-- Name: quick_entry_member_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX quick_entry_member_idx ON public.quick_entry USING btree (member_id);

--
-- Name: recurring_due_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX recurring_due_idx ON public.recurring USING btree (next_month, id) WHERE auto_post;

--
-- Name: recurring_member_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX recurring_member_idx ON public.recurring USING btree (member_id);

--
-- Name: report_comment_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX report_comment_idx ON public.report USING btree (comment_id) WHERE (comment_id IS NOT NULL);

--
-- Name: report_post_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX report_post_idx ON public.report USING btree (post_id) WHERE (post_id IS NOT NULL);

--
-- Name: signup_attempt_address_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX signup_attempt_address_idx ON public.signup_attempt USING btree (address, attempted_at);

--
-- Name: stock_member_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX stock_member_idx ON public.stock USING btree (member_id, id);

--
-- Name: stock_wallet_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX stock_wallet_idx ON public.stock USING btree (member_id, wallet_id);

--
-- Name: transfer_fee_entry_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX transfer_fee_entry_idx ON public.transfer USING btree (fee_entry_id) WHERE (fee_entry_id IS NOT NULL);

--
-- Name: transfer_member_date_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX transfer_member_date_idx ON public.transfer USING btree (member_id, transfer_date DESC, id DESC);

--
-- Name: wallet_cycle_card_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX wallet_cycle_card_idx ON public.wallet USING btree (member_id) WHERE (statement_day IS NOT NULL);

--
-- Name: wallet_member_type_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX wallet_member_type_idx ON public.wallet USING btree (member_id, type);

--
-- Name: wallet_net_delta_member_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX wallet_net_delta_member_idx ON public.wallet_net_delta USING btree (member_id, wallet_id);

--
-- Name: wallet_net_wallet_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX wallet_net_wallet_idx ON public.wallet_net USING btree (wallet_id);

--
-- Name: wallet_payment_wallet_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX wallet_payment_wallet_idx ON public.wallet USING btree (member_id, payment_wallet_id) WHERE (payment_wallet_id IS NOT NULL);

--
-- Name: account_category account_category_version; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER account_category_version BEFORE UPDATE ON public.account_category FOR EACH ROW EXECUTE FUNCTION public.record_version();

--
-- Name: account_entry_tag account_entry_tag_version_delete; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER account_entry_tag_version_delete AFTER DELETE ON public.account_entry_tag REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION public.entry_tags_version();

--
-- Name: account_entry_tag account_entry_tag_version_insert; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER account_entry_tag_version_insert AFTER INSERT ON public.account_entry_tag REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.entry_tags_version();

--
-- Name: account_entry account_entry_version; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER account_entry_version BEFORE UPDATE ON public.account_entry FOR EACH ROW EXECUTE FUNCTION public.record_version();

--
-- Name: account_entry account_entry_wallet_net_delete; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER account_entry_wallet_net_delete AFTER DELETE ON public.account_entry REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION public.wallet_net_entries();

--
-- Name: account_entry account_entry_wallet_net_insert; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER account_entry_wallet_net_insert AFTER INSERT ON public.account_entry REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.wallet_net_entries();

--
-- Name: account_entry account_entry_wallet_net_update; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER account_entry_wallet_net_update AFTER UPDATE ON public.account_entry REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.wallet_net_entries();

--
-- Name: account_tag account_tag_version; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER account_tag_version BEFORE UPDATE ON public.account_tag FOR EACH ROW EXECUTE FUNCTION public.record_version();

--
-- Name: member book_attribution_renamed; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER book_attribution_renamed AFTER UPDATE OF name ON public.member FOR EACH ROW WHEN (((old.name IS DISTINCT FROM new.name) AND (new.kind = 'PERSON'::text))) EXECUTE FUNCTION public.book_attribution_renamed();

--
-- Name: book_member book_attribution_roster; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER book_attribution_roster AFTER INSERT OR DELETE OR UPDATE OF role, left_at ON public.book_member FOR EACH ROW EXECUTE FUNCTION public.book_attribution_roster();

--
-- Name: budget_onetime budget_onetime_version; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER budget_onetime_version BEFORE UPDATE ON public.budget_onetime FOR EACH ROW EXECUTE FUNCTION public.record_version();

--
-- Name: budget budget_version; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER budget_version BEFORE UPDATE ON public.budget FOR EACH ROW EXECUTE FUNCTION public.record_version();

--
-- Name: comment comment_count; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER comment_count AFTER INSERT OR DELETE ON public.comment FOR EACH ROW EXECUTE FUNCTION public.comment_count();

--
-- Name: comment comment_version; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER comment_version BEFORE UPDATE ON public.comment FOR EACH ROW EXECUTE FUNCTION public.record_version();

--
-- Name: comment_vote comment_vote_count; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER comment_vote_count AFTER INSERT OR DELETE OR UPDATE OF direction ON public.comment_vote FOR EACH ROW EXECUTE FUNCTION public.comment_vote_count();

--
-- Name: invest_trade invest_trade_version; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER invest_trade_version BEFORE UPDATE ON public.invest_trade FOR EACH ROW EXECUTE FUNCTION public.record_version();

--
-- Name: account_category ledger_change_del; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER ledger_change_del AFTER DELETE ON public.account_category REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION public.ledger_change_category();

--
-- Name: account_entry ledger_change_del; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER ledger_change_del AFTER DELETE ON public.account_entry REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION public.ledger_change_entry();

--
-- Name: account_entry_tag ledger_change_del; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER ledger_change_del AFTER DELETE ON public.account_entry_tag REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION public.ledger_change_entry_tag();

--
-- Name: account_tag ledger_change_del; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER ledger_change_del AFTER DELETE ON public.account_tag REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION public.ledger_change_tag();

--
-- Name: budget ledger_change_del; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER ledger_change_del AFTER DELETE ON public.budget REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION public.ledger_change_plain('BUDGET');

--
-- Name: budget_income ledger_change_del; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER ledger_change_del AFTER DELETE ON public.budget_income REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION public.ledger_change_budget_income();

--
-- Name: budget_onetime ledger_change_del; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER ledger_change_del AFTER DELETE ON public.budget_onetime REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION public.ledger_change_plain('ONETIME_BUDGET');

--
-- Name: invest_trade ledger_change_del; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER ledger_change_del AFTER DELETE ON public.invest_trade REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION public.ledger_change_plain('TRADE');

--
-- Name: quick_entry ledger_change_del; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER ledger_change_del AFTER DELETE ON public.quick_entry REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION public.ledger_change_plain('QUICK_ENTRY');

--
-- Name: recurring ledger_change_del; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER ledger_change_del AFTER DELETE ON public.recurring REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION public.ledger_change_plain('RECURRING');

--
-- Name: stock ledger_change_del; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER ledger_change_del AFTER DELETE ON public.stock REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION public.ledger_change_plain('STOCK');

--
-- Name: transfer ledger_change_del; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER ledger_change_del AFTER DELETE ON public.transfer REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION public.ledger_change_plain('TRANSFER');

--
-- Name: wallet ledger_change_del; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER ledger_change_del AFTER DELETE ON public.wallet REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION public.ledger_change_plain('WALLET');

--
-- Name: member ledger_change_forget; Type: TRIGGER; Schema: public; Owner: -
--

CREATE CONSTRAINT TRIGGER ledger_change_forget AFTER DELETE ON public.member DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION public.ledger_change_forget();

--
-- Name: account_category ledger_change_ins; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER ledger_change_ins AFTER INSERT ON public.account_category REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.ledger_change_category();

--
-- Name: account_entry ledger_change_ins; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER ledger_change_ins AFTER INSERT ON public.account_entry REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.ledger_change_entry();

--
-- Name: account_entry_tag ledger_change_ins; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER ledger_change_ins AFTER INSERT ON public.account_entry_tag REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.ledger_change_entry_tag();

--
-- Name: account_tag ledger_change_ins; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER ledger_change_ins AFTER INSERT ON public.account_tag REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.ledger_change_tag();

--
-- Name: budget ledger_change_ins; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER ledger_change_ins AFTER INSERT ON public.budget REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.ledger_change_plain('BUDGET');

--
-- Name: budget_income ledger_change_ins; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER ledger_change_ins AFTER INSERT ON public.budget_income REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.ledger_change_budget_income();

--
-- Name: budget_onetime ledger_change_ins; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER ledger_change_ins AFTER INSERT ON public.budget_onetime REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.ledger_change_plain('ONETIME_BUDGET');

--
-- Name: invest_trade ledger_change_ins; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER ledger_change_ins AFTER INSERT ON public.invest_trade REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.ledger_change_plain('TRADE');

--
-- Name: member ledger_change_ins; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER ledger_change_ins AFTER INSERT ON public.member FOR EACH ROW EXECUTE FUNCTION public.ledger_change_member();

--
-- Name: quick_entry ledger_change_ins; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER ledger_change_ins AFTER INSERT ON public.quick_entry REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.ledger_change_plain('QUICK_ENTRY');

--
-- Name: recurring ledger_change_ins; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER ledger_change_ins AFTER INSERT ON public.recurring REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.ledger_change_plain('RECURRING');

--
-- Name: stock ledger_change_ins; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER ledger_change_ins AFTER INSERT ON public.stock REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.ledger_change_plain('STOCK');

--
-- Name: transfer ledger_change_ins; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER ledger_change_ins AFTER INSERT ON public.transfer REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.ledger_change_plain('TRANSFER');

--
-- Name: wallet ledger_change_ins; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER ledger_change_ins AFTER INSERT ON public.wallet REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.ledger_change_plain('WALLET');

--
-- Name: account_category ledger_change_upd; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER ledger_change_upd AFTER UPDATE ON public.account_category REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.ledger_change_category();

--
-- Name: account_entry ledger_change_upd; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER ledger_change_upd AFTER UPDATE ON public.account_entry REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.ledger_change_entry();

--
-- Name: account_tag ledger_change_upd; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER ledger_change_upd AFTER UPDATE ON public.account_tag REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.ledger_change_tag();

--
-- Name: budget ledger_change_upd; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER ledger_change_upd AFTER UPDATE ON public.budget REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.ledger_change_plain('BUDGET');

--
-- Name: budget_income ledger_change_upd; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER ledger_change_upd AFTER UPDATE ON public.budget_income REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.ledger_change_budget_income();

--
-- Name: budget_onetime ledger_change_upd; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER ledger_change_upd AFTER UPDATE ON public.budget_onetime REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.ledger_change_plain('ONETIME_BUDGET');

--
-- Name: invest_trade ledger_change_upd; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER ledger_change_upd AFTER UPDATE ON public.invest_trade REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.ledger_change_plain('TRADE');

--
-- Name: member ledger_change_upd; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER ledger_change_upd AFTER UPDATE OF month_start_day ON public.member FOR EACH ROW WHEN ((old.month_start_day IS DISTINCT FROM new.month_start_day)) EXECUTE FUNCTION public.ledger_change_member();

--
-- Name: quick_entry ledger_change_upd; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER ledger_change_upd AFTER UPDATE ON public.quick_entry REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.ledger_change_plain('QUICK_ENTRY');

--
-- Name: recurring ledger_change_upd; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER ledger_change_upd AFTER UPDATE ON public.recurring REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.ledger_change_plain('RECURRING');

--
-- Name: stock ledger_change_upd; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER ledger_change_upd AFTER UPDATE ON public.stock REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.ledger_change_plain('STOCK');

--
-- Name: transfer ledger_change_upd; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER ledger_change_upd AFTER UPDATE ON public.transfer REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.ledger_change_plain('TRANSFER');

--
-- Name: wallet ledger_change_upd; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER ledger_change_upd AFTER UPDATE ON public.wallet REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.ledger_change_plain('WALLET');

--
-- Name: member member_version; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER member_version BEFORE UPDATE ON public.member FOR EACH ROW EXECUTE FUNCTION public.record_version();

--
-- Name: post post_total_delete; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER post_total_delete AFTER DELETE ON public.post REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION public.post_total_count();

--
-- Name: post post_total_insert; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER post_total_insert AFTER INSERT ON public.post REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.post_total_count();

--
-- Name: post post_total_update; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER post_total_update AFTER UPDATE ON public.post REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.post_total_count();

--
-- Name: post post_version; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER post_version BEFORE UPDATE ON public.post FOR EACH ROW EXECUTE FUNCTION public.record_version();

--
-- Name: post_vote post_vote_count; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER post_vote_count AFTER INSERT OR DELETE OR UPDATE OF direction ON public.post_vote FOR EACH ROW EXECUTE FUNCTION public.post_vote_count();

--
-- Name: quick_entry quick_entry_version; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER quick_entry_version BEFORE UPDATE ON public.quick_entry FOR EACH ROW EXECUTE FUNCTION public.record_version();

--
-- Name: recurring recurring_version; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER recurring_version BEFORE UPDATE ON public.recurring FOR EACH ROW EXECUTE FUNCTION public.record_version();

--
-- Name: report report_count; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER report_count AFTER INSERT OR DELETE ON public.report FOR EACH ROW EXECUTE FUNCTION public.report_count();

--
-- Name: stock stock_version; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER stock_version BEFORE UPDATE ON public.stock FOR EACH ROW EXECUTE FUNCTION public.record_version();

--
-- Name: transfer transfer_version; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER transfer_version BEFORE UPDATE ON public.transfer FOR EACH ROW EXECUTE FUNCTION public.record_version();

--
-- Name: wallet wallet_version; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER wallet_version BEFORE UPDATE ON public.wallet FOR EACH ROW EXECUTE FUNCTION public.record_version();

--
-- Name: account_category account_category_member_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.account_category
    ADD CONSTRAINT account_category_member_id_fkey FOREIGN KEY (member_id) REFERENCES public.member(id) ON DELETE CASCADE;

--
-- Name: account_category account_category_member_id_parent_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.account_category
    ADD CONSTRAINT account_category_member_id_parent_id_fkey FOREIGN KEY (member_id, parent_id) REFERENCES public.account_category(member_id, id);

--
-- Name: account_entry_import account_entry_import_member_id_entry_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.account_entry_import
    ADD CONSTRAINT account_entry_import_member_id_entry_id_fkey FOREIGN KEY (member_id, entry_id) REFERENCES public.account_entry(member_id, id) ON DELETE CASCADE;

--
-- Name: account_entry account_entry_member_id_category_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.account_entry
    ADD CONSTRAINT account_entry_member_id_category_id_fkey FOREIGN KEY (member_id, category_id) REFERENCES public.account_category(member_id, id);

--
-- Name: account_entry account_entry_member_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.account_entry
    ADD CONSTRAINT account_entry_member_id_fkey FOREIGN KEY (member_id) REFERENCES public.member(id) ON DELETE CASCADE;

--
-- Name: account_entry account_entry_member_id_wallet_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.account_entry
    ADD CONSTRAINT account_entry_member_id_wallet_id_fkey FOREIGN KEY (member_id, wallet_id) REFERENCES public.wallet(member_id, id);

--
-- Name: account_entry_tag account_entry_tag_entry_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.account_entry_tag
    ADD CONSTRAINT account_entry_tag_entry_id_fkey FOREIGN KEY (entry_id) REFERENCES public.account_entry(id) ON DELETE CASCADE;

--
-- Name: account_entry_tag account_entry_tag_tag_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.account_entry_tag
    ADD CONSTRAINT account_entry_tag_tag_id_fkey FOREIGN KEY (tag_id) REFERENCES public.account_tag(id) ON DELETE CASCADE;

--
-- Name: account_entry account_entry_transfer_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.account_entry
    ADD CONSTRAINT account_entry_transfer_fkey FOREIGN KEY (member_id, transfer_id) REFERENCES public.transfer(member_id, id) ON DELETE CASCADE;

--
-- Name: account_tag account_tag_member_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.account_tag
    ADD CONSTRAINT account_tag_member_id_fkey FOREIGN KEY (member_id) REFERENCES public.member(id) ON DELETE CASCADE;

--
-- Name: auth_session auth_session_member_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.auth_session
    ADD CONSTRAINT auth_session_member_id_fkey FOREIGN KEY (member_id) REFERENCES public.member(id) ON DELETE CASCADE;

--
-- Name: board_image board_image_member_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.board_image
    ADD CONSTRAINT board_image_member_id_fkey FOREIGN KEY (member_id) REFERENCES public.member(id) ON DELETE CASCADE;

--
-- Name: book_invitation book_invitation_book_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.book_invitation
    ADD CONSTRAINT book_invitation_book_id_fkey FOREIGN KEY (book_id) REFERENCES public.book(id) ON DELETE CASCADE;

--
-- Name: book book_ledger_member_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.book
    ADD CONSTRAINT book_ledger_member_id_fkey FOREIGN KEY (ledger_member_id) REFERENCES public.member(id) ON DELETE CASCADE;

--
-- Name: book_member book_member_book_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.book_member
    ADD CONSTRAINT book_member_book_id_fkey FOREIGN KEY (book_id) REFERENCES public.book(id) ON DELETE CASCADE;

--
-- Name: book_member book_member_member_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.book_member
    ADD CONSTRAINT book_member_member_id_fkey FOREIGN KEY (member_id) REFERENCES public.member(id) ON DELETE CASCADE;

--
-- Name: book_settlement book_settlement_book_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.book_settlement
    ADD CONSTRAINT book_settlement_book_id_fkey FOREIGN KEY (book_id) REFERENCES public.book(id) ON DELETE CASCADE;

--
-- Name: budget_income budget_income_member_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.budget_income
    ADD CONSTRAINT budget_income_member_id_fkey FOREIGN KEY (member_id) REFERENCES public.member(id) ON DELETE CASCADE;

--
-- Name: budget budget_member_id_category_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.budget
    ADD CONSTRAINT budget_member_id_category_id_fkey FOREIGN KEY (member_id, category_id) REFERENCES public.account_category(member_id, id) ON DELETE CASCADE;

--
-- Name: budget budget_member_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.budget
    ADD CONSTRAINT budget_member_id_fkey FOREIGN KEY (member_id) REFERENCES public.member(id) ON DELETE CASCADE;

--
-- Name: budget_onetime budget_onetime_member_id_category_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.budget_onetime
    ADD CONSTRAINT budget_onetime_member_id_category_id_fkey FOREIGN KEY (member_id, category_id) REFERENCES public.account_category(member_id, id) ON DELETE SET NULL (category_id);

--
-- Name: budget_onetime budget_onetime_member_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.budget_onetime
    ADD CONSTRAINT budget_onetime_member_id_fkey FOREIGN KEY (member_id) REFERENCES public.member(id) ON DELETE CASCADE;

--
-- Name: card_bill_payment card_bill_payment_member_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.card_bill_payment
    ADD CONSTRAINT card_bill_payment_member_id_fkey FOREIGN KEY (member_id) REFERENCES public.member(id) ON DELETE CASCADE;

--
-- Name: card_bill_payment card_bill_payment_member_id_transfer_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.card_bill_payment
    ADD CONSTRAINT card_bill_payment_member_id_transfer_id_fkey FOREIGN KEY (member_id, transfer_id) REFERENCES public.transfer(member_id, id) ON DELETE SET NULL (transfer_id);

--
-- Name: card_bill_payment card_bill_payment_member_id_wallet_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.card_bill_payment
    ADD CONSTRAINT card_bill_payment_member_id_wallet_id_fkey FOREIGN KEY (member_id, wallet_id) REFERENCES public.wallet(member_id, id) ON DELETE CASCADE;

--
-- Name: card_checkpoint card_checkpoint_member_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.card_checkpoint
    ADD CONSTRAINT card_checkpoint_member_id_fkey FOREIGN KEY (member_id) REFERENCES public.member(id) ON DELETE CASCADE;

--
-- Name: card_cycle_past card_cycle_past_member_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.card_cycle_past
    ADD CONSTRAINT card_cycle_past_member_id_fkey FOREIGN KEY (member_id) REFERENCES public.member(id) ON DELETE CASCADE;

--
-- Name: card_cycle_past card_cycle_past_member_id_wallet_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.card_cycle_past
    ADD CONSTRAINT card_cycle_past_member_id_wallet_id_fkey FOREIGN KEY (member_id, wallet_id) REFERENCES public.wallet(member_id, id) ON DELETE CASCADE;

--
-- Name: comment comment_member_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.comment
    ADD CONSTRAINT comment_member_id_fkey FOREIGN KEY (member_id) REFERENCES public.member(id) ON DELETE CASCADE;

--
-- Name: comment comment_post_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.comment
    ADD CONSTRAINT comment_post_id_fkey FOREIGN KEY (post_id) REFERENCES public.post(id) ON DELETE CASCADE;

--
-- Name: comment_vote comment_vote_comment_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.comment_vote
    ADD CONSTRAINT comment_vote_comment_id_fkey FOREIGN KEY (comment_id) REFERENCES public.comment(id) ON DELETE CASCADE;

--
-- Name: comment_vote comment_vote_member_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.comment_vote
    ADD CONSTRAINT comment_vote_member_id_fkey FOREIGN KEY (member_id) REFERENCES public.member(id) ON DELETE CASCADE;

--
-- Name: default_category default_category_parent_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.default_category
    ADD CONSTRAINT default_category_parent_id_fkey FOREIGN KEY (parent_id) REFERENCES public.default_category(id);

--
-- Name: iap_purchase iap_purchase_member_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.iap_purchase
    ADD CONSTRAINT iap_purchase_member_id_fkey FOREIGN KEY (member_id) REFERENCES public.member(id) ON DELETE CASCADE;

--
-- Name: image_upload_day image_upload_day_member_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.image_upload_day
    ADD CONSTRAINT image_upload_day_member_id_fkey FOREIGN KEY (member_id) REFERENCES public.member(id) ON DELETE CASCADE;

--
-- Name: invest_trade invest_trade_member_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.invest_trade
    ADD CONSTRAINT invest_trade_member_id_fkey FOREIGN KEY (member_id) REFERENCES public.member(id) ON DELETE CASCADE;

--
-- Name: invest_trade invest_trade_member_id_stock_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.invest_trade
    ADD CONSTRAINT invest_trade_member_id_stock_id_fkey FOREIGN KEY (member_id, stock_id) REFERENCES public.stock(member_id, id) ON DELETE CASCADE;

--
-- Name: ledger_change_epoch ledger_change_epoch_member_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ledger_change_epoch
    ADD CONSTRAINT ledger_change_epoch_member_id_fkey FOREIGN KEY (member_id) REFERENCES public.member(id) ON DELETE CASCADE;

--
-- Name: ledger_change ledger_change_member_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ledger_change
    ADD CONSTRAINT ledger_change_member_id_fkey FOREIGN KEY (member_id) REFERENCES public.member(id) ON DELETE CASCADE;

--
-- Name: member member_profile_image_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.member
    ADD CONSTRAINT member_profile_image_id_fkey FOREIGN KEY (profile_image_id) REFERENCES public.board_image(id) ON DELETE SET NULL;

--
-- Name: notification_key notification_key_member_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.notification_key
    ADD CONSTRAINT notification_key_member_id_fkey FOREIGN KEY (member_id) REFERENCES public.member(id) ON DELETE CASCADE;

--
-- Name: outside_call_count outside_call_count_member_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.outside_call_count
    ADD CONSTRAINT outside_call_count_member_id_fkey FOREIGN KEY (member_id) REFERENCES public.member(id) ON DELETE CASCADE;

--
-- Name: point_history point_history_member_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.point_history
    ADD CONSTRAINT point_history_member_id_fkey FOREIGN KEY (member_id) REFERENCES public.member(id) ON DELETE CASCADE;

--
-- Name: post_image post_image_image_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.post_image
    ADD CONSTRAINT post_image_image_id_fkey FOREIGN KEY (image_id) REFERENCES public.board_image(id) ON DELETE CASCADE;

--
-- Name: post_image post_image_post_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.post_image
    ADD CONSTRAINT post_image_post_id_fkey FOREIGN KEY (post_id) REFERENCES public.post(id) ON DELETE CASCADE;

--
-- Name: post post_member_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.post
    ADD CONSTRAINT post_member_id_fkey FOREIGN KEY (member_id) REFERENCES public.member(id) ON DELETE CASCADE;

--
-- Name: post_vote post_vote_member_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.post_vote
    ADD CONSTRAINT post_vote_member_id_fkey FOREIGN KEY (member_id) REFERENCES public.member(id) ON DELETE CASCADE;

--
-- Name: post_vote post_vote_post_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.post_vote
    ADD CONSTRAINT post_vote_post_id_fkey FOREIGN KEY (post_id) REFERENCES public.post(id) ON DELETE CASCADE;

--
-- Name: quick_entry quick_entry_member_id_category_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.quick_entry
    ADD CONSTRAINT quick_entry_member_id_category_id_fkey FOREIGN KEY (member_id, category_id) REFERENCES public.account_category(member_id, id);

--
-- Name: quick_entry quick_entry_member_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.quick_entry
    ADD CONSTRAINT quick_entry_member_id_fkey FOREIGN KEY (member_id) REFERENCES public.member(id) ON DELETE CASCADE;

--
-- Name: quick_entry quick_entry_member_id_wallet_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.quick_entry
    ADD CONSTRAINT quick_entry_member_id_wallet_id_fkey FOREIGN KEY (member_id, wallet_id) REFERENCES public.wallet(member_id, id);

--
-- Name: recurring recurring_member_id_category_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.recurring
    ADD CONSTRAINT recurring_member_id_category_id_fkey FOREIGN KEY (member_id, category_id) REFERENCES public.account_category(member_id, id);

--
-- Name: recurring recurring_member_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.recurring
    ADD CONSTRAINT recurring_member_id_fkey FOREIGN KEY (member_id) REFERENCES public.member(id) ON DELETE CASCADE;

--
-- Name: recurring recurring_member_id_wallet_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.recurring
    ADD CONSTRAINT recurring_member_id_wallet_id_fkey FOREIGN KEY (member_id, wallet_id) REFERENCES public.wallet(member_id, id);

--
-- Name: recurring_post recurring_post_recurring_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.recurring_post
    ADD CONSTRAINT recurring_post_recurring_id_fkey FOREIGN KEY (recurring_id) REFERENCES public.recurring(id) ON DELETE CASCADE;

--
-- Name: report report_comment_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.report
    ADD CONSTRAINT report_comment_id_fkey FOREIGN KEY (comment_id) REFERENCES public.comment(id) ON DELETE CASCADE;

--
-- Name: report report_member_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.report
    ADD CONSTRAINT report_member_id_fkey FOREIGN KEY (member_id) REFERENCES public.member(id) ON DELETE CASCADE;

--
-- Name: report report_post_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.report
    ADD CONSTRAINT report_post_id_fkey FOREIGN KEY (post_id) REFERENCES public.post(id) ON DELETE CASCADE;

--
-- Name: stock stock_member_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.stock
    ADD CONSTRAINT stock_member_id_fkey FOREIGN KEY (member_id) REFERENCES public.member(id) ON DELETE CASCADE;

--
-- Name: stock stock_member_id_wallet_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.stock
    ADD CONSTRAINT stock_member_id_wallet_id_fkey FOREIGN KEY (member_id, wallet_id) REFERENCES public.wallet(member_id, id) ON DELETE SET NULL (wallet_id);

--
-- Name: tag_group_board tag_group_board_tag_group_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.tag_group_board
    ADD CONSTRAINT tag_group_board_tag_group_id_fkey FOREIGN KEY (tag_group_id) REFERENCES public.tag_group(id) ON DELETE CASCADE;

--
-- Name: transfer transfer_fee_entry_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.transfer
    ADD CONSTRAINT transfer_fee_entry_id_fkey FOREIGN KEY (fee_entry_id) REFERENCES public.account_entry(id) ON DELETE SET NULL;

--
-- Name: transfer transfer_member_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.transfer
    ADD CONSTRAINT transfer_member_id_fkey FOREIGN KEY (member_id) REFERENCES public.member(id) ON DELETE CASCADE;

--
-- Name: wallet wallet_member_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.wallet
    ADD CONSTRAINT wallet_member_id_fkey FOREIGN KEY (member_id) REFERENCES public.member(id) ON DELETE CASCADE;

--
-- Name: wallet_net_delta wallet_net_delta_member_id_wallet_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.wallet_net_delta
    ADD CONSTRAINT wallet_net_delta_member_id_wallet_id_fkey FOREIGN KEY (member_id, wallet_id) REFERENCES public.wallet(member_id, id) ON DELETE CASCADE;

--
-- Name: wallet_net wallet_net_member_id_wallet_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.wallet_net
    ADD CONSTRAINT wallet_net_member_id_wallet_id_fkey FOREIGN KEY (member_id, wallet_id) REFERENCES public.wallet(member_id, id) ON DELETE CASCADE;

--
-- Name: wallet wallet_payment_wallet_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.wallet
    ADD CONSTRAINT wallet_payment_wallet_fkey FOREIGN KEY (member_id, payment_wallet_id) REFERENCES public.wallet(member_id, id);

--
-- PostgreSQL database dump complete
--
