-- +goose Up
-- A fee entry's transfer, by the entry: the changes feed's entry trigger
-- (00320) finds the transfer whose fee an entry is, and deleting an entry
-- (fee_entry_id ON DELETE SET NULL) no longer scans every transfer.
CREATE INDEX transfer_fee_entry_idx ON transfer (fee_entry_id) WHERE fee_entry_id IS NOT NULL;

-- +goose Down
DROP INDEX transfer_fee_entry_idx;
