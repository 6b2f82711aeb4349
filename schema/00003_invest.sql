-- +goose Up
-- Investments. A stock's optional wallet refers to (member_id, id) like the
-- ledger's tables, so the database refuses another member's wallet; deleting
-- the wallet only unlinks its stocks.
CREATE TABLE stock (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    member_id  bigint      NOT NULL REFERENCES member (id) ON DELETE CASCADE,
    code       text        NOT NULL,
    name       text        NOT NULL,
    market     text,
    currency   text        NOT NULL DEFAULT 'KRW',
    wallet_id  bigint,
    created_at timestamptz NOT NULL DEFAULT now(),
    version    bigint      NOT NULL DEFAULT 1,
    UNIQUE (member_id, id),
    FOREIGN KEY (member_id, wallet_id) REFERENCES wallet (member_id, id) ON DELETE SET NULL (wallet_id)
);
CREATE INDEX stock_member_idx ON stock (member_id, id);
CREATE INDEX stock_wallet_idx ON stock (member_id, wallet_id);

CREATE TABLE invest_trade (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    member_id  bigint         NOT NULL REFERENCES member (id) ON DELETE CASCADE,
    stock_id   bigint         NOT NULL,
    side       text           NOT NULL CHECK (side IN ('BUY', 'SELL')),
    trade_date date           NOT NULL,
    quantity   DECIMAL(18, 6) NOT NULL CHECK (quantity > 0),
    price      DECIMAL(18, 6) NOT NULL CHECK (price >= 0),
    fee        DECIMAL(18, 6) NOT NULL DEFAULT 0 CHECK (fee >= 0),
    created_at timestamptz    NOT NULL DEFAULT now(),
    version    bigint         NOT NULL DEFAULT 1,
    FOREIGN KEY (member_id, stock_id) REFERENCES stock (member_id, id) ON DELETE CASCADE
);
-- Replays read a stock's trades in date, then creation, order.
CREATE INDEX invest_trade_stock_idx ON invest_trade (member_id, stock_id, trade_date, id);
CREATE INDEX invest_trade_member_date_idx ON invest_trade (member_id, trade_date DESC, id DESC);

-- Quotes are shared by code (they are public prices), one row per code and
-- day in APP_TIMEZONE: the latest answer of that day. The net-worth trend
-- reads the last quote on or before each of its days.
CREATE TABLE stock_quote (
    code       text           NOT NULL,
    quote_day  date           NOT NULL,
    price      numeric        NOT NULL,
    currency   text           NOT NULL,
    quoted_at  timestamptz    NOT NULL,
    PRIMARY KEY (code, quote_day)
);

-- +goose Down
DROP TABLE stock_quote;
DROP TABLE invest_trade;
DROP TABLE stock;
