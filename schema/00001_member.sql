-- +goose Up
-- Members, their sessions and the service's own bookkeeping. The baseline
-- of every area is one migration each (00001-00008): the database had not
-- been deployed when they were squashed, so a change to a table is made in
-- its area's file until one is. generated/schema.sql shows the result.

-- Service-wide key/value settings an administrator can change at run time
-- (sign-up switch, spam keywords). Values are JSON so each key keeps its shape.
CREATE TABLE app_setting (
    key        text PRIMARY KEY,
    value      jsonb       NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE member (
    id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    -- NULL for an identity-provider member whose provider gave no verified e-mail.
    email           text,
    -- argon2id PHC string; NULL for members that only sign in through a provider.
    password_hash   text,
    name            text        NOT NULL,
    role            text        NOT NULL DEFAULT 'USER'   CHECK (role IN ('USER', 'ADMIN')),
    status          text        NOT NULL DEFAULT 'ACTIVE' CHECK (status IN ('ACTIVE', 'SUSPENDED')),
    -- Account origin; kept unchanged when another identity is linked later.
    provider        text        NOT NULL DEFAULT 'LOCAL'  CHECK (provider IN ('LOCAL', 'IDP_A', 'IDP_B')),
    idp_a_id        text UNIQUE,
    idp_b_id        text UNIQUE,
    idp_a_picture   text,
    -- The avatar's data URL, for the owner's own profile; board answers carry
    -- profile_image_id's address instead.
    profile_image   text,
    plan            text        NOT NULL DEFAULT 'FREE'   CHECK (plan IN ('FREE', 'PREMIUM')),
    -- NULL with PREMIUM means a permanent plan set by an administrator.
    plan_expires_at timestamptz,
    plan_product    text,
    plan_auto_renew boolean     NOT NULL DEFAULT false,
    points          bigint      NOT NULL DEFAULT 0 CHECK (points >= 0),
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    -- PostgreSQL is the authority on which sessions exist. A member's sessions
    -- are revoked by raising session_epoch: a session whose epoch is below its
    -- member's is over (an integer compared in one database, not two
    -- replicas' clocks).
    session_epoch   bigint      NOT NULL DEFAULT 0,
    -- Whether the member proved they own their e-mail (a verified identity-provider
    -- e-mail). A LOCAL sign-up proves nothing: linking a provider identity to such
    -- an account clears its password and ends its sessions.
    email_verified  boolean     NOT NULL DEFAULT false,
    -- Payday months: the day of the calendar month on which the member's ledger
    -- month begins ("November" with 25 is 25 November to 24 December). At most
    -- 28 so that every month has the day.
    month_start_day smallint    NOT NULL DEFAULT 1 CHECK (month_start_day BETWEEN 1 AND 28),
    -- The avatar as an image the service serves (GET /api/images/{id}); its
    -- foreign key is added with board_image (00004).
    profile_image_id uuid,
    -- ETag and If-Match: see record_version (00005).
    version         bigint      NOT NULL DEFAULT 1,
    -- PERSON is someone who signs in. BOOK is the ledger owner of a
    -- household book (00009, internal/book): every ledger table is keyed by
    -- member_id, so a book's records hang off a row of its own. A BOOK row
    -- never signs in (no e-mail, password or provider id) and is left out of
    -- every list and count of members.
    kind            text        NOT NULL DEFAULT 'PERSON' CHECK (kind IN ('PERSON', 'BOOK')),
    CHECK (kind = 'PERSON' OR (email IS NULL AND password_hash IS NULL AND idp_a_id IS NULL AND idp_b_id IS NULL))
);
-- E-mail is the linking key for identity providers: one member per address,
-- compared case-insensitively.
CREATE UNIQUE INDEX member_email_key ON member (lower(email)) WHERE email IS NOT NULL;
-- The hourly expiry job scans only expiring PREMIUM members.
CREATE INDEX member_plan_expiry_idx ON member (plan_expires_at) WHERE plan = 'PREMIUM' AND plan_expires_at IS NOT NULL;
CREATE INDEX member_profile_image_idx ON member (profile_image_id) WHERE profile_image_id IS NOT NULL;

-- Durable mirror of the Redis session store. token_hash is the SHA-256 of the
-- session token (scs HashTokenInStore), so a copy of this table is no usable
-- session. data is the scs-encoded session. Every authenticated request reads
-- its member joined with this row, so a session deleted here is over on every
-- replica, whatever Redis still holds.
CREATE TABLE auth_session (
    token_hash text PRIMARY KEY,
    member_id  bigint      NOT NULL REFERENCES member (id) ON DELETE CASCADE,
    data       bytea       NOT NULL,
    expires_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now(),
    -- The member's session_epoch when the session began.
    epoch      bigint      NOT NULL DEFAULT 0,
    -- The absolute end of the session, whatever its use (expires_at slides).
    deadline   timestamptz NOT NULL
);
CREATE INDEX auth_session_member_idx ON auth_session (member_id);
CREATE INDEX auth_session_expiry_idx ON auth_session (expires_at);

CREATE TABLE point_history (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    member_id  bigint      NOT NULL REFERENCES member (id) ON DELETE CASCADE,
    points     integer     NOT NULL,
    reason     text        NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
-- History reads are "newest first, at most 100" per member.
CREATE INDEX point_history_member_idx ON point_history (member_id, created_at DESC, id DESC);

-- Sign-up attempts per client address, for the sign-up limit. Kept in
-- PostgreSQL so the limit holds across replicas and through a Redis outage.
CREATE TABLE signup_attempt (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    address      text        NOT NULL,
    attempted_at timestamptz NOT NULL
);
CREATE INDEX signup_attempt_address_idx ON signup_attempt (address, attempted_at);

-- When each scheduled job last ran, so that a job runs once per period however
-- many replicas tick.
CREATE TABLE job_run (
    name        text PRIMARY KEY,
    last_run_at timestamptz NOT NULL
);

-- Failed password checks, counted per key (an e-mail, a client address, a
-- member) over a short window to slow down guessing. Keyed by the e-mail as
-- typed, so the throttle says nothing about whether an account exists.
CREATE TABLE auth_failure (
    id        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    key       text        NOT NULL,
    failed_at timestamptz NOT NULL
);
CREATE INDEX auth_failure_key_idx ON auth_failure (key, failed_at);

-- Every store purchase the service accepted, each once: the unique token is
-- what refuses the same purchase a second time, from any member.
CREATE TABLE iap_purchase (
    id               bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    member_id        bigint      NOT NULL REFERENCES member (id) ON DELETE CASCADE,
    purchase_token   text        NOT NULL,
    product_id       text        NOT NULL,
    -- Whether the subscription renews; cancel and resume change it on the
    -- member's latest purchase too, so a restore brings back the current choice.
    auto_renew       boolean     NOT NULL,
    -- The plan expiry this purchase paid for (restore grants up to it).
    expires_at       timestamptz NOT NULL,
    -- The expiry the store reported; NULL for a test-mode purchase.
    store_expires_at timestamptz,
    test_mode        boolean     NOT NULL DEFAULT false,
    created_at       timestamptz NOT NULL,
    CONSTRAINT iap_purchase_purchase_token_key UNIQUE (purchase_token)
);
-- Restore and cancel read a member's latest purchase.
CREATE INDEX iap_purchase_member_idx ON iap_purchase (member_id, expires_at DESC, id DESC);

-- Exchange rates fetched from the FX provider, one per currency pair and
-- calendar day (APP_TIMEZONE), so that a pair costs one provider call a day
-- however many members and replicas ask.
CREATE TABLE fx_rate (
    from_currency text        NOT NULL CHECK (from_currency ~ '^[A-Z]{3}$'),
    to_currency   text        NOT NULL CHECK (to_currency ~ '^[A-Z]{3}$'),
    day           date        NOT NULL,
    rate          numeric     NOT NULL CHECK (rate > 0),
    -- The provider's own date of the rate (the last business day for a weekend).
    rate_date     date        NOT NULL,
    fetched_at    timestamptz NOT NULL,
    PRIMARY KEY (from_currency, to_currency, day)
);

-- A provider lookup of an FX pair and day that is under way or has just
-- failed. A request that finds no stored rate claims the pair and day here
-- ("fetching until"), commits, calls the provider with no database
-- connection held, then stores the rate and deletes the claim, or marks the
-- claim failed until a short time later: requests and replicas that find the
-- claim wait for the stored rate, and a miss is not asked again at once. A
-- claim whose holder died ends at "until" by itself.
CREATE TABLE fx_lookup (
    from_currency text        NOT NULL,
    to_currency   text        NOT NULL,
    day           date        NOT NULL,
    failed        boolean     NOT NULL,
    until         timestamptz NOT NULL,
    PRIMARY KEY (from_currency, to_currency, day)
);

-- Calls to outside services a member caused today, per kind, so that one
-- member (or one bad client) cannot spend the service's provider quota and
-- the replicas share one count. A request reserves its call with one
-- conditional upsert before calling; the day is in APP_TIMEZONE. A daily job
-- deletes the rows of past days.
CREATE TABLE outside_call_count (
    member_id bigint  NOT NULL REFERENCES member (id) ON DELETE CASCADE,
    kind      text    NOT NULL CHECK (kind IN ('FX', 'AI', 'OCR')),
    day       date    NOT NULL,
    calls     integer NOT NULL CHECK (calls > 0),
    PRIMARY KEY (member_id, kind, day)
);
CREATE INDEX outside_call_count_day ON outside_call_count (day);

-- Idempotency-Key: the first answer of a member's creating POST, kept 24
-- hours so that a retry with the same key gets it again. A row is written in
-- the same transaction as the effect it answers for, so a crash leaves both
-- or neither. There is no foreign key to member: the row is inserted last in
-- a transaction that already holds money rows, and the key share lock a
-- foreign key check takes on the member row would stand against the lock
-- order (member rows first). A deleted member's rows go with the hourly
-- cleanup, within a day (member ids are never reused).
CREATE TABLE idempotency_key (
    member_id    bigint      NOT NULL,
    key          text        NOT NULL CHECK (length(key) BETWEEN 1 AND 255),
    -- sha256 of the operation and its decoded request (path, parameters,
    -- body): the same key with another request is 422.
    fingerprint  bytea       NOT NULL,
    -- the first answer as its handler returned it (JSON of the value
    -- idempotency.Once stores), replayed as is
    answer       bytea       NOT NULL,
    created_at   timestamptz NOT NULL,
    -- The household book the key was used in (internal/book), 0 for the
    -- member's personal ledger: keys are scoped to the member and the book.
    book_id      bigint      NOT NULL DEFAULT 0,
    PRIMARY KEY (member_id, book_id, key)
);
-- Rows arrive in time order: a BRIN index lets the cleanup find old rows
-- while adding next to nothing to an insert.
CREATE INDEX idempotency_key_created_at_idx ON idempotency_key USING brin (created_at);

-- Heavy work under way (backup, restore, CSV import and export, account
-- deletion), one row per member: a lease that admits one such request of a
-- member at a time across replicas (DECISIONS section 10). It ends when its
-- request ends, or at `until` (the request's deadline) if the replica died.
-- No foreign key to member, for the reason idempotency_key has none; an
-- expired row is taken over by the member's next heavy request.
CREATE TABLE heavy_work (
    member_id  bigint      PRIMARY KEY,
    operation  text        NOT NULL,
    token      bytea       NOT NULL,
    started_at timestamptz NOT NULL,
    until      timestamptz NOT NULL
);

-- +goose Down
DROP TABLE heavy_work;
DROP TABLE idempotency_key;
DROP TABLE outside_call_count;
DROP TABLE fx_lookup;
DROP TABLE fx_rate;
DROP TABLE iap_purchase;
DROP TABLE auth_failure;
DROP TABLE job_run;
DROP TABLE signup_attempt;
DROP TABLE point_history;
DROP TABLE auth_session;
DROP TABLE member;
DROP TABLE app_setting;
