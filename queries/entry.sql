-- name: CreateEntryChecked :one
-- Creates an entry without tags in one statement that also checks what it
-- names: the member's own wallet and category, a category of the entry's
-- type, and installments only on an expense on a CARD wallet. No row comes
-- back when a check fails; the caller then asks which (checkEntryRefs). The
-- checks key-share lock the wallet and category they find, so a deletion
-- either committed before them (no row) or waits for this write.
--
-- A transfer's side is written with its transfer_id here, in its one INSERT
-- (the transfer's row is written first): linked by a later UPDATE, each side
-- fired the entry's UPDATE triggers (the feed, the rollup, the version)
-- once more.
--
-- An entry with tags is CreateTaggedEntryChecked. This one has no tag CTEs
-- because a data-modifying CTE fires its table's statement triggers even
-- when it writes no row: the empty tag and link INSERTs cost an untagged
-- create the feed's and the versions' triggers on account_tag and
-- account_entry_tag, more than the entry's own INSERT.
INSERT INTO account_entry (
    member_id, wallet_id, category_id, type, amount, entry_date, memo,
    currency, original_amount, exchange_rate, installment_months, pending, notif_key, transfer_id, created_by, paid_by
)
SELECT @member_id::bigint, sqlc.narg(wallet_id)::bigint, sqlc.narg(category_id)::bigint, @type::text, @amount::bigint,
    @entry_date::date, @memo::text, sqlc.narg(currency)::text, sqlc.narg(original_amount)::numeric,
    sqlc.narg(exchange_rate)::numeric, sqlc.narg(installment_months)::integer, @pending::boolean, sqlc.narg(notif_key)::text,
    sqlc.narg(transfer_id)::bigint, sqlc.narg(created_by)::bigint, sqlc.narg(paid_by)::bigint
-- The member's ledger lock, shared (ledger/locks.go), is taken first, in
-- this statement rather than a round trip of its own: CASE evaluates its
-- condition before its result, and each sub-select runs only when first
-- needed, so the checks run under the lock. (The void it answers is never
-- NULL.) A restore or account deletion the lock waited for has removed what
-- the entry names: the foreign keys, checked at the row, refuse it.
WHERE CASE WHEN (SELECT pg_advisory_xact_lock_shared(hashtextextended('ledger:' || @member_id::bigint, 0))) IS NULL THEN false ELSE
    -- The wallet and the category are key-share locked here, as their
    -- foreign keys lock them at the row, so that the totals lock below
    -- comes after them (database.LockOrder): a wallet's deletion holds its
    -- row and then waits for the totals lock exclusively.
    (sqlc.narg(wallet_id)::bigint IS NULL OR EXISTS (
        SELECT 1 FROM wallet w WHERE w.member_id = @member_id::bigint AND w.id = sqlc.narg(wallet_id)::bigint
            AND (sqlc.narg(installment_months)::integer IS NULL OR w.type = 'CARD') FOR KEY SHARE))
    AND (sqlc.narg(category_id)::bigint IS NULL OR EXISTS (
        SELECT 1 FROM account_category c WHERE c.member_id = @member_id::bigint AND c.id = sqlc.narg(category_id)::bigint
            AND c.type = @type::text FOR KEY SHARE))
    AND (sqlc.narg(installment_months)::integer IS NULL OR (@type::text = 'expense' AND sqlc.narg(wallet_id)::bigint IS NOT NULL))
    -- Alone (@alone_bound set: the create is its own transaction), the
    -- write check's sufficient bound, under the totals lock taken shared
    -- as TotalsForWriteCheck takes it: every balance, net worth's sides and
    -- every month's income and expense are at most the wallets' opening
    -- balances, manual values and gross (with this entry's amount) summed,
    -- where no confirmed entry is off every wallet. Past it, no row: the
    -- caller checks in a transaction (ledger.CreateEntryAlone).
    -- CreateTaggedEntryChecked repeats these lines: change both.
    AND (sqlc.narg(alone_bound)::bigint IS NULL OR (
        (SELECT pg_advisory_xact_lock_shared(hashtextextended('ledger_total:' || @member_id::bigint, 0))) IS NOT NULL
        AND (@pending::boolean OR sqlc.narg(wallet_id)::bigint IS NOT NULL)
        AND NOT EXISTS (SELECT 1 FROM account_entry o WHERE o.member_id = @member_id::bigint AND o.wallet_id IS NULL AND NOT o.pending)
        AND (SELECT COALESCE(sum(abs(w.opening_balance::numeric)
                    + CASE WHEN w.manual_valuation THEN abs(COALESCE(w.current_value, 0)::numeric) ELSE 0 END), 0)
             FROM wallet w WHERE w.member_id = @member_id::bigint)
          + COALESCE((SELECT sum(t.gross) FROM wallet_net t
                      WHERE t.member_id = @member_id::bigint AND t.period = 'total' AND t.start = '-infinity'), 0)
          + COALESCE((SELECT sum(d.gross) FROM wallet_net_delta d WHERE d.member_id = @member_id::bigint), 0)
          + @amount::bigint <= sqlc.narg(alone_bound)::bigint))
    END
RETURNING sqlc.embed(account_entry),
    -- Whether the entry is the first that counts on its day (the statement
    -- does not see its own row): only such a write can complete a month.
    -- Asked only where the answer can matter (probe_new_day: the month may
    -- complete today); else false, and the probe is not run.
    (@probe_new_day::boolean AND NOT EXISTS (SELECT 1 FROM account_entry o
        WHERE o.member_id = @member_id::bigint AND o.entry_date = @entry_date::date AND NOT o.pending AND o.transfer_id IS NULL))::bool AS new_day;

-- name: CreateTaggedEntryChecked :one
-- Creates an entry with its tags (at least one) in one statement that also
-- makes the checks CreateEntryChecked makes; no row comes back when one
-- fails.
--
-- The tags become the member's tags where they are not (new ones last, in
-- the given order; ensure_member_tags) and are linked to the entry;
-- tag_names answers them in tag order. Linking them does not raise the new
-- entry's version (entry_tags_version), so the row returned is the row committed. A tag
-- of the same name that a parallel request commits while this one waits on
-- it is answered too (the function reads after its INSERT, with a snapshot
-- of its own). The function key-share locks the tags it answers,
-- so a deletion cannot take one away before the links are written; one
-- deleted meanwhile is left out: the statement then fails as a
-- serialization failure, and runs again whole (InTx, Exec). The wallet and
-- the category are key-share locked by the checks, as in
-- CreateEntryChecked.
WITH checked AS (
    -- The shared ledger lock first, as in CreateEntryChecked.
    SELECT nextval(pg_get_serial_sequence('account_entry', 'id')) AS id
    WHERE CASE WHEN (SELECT pg_advisory_xact_lock_shared(hashtextextended('ledger:' || @member_id::bigint, 0))) IS NULL THEN false ELSE
        (sqlc.narg(wallet_id)::bigint IS NULL OR EXISTS (
            SELECT 1 FROM wallet w WHERE w.member_id = @member_id::bigint AND w.id = sqlc.narg(wallet_id)::bigint
                AND (sqlc.narg(installment_months)::integer IS NULL OR w.type = 'CARD') FOR KEY SHARE))
        AND (sqlc.narg(category_id)::bigint IS NULL OR EXISTS (
            SELECT 1 FROM account_category c WHERE c.member_id = @member_id::bigint AND c.id = sqlc.narg(category_id)::bigint
                AND c.type = @type::text FOR KEY SHARE))
        AND (sqlc.narg(installment_months)::integer IS NULL OR (@type::text = 'expense' AND sqlc.narg(wallet_id)::bigint IS NOT NULL))
        END
), tags AS (
    -- The names only when the checks passed (NULL otherwise: no tag made).
    SELECT t.id, t.name, t.sort_order
    FROM ensure_member_tags(@member_id::bigint, (SELECT @tags::text[] FROM checked)) AS t
), linked AS (
    -- Checked at the statement's end, when the entry's row is there.
    INSERT INTO account_entry_tag (entry_id, tag_id)
    SELECT checked.id, tags.id FROM checked CROSS JOIN tags
    ON CONFLICT DO NOTHING
)
INSERT INTO account_entry (
    id, member_id, wallet_id, category_id, type, amount, entry_date, memo,
    currency, original_amount, exchange_rate, installment_months, pending, notif_key, created_by, paid_by
) OVERRIDING SYSTEM VALUE
SELECT checked.id, @member_id::bigint, sqlc.narg(wallet_id)::bigint, sqlc.narg(category_id)::bigint, @type::text, @amount::bigint,
    @entry_date::date, @memo::text, sqlc.narg(currency)::text, sqlc.narg(original_amount)::numeric,
    sqlc.narg(exchange_rate)::numeric, sqlc.narg(installment_months)::integer, @pending::boolean, sqlc.narg(notif_key)::text,
    sqlc.narg(created_by)::bigint, sqlc.narg(paid_by)::bigint
FROM checked
-- Every tag answered first (CASE evaluates its condition before its
-- result), then, alone (@alone_bound set), CreateEntryChecked's bound (the
-- same lines: change both) under
-- the totals lock, which so comes after the wallet, the category and the
-- tags (database.LockOrder). Past it, no row.
WHERE CASE WHEN (SELECT count(*) FROM tags) >= (SELECT count(DISTINCT x.name) FROM unnest(@tags::text[]) AS x(name)) THEN
    sqlc.narg(alone_bound)::bigint IS NULL OR (
        (SELECT pg_advisory_xact_lock_shared(hashtextextended('ledger_total:' || @member_id::bigint, 0))) IS NOT NULL
        AND (@pending::boolean OR sqlc.narg(wallet_id)::bigint IS NOT NULL)
        AND NOT EXISTS (SELECT 1 FROM account_entry o WHERE o.member_id = @member_id::bigint AND o.wallet_id IS NULL AND NOT o.pending)
        AND (SELECT COALESCE(sum(abs(w.opening_balance::numeric)
                    + CASE WHEN w.manual_valuation THEN abs(COALESCE(w.current_value, 0)::numeric) ELSE 0 END), 0)
             FROM wallet w WHERE w.member_id = @member_id::bigint)
          + COALESCE((SELECT sum(t.gross) FROM wallet_net t
                      WHERE t.member_id = @member_id::bigint AND t.period = 'total' AND t.start = '-infinity'), 0)
          + COALESCE((SELECT sum(d.gross) FROM wallet_net_delta d WHERE d.member_id = @member_id::bigint), 0)
          + @amount::bigint <= sqlc.narg(alone_bound)::bigint)
    ELSE retry_statement('a tag the entry names was deleted by a parallel request') END
RETURNING sqlc.embed(account_entry),
    -- Whether the entry is the first that counts on its day (the statement
    -- does not see its own row): only such a write can complete a month.
    -- Asked only where the answer can matter (probe_new_day: the month may
    -- complete today); else false, and the probe is not run.
    (@probe_new_day::boolean AND NOT EXISTS (SELECT 1 FROM account_entry o
        WHERE o.member_id = @member_id::bigint AND o.entry_date = @entry_date::date AND NOT o.pending AND o.transfer_id IS NULL))::bool AS new_day,
    ARRAY(SELECT tags.name FROM tags ORDER BY tags.sort_order, tags.id)::text[] AS tag_names;

-- name: GetEntry :one
SELECT * FROM account_entry WHERE member_id = @member_id AND id = @id;

-- name: GetEntryForUpdate :one
SELECT * FROM account_entry WHERE member_id = @member_id AND id = @id FOR UPDATE;

-- name: UpdateEntry :one
UPDATE account_entry SET
    wallet_id = sqlc.narg(wallet_id), category_id = sqlc.narg(category_id), type = @type, amount = @amount,
    entry_date = @entry_date, memo = @memo, currency = sqlc.narg(currency),
    original_amount = sqlc.narg(original_amount), exchange_rate = sqlc.narg(exchange_rate),
    installment_months = sqlc.narg(installment_months),
    -- Who paid changes only when the request says (household books).
    paid_by = COALESCE(sqlc.narg(paid_by)::bigint, paid_by)
WHERE member_id = @member_id AND id = @id
    AND (sqlc.narg(if_versions)::bigint[] IS NULL OR version = ANY(sqlc.narg(if_versions)::bigint[]))
RETURNING *;

-- name: DeleteEntry :execrows
DELETE FROM account_entry WHERE member_id = @member_id AND id = @id
    AND (sqlc.narg(if_versions)::bigint[] IS NULL OR version = ANY(sqlc.narg(if_versions)::bigint[]));

-- name: ConfirmEntry :one
-- Confirms a pending entry; was_pending is false when it was confirmed
-- already (a retried confirmation), which changes nothing. An entry awaiting
-- its exchange rate is not confirmed here (no row): ConfirmEntryAtRate does;
-- nor is a transfer's side (no row): the transfer is confirmed whole.
UPDATE account_entry SET pending = false
FROM (SELECT o.id, o.pending FROM account_entry o WHERE o.member_id = @member_id AND o.id = @id FOR UPDATE) AS old
WHERE account_entry.id = old.id AND NOT account_entry.awaiting_rate AND account_entry.transfer_id IS NULL
RETURNING sqlc.embed(account_entry), old.pending AS was_pending;

-- name: ConfirmTransferSides :execrows
-- Confirms both sides of a pending transfer (a card bill payment the job
-- made); 0 rows when they were confirmed already.
UPDATE account_entry SET pending = false
WHERE member_id = @member_id AND transfer_id = @transfer_id::bigint AND pending;

-- name: ConfirmEntryAtRate :one
-- Confirms an entry that awaited its exchange rate, with the won amount at
-- the rate looked up; no row when the entry changed since it was read.
UPDATE account_entry SET pending = false, amount = @amount, exchange_rate = @exchange_rate
WHERE member_id = @member_id AND id = @id AND awaiting_rate
  AND currency = @currency AND original_amount = @original_amount AND entry_date = @entry_date
RETURNING *;

-- name: CountPendingEntries :one
SELECT count(*) FROM account_entry WHERE member_id = @member_id AND pending;

-- name: ListEntries :batchmany
-- One page of a period's entries, newest date first, then newest created,
-- each with its tag names (the tag order). A :batchmany: the month list
-- sends it with SummarizeEntries in one round trip (database.Pipeline). The
-- tags' subquery runs once for each row the page reads: the member's date
-- index gives the order, so the scan stops at the page's end (a later
-- page's OFFSET rows are read, and tagged, too; TestMonthListIsAFixedNumber-
-- OfIndexedQueries counts the runs under EXPLAIN ANALYZE).
SELECT sqlc.embed(e),
    COALESCE((SELECT array_agg(t.name ORDER BY t.sort_order, t.id)
              FROM account_entry_tag et JOIN account_tag t ON t.id = et.tag_id
              WHERE et.entry_id = e.id AND t.member_id = @member_id), '{}')::text[] AS tags
FROM account_entry e
WHERE e.member_id = @member_id
  AND e.entry_date >= @from_date AND e.entry_date < @to_date
  AND (sqlc.narg(wallet_id)::bigint IS NULL OR e.wallet_id = sqlc.narg(wallet_id))
  AND (sqlc.narg(category_id)::bigint IS NULL OR e.category_id = sqlc.narg(category_id)
       OR e.category_id IN (SELECT c.id FROM account_category c WHERE c.member_id = @member_id AND c.parent_id = sqlc.narg(category_id)))
  AND (sqlc.narg(type)::text IS NULL OR e.type = sqlc.narg(type))
  AND (sqlc.narg(pending)::boolean IS NULL OR e.pending = sqlc.narg(pending))
  AND (sqlc.narg(transfer)::boolean IS NULL OR (e.transfer_id IS NOT NULL) = sqlc.narg(transfer))
  AND (sqlc.narg(memo_pattern)::text IS NULL OR e.memo ILIKE sqlc.narg(memo_pattern))
  AND (sqlc.narg(tag)::text IS NULL OR EXISTS (
        SELECT 1 FROM account_entry_tag et JOIN account_tag t ON t.id = et.tag_id
        WHERE et.entry_id = e.id AND t.member_id = @member_id AND t.name = sqlc.narg(tag)))
  AND (sqlc.narg(created_by)::bigint IS NULL OR COALESCE(e.created_by, sqlc.narg(attr_default)::bigint) = sqlc.narg(created_by))
  AND (sqlc.narg(paid_by)::bigint IS NULL OR COALESCE(e.paid_by, sqlc.narg(attr_default)::bigint) = sqlc.narg(paid_by))
ORDER BY e.entry_date DESC, e.created_at DESC, e.id DESC
LIMIT @lim OFFSET @off;

-- name: SummarizeEntries :batchone
-- The count and the confirmed income and expense of the same filter as
-- ListEntries; transfers move money between wallets and are neither. Sent
-- with ListEntries (a :batchone).
SELECT count(*) AS total,
    COALESCE(SUM(e.amount) FILTER (WHERE e.type = 'income' AND NOT e.pending AND e.transfer_id IS NULL), 0)::numeric AS income,
    COALESCE(SUM(e.amount) FILTER (WHERE e.type = 'expense' AND NOT e.pending AND e.transfer_id IS NULL), 0)::numeric AS expense
FROM account_entry e
WHERE e.member_id = @member_id
  AND e.entry_date >= @from_date AND e.entry_date < @to_date
  AND (sqlc.narg(wallet_id)::bigint IS NULL OR e.wallet_id = sqlc.narg(wallet_id))
  AND (sqlc.narg(category_id)::bigint IS NULL OR e.category_id = sqlc.narg(category_id)
       OR e.category_id IN (SELECT c.id FROM account_category c WHERE c.member_id = @member_id AND c.parent_id = sqlc.narg(category_id)))
  AND (sqlc.narg(type)::text IS NULL OR e.type = sqlc.narg(type))
  AND (sqlc.narg(pending)::boolean IS NULL OR e.pending = sqlc.narg(pending))
  AND (sqlc.narg(transfer)::boolean IS NULL OR (e.transfer_id IS NOT NULL) = sqlc.narg(transfer))
  AND (sqlc.narg(memo_pattern)::text IS NULL OR e.memo ILIKE sqlc.narg(memo_pattern))
  AND (sqlc.narg(tag)::text IS NULL OR EXISTS (
        SELECT 1 FROM account_entry_tag et JOIN account_tag t ON t.id = et.tag_id
        WHERE et.entry_id = e.id AND t.member_id = @member_id AND t.name = sqlc.narg(tag)))
  AND (sqlc.narg(created_by)::bigint IS NULL OR COALESCE(e.created_by, sqlc.narg(attr_default)::bigint) = sqlc.narg(created_by))
  AND (sqlc.narg(paid_by)::bigint IS NULL OR COALESCE(e.paid_by, sqlc.narg(attr_default)::bigint) = sqlc.narg(paid_by));

-- name: ListEntryTags :many
-- The tag names of a page of entries, in one query.
SELECT et.entry_id, t.name
FROM account_entry_tag et JOIN account_tag t ON t.id = et.tag_id
WHERE et.entry_id = ANY(@entry_ids::bigint[]) AND t.member_id = @member_id
ORDER BY et.entry_id, t.sort_order, t.id;

-- name: AddEntryTags :exec
INSERT INTO account_entry_tag (entry_id, tag_id)
SELECT @entry_id, unnest(@tag_ids::bigint[])
ON CONFLICT DO NOTHING;

-- name: ClearEntryTags :exec
DELETE FROM account_entry_tag WHERE entry_id = @entry_id;

-- name: DeleteMemberEntries :exec
DELETE FROM account_entry WHERE member_id = @member_id;

-- name: GetEntryByNotifKey :one
SELECT * FROM account_entry WHERE member_id = @member_id AND notif_key = @notif_key;

-- name: MostUsedCategoryForMemo :one
-- The category most used by the member's confirmed entries of a type whose
-- memo contains the pattern; the latest use breaks a tie.
SELECT category_id::bigint FROM account_entry
WHERE member_id = @member_id AND type = @type AND NOT pending AND category_id IS NOT NULL
  AND memo ILIKE @memo_pattern
GROUP BY category_id
ORDER BY count(*) DESC, max(entry_date) DESC, category_id DESC
LIMIT 1;

-- name: FindCancelledEntry :one
-- The latest expense a cancellation undoes: the same won amount (or the same
-- currency and original amount), the same merchant when it has one, the same
-- wallet when one matched, on or before the cancellation's day.
SELECT * FROM account_entry
WHERE member_id = @member_id AND type = 'expense' AND transfer_id IS NULL
  AND entry_date <= @entry_date
  AND ((sqlc.narg(currency)::text IS NULL AND currency IS NULL AND amount = @amount)
       OR (currency = sqlc.narg(currency)::text AND original_amount = sqlc.narg(original_amount)::numeric))
  AND (@merchant::text = '' OR lower(memo) = lower(@merchant::text))
  AND (sqlc.narg(wallet_id)::bigint IS NULL OR wallet_id = sqlc.narg(wallet_id)::bigint)
ORDER BY entry_date DESC, id DESC
LIMIT 1
FOR UPDATE;

-- name: ListBackupEntries :many
-- One page of the member's entries that are not one side of a transfer
-- (fees are ordinary entries and are in it), oldest first, as a backup
-- lists them, after the keyset (after_date, after_created, after_id); the
-- first page starts before every entry. Each comes with its tag names in
-- their order, so that a page is one statement.
SELECT e.id, e.wallet_id, e.category_id, e.type, e.amount, e.entry_date, e.created_at, e.memo,
    e.currency, e.original_amount, e.exchange_rate, e.installment_months, e.pending, e.notif_key,
    COALESCE((SELECT array_agg(t.name ORDER BY t.sort_order, t.id) FROM account_entry_tag et
        JOIN account_tag t ON t.id = et.tag_id WHERE et.entry_id = e.id AND t.member_id = e.member_id), '{}')::text[] AS tags
FROM account_entry e
WHERE e.member_id = @member_id AND e.transfer_id IS NULL
  AND (e.entry_date, e.created_at, e.id) > (@after_date::date, @after_created::timestamptz, @after_id::bigint)
ORDER BY e.entry_date, e.created_at, e.id
LIMIT @batch_size;

-- name: CopyEntries :copyfrom
INSERT INTO account_entry (
    member_id, wallet_id, category_id, type, amount, entry_date, memo,
    currency, original_amount, exchange_rate, installment_months, pending, notif_key, transfer_id
) VALUES (
    @member_id, @wallet_id, @category_id, @type, @amount, @entry_date, @memo,
    @currency, @original_amount, @exchange_rate, @installment_months, @pending, @notif_key, @transfer_id
);

-- name: ListEntryIDs :many
-- The ids of the member's entries that this transaction inserted, in the
-- order it inserted them.
SELECT id FROM account_entry WHERE member_id = @member_id AND xmin = pg_current_xact_id()::xid ORDER BY id;

-- name: CopyEntryTags :copyfrom
INSERT INTO account_entry_tag (entry_id, tag_id) VALUES (@entry_id, @tag_id);

-- name: ListTransferSides :many
-- The sides of a transfer: EXPENSE leaves a wallet, INCOME reaches one.
SELECT id, type, wallet_id FROM account_entry
WHERE member_id = @member_id AND transfer_id = @transfer_id;

-- name: ListEntriesForExport :many
-- One batch of a period's confirmed entries for the CSV export, oldest date
-- first, then the order they were written, after the keyset (after_date,
-- after_created, after_id); the first batch starts before every entry. Names
-- and tags come along so a batch is one statement.
SELECT e.id, e.entry_date, e.created_at, e.type, e.amount, e.memo, e.currency, e.original_amount,
    e.exchange_rate, e.installment_months, e.transfer_id,
    COALESCE(w.name, '')::text AS wallet_name, COALESCE(c.name, '')::text AS category_name,
    COALESCE(p.name, '')::text AS parent_name,
    COALESCE((SELECT array_agg(t.name ORDER BY t.sort_order, t.id) FROM account_entry_tag et
        JOIN account_tag t ON t.id = et.tag_id WHERE et.entry_id = e.id), '{}')::text[] AS tags
FROM account_entry e
LEFT JOIN wallet w ON w.member_id = e.member_id AND w.id = e.wallet_id
LEFT JOIN account_category c ON c.member_id = e.member_id AND c.id = e.category_id
LEFT JOIN account_category p ON p.member_id = e.member_id AND p.id = c.parent_id
WHERE e.member_id = @member_id AND NOT e.pending
  AND e.entry_date >= @from_date AND e.entry_date <= @to_date
  AND (e.entry_date, e.created_at, e.id) > (@after_date::date, @after_created::timestamptz, @after_id::bigint)
ORDER BY e.entry_date, e.created_at, e.id
LIMIT @batch_size;

-- name: CountEntriesByKey :many
-- How many of the member's entries have each date, type, amount and memo
-- on the given days (CSV import's duplicate check: the file's days, not
-- the range between its first and last, which two rows years apart would
-- stretch over the whole ledger).
SELECT entry_date, type, amount, memo, count(*)::int AS n
FROM account_entry
WHERE member_id = @member_id AND entry_date = ANY(@days::date[])
GROUP BY entry_date, type, amount, memo;

-- name: ListEntriesByIDs :many
SELECT * FROM account_entry WHERE member_id = @member_id AND id = ANY(@ids::bigint[]);

-- name: LockFeeTransfer :one
-- The transfer whose fee the entry is, locked: an edit of the fee entry
-- through the entries API takes the transfer before the entry, as a
-- transfer's own edit does (database.LockOrder).
SELECT id FROM transfer WHERE member_id = @member_id AND fee_entry_id = @entry_id FOR UPDATE;

-- name: TouchTransfer :exec
-- Raises a transfer's version (the record_version trigger) without changing
-- it: its answer shows its fee entry's amount, which was edited.
UPDATE transfer SET fee_entry_id = fee_entry_id WHERE member_id = @member_id AND id = @id;

-- name: LedgerMonthTotalsPastBound :many
-- The ledger months (by the member's month start day) whose confirmed
-- income or expense, transfers excluded, is beyond @total_limit (the check's
-- ledger.Limit): a restore's check of the whole ledger it wrote
-- (ledger.CheckAllTotalsTx).
SELECT (date_trunc('month', (e.entry_date - (m.month_start_day - 1))::timestamp)
        + (m.month_start_day - 1) * interval '1 day')::date AS from_date,
       COALESCE(SUM(e.amount) FILTER (WHERE e.type = 'income'), 0)::numeric AS income,
       COALESCE(SUM(e.amount) FILTER (WHERE e.type = 'expense'), 0)::numeric AS expense
FROM account_entry e
JOIN member m ON m.id = e.member_id
WHERE e.member_id = @member_id AND NOT e.pending AND e.transfer_id IS NULL
GROUP BY 1
HAVING COALESCE(SUM(e.amount) FILTER (WHERE e.type = 'income'), 0) > @total_limit::numeric
    OR COALESCE(SUM(e.amount) FILTER (WHERE e.type = 'expense'), 0) > @total_limit::numeric
ORDER BY 1;

-- name: EntryVersion :one
-- The version an entry's write committed, read after its tag links (which
-- raise it) for the ETag its answer carries.
SELECT version FROM account_entry WHERE member_id = @member_id AND id = @id;
