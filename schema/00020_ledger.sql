-- +goose Up
-- The household ledger. Child records refer to a wallet or category through
-- (member_id, id), so the database itself refuses a reference to another
-- member's record, whatever the code above it does.
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
    sort_order       integer      NOT NULL,
    created_at       timestamptz  NOT NULL DEFAULT now(),
    UNIQUE (member_id, id)
);
-- The free limit counts a member's wallets of one type.
CREATE INDEX wallet_member_type_idx ON wallet (member_id, type);

CREATE TABLE account_category (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    member_id  bigint      NOT NULL REFERENCES member (id) ON DELETE CASCADE,
    parent_id  bigint,
    name       text        NOT NULL,
    type       text        NOT NULL,
    sort_order integer     NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
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
    UNIQUE (member_id, id),
    CONSTRAINT account_tag_member_name_key UNIQUE (member_id, name)
);

CREATE TABLE account_entry (
    id                 bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    member_id          bigint      NOT NULL REFERENCES member (id) ON DELETE CASCADE,
    wallet_id          bigint,
    category_id        bigint,
    type               text        NOT NULL,
    amount             bigint      NOT NULL,
    entry_date         date        NOT NULL,
    memo               text        NOT NULL DEFAULT '',
    currency           text,
    original_amount    numeric,
    exchange_rate      numeric,
    installment_months integer,
    pending            boolean     NOT NULL DEFAULT false,
    notif_key          text,
    -- Links the two entries of a transfer (issue 13 adds its table and key).
    transfer_id        bigint,
    created_at         timestamptz NOT NULL DEFAULT now(),
    UNIQUE (member_id, id),
    FOREIGN KEY (member_id, wallet_id) REFERENCES wallet (member_id, id),
    FOREIGN KEY (member_id, category_id) REFERENCES account_category (member_id, id)
);
-- Month lists read a member's entries by date, newest first.
CREATE INDEX account_entry_member_date_idx ON account_entry (member_id, entry_date DESC, created_at DESC, id DESC);
CREATE INDEX account_entry_wallet_idx ON account_entry (member_id, wallet_id);
CREATE INDEX account_entry_category_idx ON account_entry (member_id, category_id);
CREATE INDEX account_entry_pending_idx ON account_entry (member_id) WHERE pending;
CREATE UNIQUE INDEX account_entry_notif_key_idx ON account_entry (member_id, notif_key) WHERE notif_key IS NOT NULL;

CREATE TABLE account_entry_tag (
    entry_id bigint NOT NULL REFERENCES account_entry (id) ON DELETE CASCADE,
    tag_id   bigint NOT NULL REFERENCES account_tag (id) ON DELETE CASCADE,
    PRIMARY KEY (entry_id, tag_id)
);
CREATE INDEX account_entry_tag_tag_idx ON account_entry_tag (tag_id);

CREATE TABLE recurring (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    member_id   bigint      NOT NULL REFERENCES member (id) ON DELETE CASCADE,
    name        text        NOT NULL,
    type        text        NOT NULL,
    amount      bigint      NOT NULL,
    wallet_id   bigint,
    category_id bigint,
    day         integer     NOT NULL,
    memo        text        NOT NULL DEFAULT '',
    created_at  timestamptz NOT NULL DEFAULT now(),
    FOREIGN KEY (member_id, wallet_id) REFERENCES wallet (member_id, id),
    FOREIGN KEY (member_id, category_id) REFERENCES account_category (member_id, id)
);
CREATE INDEX recurring_member_idx ON recurring (member_id);

CREATE TABLE quick_entry (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    member_id   bigint      NOT NULL REFERENCES member (id) ON DELETE CASCADE,
    name        text        NOT NULL,
    type        text        NOT NULL,
    amount      bigint      NOT NULL,
    wallet_id   bigint,
    category_id bigint,
    memo        text        NOT NULL DEFAULT '',
    tags        text[]      NOT NULL DEFAULT '{}',
    created_at  timestamptz NOT NULL DEFAULT now(),
    FOREIGN KEY (member_id, wallet_id) REFERENCES wallet (member_id, id),
    FOREIGN KEY (member_id, category_id) REFERENCES account_category (member_id, id)
);
CREATE INDEX quick_entry_member_idx ON quick_entry (member_id);

CREATE TABLE default_category (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    parent_id  bigint REFERENCES default_category (id),
    name       text    NOT NULL,
    type       text    NOT NULL,
    sort_order integer NOT NULL
);
CREATE INDEX default_category_parent_idx ON default_category (parent_id);

-- +goose Down
DROP TABLE default_category;
DROP TABLE quick_entry;
DROP TABLE recurring;
DROP TABLE account_entry_tag;
DROP TABLE account_entry;
DROP TABLE account_tag;
DROP TABLE account_category;
DROP TABLE wallet;
