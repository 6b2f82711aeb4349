-- +goose Up
-- A card's checkpoint (internal/cards, issue 45's speed): the closing day of
-- the last statement of the paid run that starts the card's history (every
-- statement up to it is paid) and what those statements took of the
-- payments dated after it (oldest first), so the bills, the payment-day job
-- and the forecast read only the entries after it. It is a cache of what the
-- ledger's rows give, never a source: it holds only while nothing dated on
-- or before it changed, which is judged from the changes feed
-- (ledger_change) past the position it was computed at (seq) in the feed's
-- epoch, and from the card's cycle (schedule, as it was computed under).
-- A stale checkpoint is recomputed from the whole history and replaced;
-- a restore (a new epoch) makes every one stale.
--
-- No foreign key to wallet: a GET that writes its checkpoint would take a
-- key-share lock on the card, and wait for a bill confirmation holding it
-- FOR UPDATE. A deleted card's row is left (ids are not reused; the member's
-- deletion takes it).
CREATE TABLE card_checkpoint (
    member_id    bigint NOT NULL REFERENCES member (id) ON DELETE CASCADE,
    wallet_id    bigint NOT NULL,
    closing_date date   NOT NULL,
    consumed     bigint NOT NULL CHECK (consumed >= 0),
    schedule     text   NOT NULL,
    seq          bigint NOT NULL,
    epoch        bigint NOT NULL,
    PRIMARY KEY (member_id, wallet_id)
);

-- The installment purchases of a member by date: a checkpoint's read takes
-- the purchases dated up to 25 statements before it whose slices may still
-- fall after it; with account_entry_member_date_idx for the entries after
-- it, the read is two index ranges instead of the member's whole history.
CREATE INDEX account_entry_installment_idx ON account_entry (member_id, entry_date) WHERE installment_months >= 2;

-- +goose Down
DROP INDEX account_entry_installment_idx;
DROP TABLE card_checkpoint;
