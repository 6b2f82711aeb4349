-- +goose Up
-- Each wallet's balance movement, kept by triggers on
-- account_entry in the same transaction as every write that moves it, so the
-- net-worth trend reads O(points × wallets) rows (and the few deltas below)
-- whatever the length of the member's history. A row is the net (income +, expense −) of the wallet's
-- entries that count in a balance, the same ones the trend has always
-- counted: not pending (an entry awaiting its rate is pending), on a wallet,
-- transfer sides and fees included. Three grains:
--   period 'total', start '-infinity': every such entry, future dates too;
--   period 'month', start the 1st: the entries dated in that calendar month;
--   period 'week',  start the Monday: the entries dated in that week.
-- A wallet's balance at the end of day d is opening balance + total − the
-- months (or weeks) starting after d − the entries after d in d's own month
-- (week), none when d ends it. Rows are not deleted when they fall to 0.
-- gross is the same entries' amounts summed without their sign: the write
-- check (ledger.CheckTotalsTx) needs no month's sum while every wallet's
-- total gross, which bounds any month's income and expense, is far below
-- its limit.
-- The ledger owns the table; only these triggers write it. A wallet's rows go
-- with the wallet (a wallet is deleted only once no entry uses it).
CREATE TABLE wallet_net (
    member_id bigint  NOT NULL,
    wallet_id bigint  NOT NULL,
    period    text    NOT NULL CHECK (period IN ('total', 'month', 'week')),
    start     date    NOT NULL,
    net       numeric NOT NULL,
    gross     numeric NOT NULL DEFAULT 0,
    PRIMARY KEY (member_id, period, start, wallet_id),
    FOREIGN KEY (member_id, wallet_id) REFERENCES wallet (member_id, id) ON DELETE CASCADE
);
-- Serves the cascade of a wallet's deletion.
CREATE INDEX wallet_net_wallet_idx ON wallet_net (wallet_id);

-- Nets per wallet and day not folded into wallet_net yet (below). Readers
-- add them to wallet_net; a member has fewer than wallet_net_fold_at() of
-- them after any write of theirs that found no other folding.
CREATE TABLE wallet_net_delta (
    member_id bigint  NOT NULL,
    wallet_id bigint  NOT NULL,
    day       date    NOT NULL,
    net       numeric NOT NULL,
    gross     numeric NOT NULL DEFAULT 0,
    FOREIGN KEY (member_id, wallet_id) REFERENCES wallet (member_id, id) ON DELETE CASCADE
)
-- A queue: vacuumed after a thousand dead rows, not after a fifth of its
-- size (for a table that is usually small, at once).
WITH (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 1000);
-- One index, each delta one index write: a member's deltas (the fold, the
-- readers' sums) and a wallet's (its deletion's cascade, by its foreign key).
CREATE INDEX wallet_net_delta_member_idx ON wallet_net_delta (member_id, wallet_id);

-- How many deltas a member gathers before a write folds them: a write that
-- finds this many folds them all; fewer, it only appends its own. Readers
-- add at most this many rows (and those of writes in flight) to the rollup.
-- +goose StatementBegin
CREATE FUNCTION wallet_net_fold_at() RETURNS integer LANGUAGE sql IMMUTABLE AS 'SELECT 32';
-- +goose StatementEnd

-- wallet_net_entries is the statement trigger of account_entry's INSERT
-- (COPY included), UPDATE and DELETE (cascades included): the rows that
-- stopped counting come off, the rows that count now go on, netted per
-- wallet and day, appended to wallet_net_delta, a plain INSERT that takes no
-- lock another writer holds (issue 41: the create's floor writes one such
-- row; folding on every write, upserting three rows of wallet_net under the
-- member's lock, cost a create more than its own INSERT). An edit that moves
-- no money (a memo, a tag, a transfer link) writes nothing. Wallets deleted
-- in the same statement (a member's deletion cascading) are skipped: their
-- rows are gone.
--
-- Then, for each member written, when the member has wallet_net_fold_at()
-- deltas, the write tries the member's advisory lock "wallet_net:" id (held
-- to the commit); got it, it folds every delta it sees (others' committed
-- ones and its own) into wallet_net (wallet_net_fold), whose rows only the
-- lock's holder writes; not got it (another transaction of the member is
-- folding), it leaves them for a later write. So a write never waits for
-- another here, and the rollup adds no deadlock between writers. Writers
-- run at READ COMMITTED (the service's only isolation for writes): a fold
-- then sees the folds committed before it took the lock.
--
-- wallet_net_delta is a queue: each fold deletes the rows it folds. Until
-- VACUUM comes, the deleted rows' index entries stay, all under the
-- member's id. A bitmap scan visits every dead row again and marks none
-- (each write of a burst read all the deltas ever folded before it: entry
-- creates fell from 694 to 428 a second in make load); a plain index scan
-- marks a dead row's entry once, and later scans pass it by. The count
-- below reads at most wallet_net_fold_at() entries (a plain index scan), and
-- the fold does without bitmap scans.
-- +goose StatementBegin
CREATE FUNCTION wallet_net_entries() RETURNS trigger
LANGUAGE plpgsql AS $$
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
-- +goose StatementEnd

-- Folds every delta of the member the caller sees into wallet_net, in key
-- order; the caller holds the member's "wallet_net:" lock.
-- +goose StatementBegin
CREATE FUNCTION wallet_net_fold(mid bigint) RETURNS void
LANGUAGE plpgsql SET enable_bitmapscan = off SET enable_seqscan = off AS $$
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
-- +goose StatementEnd

CREATE TRIGGER account_entry_wallet_net_insert AFTER INSERT ON account_entry
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION wallet_net_entries();
CREATE TRIGGER account_entry_wallet_net_update AFTER UPDATE ON account_entry
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION wallet_net_entries();
CREATE TRIGGER account_entry_wallet_net_delete AFTER DELETE ON account_entry
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION wallet_net_entries();

-- +goose Down
DROP TRIGGER account_entry_wallet_net_delete ON account_entry;
DROP TRIGGER account_entry_wallet_net_update ON account_entry;
DROP TRIGGER account_entry_wallet_net_insert ON account_entry;
DROP FUNCTION wallet_net_entries();
DROP FUNCTION wallet_net_fold(bigint);
DROP FUNCTION wallet_net_fold_at();
DROP TABLE wallet_net_delta;
DROP TABLE wallet_net;
