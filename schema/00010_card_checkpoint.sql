-- +goose Up
-- A card's checkpoint (internal/cards, issue 45's speed): the closing day of
-- a statement of the paid run that starts the card's history (every
-- statement up to it is paid), what those statements took of the payments
-- dated after it (oldest first), and the slices the installment purchases
-- dated up to it put in the statements after it (carry: per statement
-- closing after it, the sum), so the bills, the payment-day job and the
-- forecast read only the entries dated after it. It is a cache of what the
-- ledger's rows give, never a source: it holds only while nothing dated on
-- or before it changed, which is judged from the changes feed
-- (ledger_change past the position it was computed at, seq, and the notes
-- not folded yet) in the feed's epoch: a change counts unless the
-- transaction that wrote it was visible to the snapshot the checkpoint was
-- computed in (snapshot), and under the card's cycle it was computed under
-- (schedule). A
-- checkpoint that does not hold is recomputed from the whole history and
-- replaced; a restore (a new epoch) makes every one not hold.
--
-- No foreign key to wallet: a GET that writes its checkpoint would take a
-- key-share lock on the card, and wait for a bill confirmation holding it
-- FOR UPDATE. A deleted card's row is left (ids are not reused; the member's
-- deletion takes it).
CREATE TABLE card_checkpoint (
    member_id      bigint   NOT NULL REFERENCES member (id) ON DELETE CASCADE,
    wallet_id      bigint   NOT NULL,
    closing_date   date     NOT NULL,
    consumed       bigint   NOT NULL CHECK (consumed >= 0),
    carry_closings date[]   NOT NULL,
    carry_amounts  bigint[] NOT NULL CHECK (cardinality(carry_amounts) = cardinality(carry_closings)),
    schedule       text     NOT NULL,
    seq            bigint   NOT NULL,
    snapshot       pg_snapshot NOT NULL,
    epoch          bigint   NOT NULL,
    PRIMARY KEY (member_id, wallet_id)
);

-- A card's entries by date: the cards' read (ListCycleCards) takes each
-- card's entries after its checkpoint as one range of it.
CREATE INDEX account_entry_wallet_date_idx ON account_entry (member_id, wallet_id, entry_date);

-- +goose Down
DROP INDEX account_entry_wallet_date_idx;
DROP TABLE card_checkpoint;
