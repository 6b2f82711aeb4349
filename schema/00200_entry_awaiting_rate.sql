-- +goose Up
-- A card notification of a foreign-currency payment that prints no won
-- amount is stored even when no exchange rate can be had (DECISIONS.md
-- section 9): pending, with its currency and original amount, amount 0 and
-- no rate. Such an entry awaits its rate; the won amount is filled in when
-- it is confirmed. The rule is kept here, once, for the code and the queries.
ALTER TABLE account_entry ADD COLUMN awaiting_rate boolean NOT NULL
    GENERATED ALWAYS AS (pending AND currency IS NOT NULL AND exchange_rate IS NULL AND amount = 0) STORED;

-- +goose Down
ALTER TABLE account_entry DROP COLUMN awaiting_rate;
