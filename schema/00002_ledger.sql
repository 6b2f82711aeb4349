-- +goose Up
-- The household ledger. Child records refer to a wallet or category through
-- (member_id, id), so the database itself refuses a reference to another
-- member's record, whatever the code above it does. Every table here that a
-- member edits carries a version (record_version, 00005); the feed (00007)
-- and the wallet rollup (00006) follow its writes.
CREATE TABLE wallet (
    id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    member_id        bigint       NOT NULL REFERENCES member (id) ON DELETE CASCADE,
    name             text         NOT NULL,
    type             text         NOT NULL,
    opening_balance  bigint       NOT NULL DEFAULT 0,
    -- "v1:" + base64(nonce | AES-256-GCM sealed) when ACCOUNT_CRYPTO_KEY is
    -- set; plain text otherwise.
    account_number   varchar(255),
    loan_amount      bigint,
    loan_rate        numeric,
    loan_method      text,
    loan_months      integer,
    loan_start       date,
    loan_payment     bigint,
    manual_valuation boolean      NOT NULL DEFAULT false,
    current_value    bigint,
    -- A CARD wallet's issuer cycle (DECISIONS.md section 10): the day its
    -- statement closes, the day it is paid (a day past a month's end means
    -- its last day) and the wallet it is paid from, a non-CARD wallet of the
    -- same member (the service checks the type, under the member's
    -- reservation lock, so no wallet becomes a CARD while a card pays from
    -- it). All three or none, on CARD wallets only.
    statement_day     integer      CHECK (statement_day BETWEEN 1 AND 31),
    payment_day       integer      CHECK (payment_day BETWEEN 1 AND 31),
    payment_wallet_id bigint,
    sort_order       integer      NOT NULL,
    created_at       timestamptz  NOT NULL DEFAULT now(),
    version          bigint       NOT NULL DEFAULT 1,
    UNIQUE (member_id, id),
    CONSTRAINT wallet_card_cycle_check CHECK (
        (statement_day IS NULL) = (payment_day IS NULL)
        AND (statement_day IS NULL) = (payment_wallet_id IS NULL)
        AND (statement_day IS NULL OR type = 'CARD')
        AND payment_wallet_id IS DISTINCT FROM id),
    -- A paying wallet is deleted only once no card is paid from it (409).
    CONSTRAINT wallet_payment_wallet_fkey FOREIGN KEY (member_id, payment_wallet_id) REFERENCES wallet (member_id, id)
);
-- Finds the cards a wallet pays (its deletion, its change of type).
CREATE INDEX wallet_payment_wallet_idx ON wallet (member_id, payment_wallet_id) WHERE payment_wallet_id IS NOT NULL;
-- The payment-day job walks the members with cycle cards.
CREATE INDEX wallet_cycle_card_idx ON wallet (member_id) WHERE statement_day IS NOT NULL;
-- The free limit counts a member's wallets of one type.
CREATE INDEX wallet_member_type_idx ON wallet (member_id, type);

CREATE TABLE account_category (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    member_id  bigint      NOT NULL REFERENCES member (id) ON DELETE CASCADE,
    parent_id  bigint,
    name       text        NOT NULL,
    -- Entry types are `income` and `expense`, lower case, as SPEC.md writes
    -- them (DECISIONS.md section 9), in every table that holds one.
    type       text        NOT NULL CHECK (type IN ('income', 'expense')),
    sort_order integer     NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    version    bigint      NOT NULL DEFAULT 1,
    UNIQUE (member_id, id),
    FOREIGN KEY (member_id, parent_id) REFERENCES account_category (member_id, id)
);
CREATE INDEX account_category_parent_idx ON account_category (member_id, parent_id);

CREATE TABLE account_tag (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    member_id  bigint      NOT NULL REFERENCES member (id) ON DELETE CASCADE,
    name       text        NOT NULL,
    sort_order integer     NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    version    bigint      NOT NULL DEFAULT 1,
    UNIQUE (member_id, id),
    CONSTRAINT account_tag_member_name_key UNIQUE (member_id, name)
);

CREATE TABLE account_entry (
    id                 bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    member_id          bigint      NOT NULL REFERENCES member (id) ON DELETE CASCADE,
    wallet_id          bigint,
    category_id        bigint,
    type               text        NOT NULL CHECK (type IN ('income', 'expense')),
    amount             bigint      NOT NULL,
    entry_date         date        NOT NULL,
    memo               text        NOT NULL DEFAULT '',
    currency           text,
    original_amount    numeric,
    exchange_rate      numeric,
    installment_months integer,
    pending            boolean     NOT NULL DEFAULT false,
    notif_key          text,
    -- Links the two entries of a transfer (the foreign key follows transfer).
    transfer_id        bigint,
    created_at         timestamptz NOT NULL DEFAULT now(),
    -- A card notification of a foreign-currency payment that prints no won
    -- amount is stored even when no exchange rate can be had (DECISIONS.md
    -- section 9): pending, with its currency and original amount, amount 0
    -- and no rate. Such an entry awaits its rate; the won amount is filled
    -- in when it is confirmed. The rule is kept here, once, for the code and
    -- the queries.
    awaiting_rate      boolean     NOT NULL
        GENERATED ALWAYS AS (pending AND currency IS NOT NULL AND exchange_rate IS NULL AND amount = 0) STORED,
    version            bigint      NOT NULL DEFAULT 1,
    -- Attribution in a household book (internal/book): the member who wrote
    -- the entry and the member who paid it. NULL means the ledger's owner
    -- (always so in a personal ledger). No foreign key: a member who left or
    -- deleted their account keeps their id here ("former member").
    created_by         bigint,
    paid_by            bigint,
    UNIQUE (member_id, id),
    FOREIGN KEY (member_id, wallet_id) REFERENCES wallet (member_id, id),
    FOREIGN KEY (member_id, category_id) REFERENCES account_category (member_id, id)
);
-- Month lists read a member's entries by date, newest first.
CREATE INDEX account_entry_member_date_idx ON account_entry (member_id, entry_date DESC, created_at DESC, id DESC);
-- A wallet's entries: account_entry_wallet_date_idx (00010, member, wallet,
-- date) serves them, the cards' reads by date too.
CREATE INDEX account_entry_category_idx ON account_entry (member_id, category_id);
CREATE INDEX account_entry_pending_idx ON account_entry (member_id) WHERE pending;
-- Confirmed entries off every wallet, which the rollup (wallet_net) does not
-- count: the write check sums a month only when a member has any
-- (TotalsForWriteCheck). Usually empty, so it costs a write nothing.
CREATE INDEX account_entry_walletless_idx ON account_entry (member_id) WHERE wallet_id IS NULL AND NOT pending;
CREATE UNIQUE INDEX account_entry_notif_key_idx ON account_entry (member_id, notif_key) WHERE notif_key IS NOT NULL;

CREATE TABLE account_entry_tag (
    entry_id bigint NOT NULL REFERENCES account_entry (id) ON DELETE CASCADE,
    tag_id   bigint NOT NULL REFERENCES account_tag (id) ON DELETE CASCADE,
    PRIMARY KEY (entry_id, tag_id)
);
CREATE INDEX account_entry_tag_tag_idx ON account_entry_tag (tag_id);

-- A transfer moves money between two of a member's wallets. It is recorded
-- as a linked pair of entries (account_entry.transfer_id): the expense side
-- on the wallet it leaves, the income side on the wallet it reaches. The
-- wallets are read from those entries (a wallet deletion with moveTo moves
-- them), so they are not kept twice. A fee is an ordinary expense entry of
-- the leaving wallet (transfer_id NULL, so it counts in expense totals and
-- statistics) that the transfer points at; its amount is the transfer's fee.
CREATE TABLE transfer (
    id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    member_id      bigint      NOT NULL REFERENCES member (id) ON DELETE CASCADE,
    transfer_date  date        NOT NULL,
    amount         bigint      NOT NULL CHECK (amount >= 0),
    memo           text        NOT NULL DEFAULT '',
    fee_entry_id   bigint      REFERENCES account_entry (id) ON DELETE SET NULL,
    created_at     timestamptz NOT NULL DEFAULT now(),
    version        bigint      NOT NULL DEFAULT 1,
    -- Attribution, as on account_entry.
    created_by     bigint,
    paid_by        bigint,
    UNIQUE (member_id, id)
);
CREATE INDEX transfer_member_date_idx ON transfer (member_id, transfer_date DESC, id DESC);
-- A fee entry's transfer, by the entry: the feed's entry trigger finds the
-- transfer whose fee an entry is, and deleting an entry (fee_entry_id ON
-- DELETE SET NULL) scans no transfer.
CREATE INDEX transfer_fee_entry_idx ON transfer (fee_entry_id) WHERE fee_entry_id IS NOT NULL;

ALTER TABLE account_entry
    ADD CONSTRAINT account_entry_transfer_fkey
    FOREIGN KEY (member_id, transfer_id) REFERENCES transfer (member_id, id) ON DELETE CASCADE;
-- Finds a transfer's sides, and serves the cascade.
CREATE INDEX account_entry_transfer_idx ON account_entry (transfer_id) WHERE transfer_id IS NOT NULL;

-- Recurring entries post themselves: an hourly job (ledger.PostRecurrings)
-- creates each occurrence as a pending entry the member confirms.
CREATE TABLE recurring (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    member_id   bigint      NOT NULL REFERENCES member (id) ON DELETE CASCADE,
    name        text        NOT NULL,
    type        text        NOT NULL CHECK (type IN ('income', 'expense')),
    amount      bigint      NOT NULL,
    wallet_id   bigint,
    category_id bigint,
    day         integer     NOT NULL,
    memo        text        NOT NULL DEFAULT '',
    created_at  timestamptz NOT NULL DEFAULT now(),
    version     bigint      NOT NULL DEFAULT 1,
    auto_post   boolean     NOT NULL DEFAULT true,
    last_posted_on date,
    -- The first day of the first calendar month (APP_TIMEZONE) whose
    -- occurrence is not settled yet: posted, or passed over (before the entry
    -- existed, while auto_post was off, or beyond the job's catch-up window).
    -- It only moves forward, so an edit of `day` never posts a month twice: a
    -- month posts at most once, on the day in force when it comes. The
    -- service always names it; a row inserted without it starts with the next
    -- month, so it never posts a date already past.
    next_month  date        NOT NULL DEFAULT (date_trunc('month', current_date) + interval '1 month')::date,
    FOREIGN KEY (member_id, wallet_id) REFERENCES wallet (member_id, id),
    FOREIGN KEY (member_id, category_id) REFERENCES account_category (member_id, id)
);
CREATE INDEX recurring_member_idx ON recurring (member_id);
-- The job finds the rows with a month to settle.
CREATE INDEX recurring_due_idx ON recurring (next_month, id) WHERE auto_post;

-- One row per posted occurrence: the key that makes a month post once, whatever
-- runs the job (replicas, a restart halfway, a stale read of the recurring
-- row). A deleted recurring entry takes its rows along (it posts nothing
-- more); the entries it posted stay.
CREATE TABLE recurring_post (
    recurring_id bigint      NOT NULL REFERENCES recurring (id) ON DELETE CASCADE,
    month        date        NOT NULL,
    occurs_on    date        NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (recurring_id, month)
);

CREATE TABLE quick_entry (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    member_id   bigint      NOT NULL REFERENCES member (id) ON DELETE CASCADE,
    name        text        NOT NULL,
    type        text        NOT NULL CHECK (type IN ('income', 'expense')),
    amount      bigint      NOT NULL,
    wallet_id   bigint,
    category_id bigint,
    memo        text        NOT NULL DEFAULT '',
    tags        text[]      NOT NULL DEFAULT '{}',
    created_at  timestamptz NOT NULL DEFAULT now(),
    version     bigint      NOT NULL DEFAULT 1,
    FOREIGN KEY (member_id, wallet_id) REFERENCES wallet (member_id, id),
    FOREIGN KEY (member_id, category_id) REFERENCES account_category (member_id, id)
);
CREATE INDEX quick_entry_member_idx ON quick_entry (member_id);

-- The category tree a new member imports (seeded by 00008).
CREATE TABLE default_category (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    parent_id  bigint REFERENCES default_category (id),
    name       text    NOT NULL,
    type       text    NOT NULL CHECK (type IN ('income', 'expense')),
    sort_order integer NOT NULL
);
CREATE INDEX default_category_parent_idx ON default_category (parent_id);

-- A monthly budget of one category. A budget goes with its category: a
-- deleted category's budgets mean nothing.
CREATE TABLE budget (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    member_id   bigint      NOT NULL REFERENCES member (id) ON DELETE CASCADE,
    category_id bigint      NOT NULL,
    year        integer     NOT NULL,
    month       integer     NOT NULL CHECK (month BETWEEN 1 AND 12),
    amount      bigint      NOT NULL CHECK (amount >= 0),
    created_at  timestamptz NOT NULL DEFAULT now(),
    version     bigint      NOT NULL DEFAULT 1,
    -- The uniqueness the API promises, and the index every month read uses.
    CONSTRAINT budget_member_month_category_key UNIQUE (member_id, year, month, category_id),
    FOREIGN KEY (member_id, category_id) REFERENCES account_category (member_id, id) ON DELETE CASCADE
);
CREATE INDEX budget_category_idx ON budget (member_id, category_id);

-- The expected income of a month.
CREATE TABLE budget_income (
    member_id  bigint      NOT NULL REFERENCES member (id) ON DELETE CASCADE,
    year       integer     NOT NULL,
    month      integer     NOT NULL CHECK (month BETWEEN 1 AND 12),
    amount     bigint      NOT NULL CHECK (amount >= 0),
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (member_id, year, month)
);

-- A one-time budget over a date range, optionally of one category (and its
-- sub-categories).
CREATE TABLE budget_onetime (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    member_id   bigint      NOT NULL REFERENCES member (id) ON DELETE CASCADE,
    name        text        NOT NULL,
    amount      bigint      NOT NULL CHECK (amount >= 0),
    start_date  date        NOT NULL,
    end_date    date        NOT NULL,
    category_id bigint,
    created_at  timestamptz NOT NULL DEFAULT now(),
    version     bigint      NOT NULL DEFAULT 1,
    CHECK (end_date >= start_date),
    FOREIGN KEY (member_id, category_id) REFERENCES account_category (member_id, id) ON DELETE SET NULL (category_id)
);
CREATE INDEX budget_onetime_member_idx ON budget_onetime (member_id, start_date);
CREATE INDEX budget_onetime_category_idx ON budget_onetime (member_id, category_id);

-- The keys of the card cancellations a member's notification intake has
-- processed. A cancellation that deletes a pending payment leaves its key on
-- no entry (account_entry.notif_key dedupes payments and reversals), so
-- without this a redelivered cancellation would match and delete the next
-- equal payment.
CREATE TABLE notification_key (
    member_id  bigint      NOT NULL REFERENCES member (id) ON DELETE CASCADE,
    notif_key  text        NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (member_id, notif_key)
);

-- CSV import remembers each row it created: a hash of the row's normalised
-- values and its occurrence in its file, so the same row imported again is a
-- duplicate even after the member edited the entry. The hash goes with its
-- entry: an entry deleted may be imported again.
CREATE TABLE account_entry_import (
    member_id  bigint      NOT NULL,
    row_hash   bytea       NOT NULL,
    entry_id   bigint      NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (member_id, row_hash),
    FOREIGN KEY (member_id, entry_id) REFERENCES account_entry (member_id, id) ON DELETE CASCADE
);
CREATE INDEX account_entry_import_entry_idx ON account_entry_import (entry_id);

-- The card bills the payment-day job proposed (internal/cards): one row per
-- card statement, claimed before its pending transfer is made, so a
-- statement gets one proposal whatever runs the job (replicas, retries).
-- The member's deleting the proposal keeps the claim (transfer_id NULL): a
-- declined bill is not proposed again.
CREATE TABLE card_bill_payment (
    member_id    bigint      NOT NULL REFERENCES member (id) ON DELETE CASCADE,
    wallet_id    bigint      NOT NULL,
    closing_date date        NOT NULL,
    transfer_id  bigint,
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (member_id, wallet_id, closing_date),
    FOREIGN KEY (member_id, wallet_id) REFERENCES wallet (member_id, id) ON DELETE CASCADE,
    FOREIGN KEY (member_id, transfer_id) REFERENCES transfer (member_id, id) ON DELETE SET NULL (transfer_id)
);
-- A transfer's proposal, by the transfer (its confirmation, the cascade).
CREATE UNIQUE INDEX card_bill_payment_transfer_idx ON card_bill_payment (member_id, transfer_id) WHERE transfer_id IS NOT NULL;

-- The cycles a card had before its cycle was edited (internal/cards):
-- editing the cycle moves only statements not yet paid, so the statements
-- closing on or before until_date, paid when the edit came, keep the cycle
-- they were made under. Cleared with the card's cycle.
CREATE TABLE card_cycle_past (
    member_id     bigint  NOT NULL REFERENCES member (id) ON DELETE CASCADE,
    wallet_id     bigint  NOT NULL,
    until_date    date    NOT NULL,
    statement_day integer NOT NULL CHECK (statement_day BETWEEN 1 AND 31),
    payment_day   integer NOT NULL CHECK (payment_day BETWEEN 1 AND 31),
    PRIMARY KEY (member_id, wallet_id, until_date),
    FOREIGN KEY (member_id, wallet_id) REFERENCES wallet (member_id, id) ON DELETE CASCADE
);

-- ensure_member_tags makes each name one of the member's tags (new ones
-- last, in the given order) and answers all of them, in tag order; the
-- statement that creates an entry with tags (CreateTaggedEntryChecked)
-- calls it.
--
-- It is a function so that its two steps take two snapshots. Members' apps
-- send creates in parallel, and two of them can name the same new tag: the
-- second INSERT ... ON CONFLICT waits for the first transaction and then
-- skips the name, but the tag that transaction committed is not in the
-- snapshot of the statement that waited, which can neither answer nor link
-- it. Inside a VOLATILE PL/pgSQL function each statement takes a snapshot
-- of its own (READ COMMITTED), so the SELECT after the INSERT sees every tag
-- committed while the INSERT waited, however many of the names were made
-- meanwhile.
--
-- The names are inserted in one order (by name), whatever order they were
-- given in: two requests naming the same new tags in different orders wait
-- on each other rather than deadlock.
--
-- The tags it answers are key-share locked, so a write that links them (an
-- entry's create or edit, CSV import, restore) holds them until it commits:
-- a parallel deletion of one of those tags waits for the write rather than
-- deleting the tag between the answer and the link, whose foreign key would
-- then fail. A tag whose deletion commits while the SELECT waits on it is
-- left out of the answer; the callers then run again (the tagged create's
-- retry_statement, the second pass of EnsureTagsTx), and the INSERT makes
-- the tag anew.
--
-- A NULL names array (STRICT) answers no rows and writes nothing: the
-- create passes NULL when its checks fail.
-- +goose StatementBegin
CREATE FUNCTION ensure_member_tags(p_member bigint, p_names text[])
RETURNS SETOF account_tag LANGUAGE plpgsql STRICT VOLATILE AS $$
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
-- +goose StatementEnd

-- retry_statement raises serialization_failure, which the database layer
-- runs again once (database.InTx, database.Exec): a statement that finds a
-- row another transaction committed after the statement's snapshot (a tag
-- deleted meanwhile) can neither see it nor link it, and is run again whole
-- rather than answer half of what was asked.
-- +goose StatementBegin
CREATE FUNCTION retry_statement(reason text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION USING ERRCODE = 'serialization_failure', MESSAGE = reason;
END
$$;
-- +goose StatementEnd

-- +goose Down
DROP FUNCTION retry_statement(text);
DROP FUNCTION ensure_member_tags(bigint, text[]);
DROP TABLE card_cycle_past;
DROP TABLE card_bill_payment;
DROP TABLE account_entry_import;
DROP TABLE notification_key;
DROP TABLE budget_onetime;
DROP TABLE budget_income;
DROP TABLE budget;
DROP TABLE default_category;
DROP TABLE quick_entry;
DROP TABLE recurring_post;
DROP TABLE recurring;
ALTER TABLE account_entry DROP CONSTRAINT account_entry_transfer_fkey;
DROP TABLE transfer;
DROP TABLE account_entry_tag;
DROP TABLE account_entry;
DROP TABLE account_tag;
DROP TABLE account_category;
DROP TABLE wallet;
