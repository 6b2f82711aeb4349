-- +goose Up
-- Payday months: the day of the calendar month on which the member's ledger
-- month begins ("November" with 25 is 25 November to 24 December). At most
-- 28 so that every month has the day.
ALTER TABLE member ADD COLUMN month_start_day smallint NOT NULL DEFAULT 1
    CHECK (month_start_day BETWEEN 1 AND 28);

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
    CHECK (end_date >= start_date),
    FOREIGN KEY (member_id, category_id) REFERENCES account_category (member_id, id) ON DELETE SET NULL (category_id)
);
CREATE INDEX budget_onetime_member_idx ON budget_onetime (member_id, start_date);
CREATE INDEX budget_onetime_category_idx ON budget_onetime (member_id, category_id);

-- +goose Down
DROP TABLE budget_onetime;
DROP TABLE budget_income;
DROP TABLE budget;
ALTER TABLE member DROP COLUMN month_start_day;
