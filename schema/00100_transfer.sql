-- +goose Up
-- A transfer moves money between two of a member's wallets. It is recorded
-- as a linked pair of entries (account_entry.transfer_id): the EXPENSE side
-- on the wallet it leaves, the INCOME side on the wallet it reaches. The
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
    UNIQUE (member_id, id)
);
CREATE INDEX transfer_member_date_idx ON transfer (member_id, transfer_date DESC, id DESC);

ALTER TABLE account_entry
    ADD CONSTRAINT account_entry_transfer_fkey
    FOREIGN KEY (member_id, transfer_id) REFERENCES transfer (member_id, id) ON DELETE CASCADE;
-- Finds a transfer's sides, and serves the cascade.
CREATE INDEX account_entry_transfer_idx ON account_entry (transfer_id) WHERE transfer_id IS NOT NULL;

-- +goose Down
DROP INDEX account_entry_transfer_idx;
ALTER TABLE account_entry DROP CONSTRAINT account_entry_transfer_fkey;
DROP TABLE transfer;
