-- +goose Up
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

-- +goose Down
DROP TABLE fx_rate;
