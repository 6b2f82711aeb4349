-- +goose Up
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

-- +goose Down
DROP TABLE iap_purchase;
