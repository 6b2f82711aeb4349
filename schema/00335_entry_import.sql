-- +goose Up
-- CSV import (issue 24) remembers each row it created: a hash of the row's
-- normalised values and its occurrence in its file, so the same row imported
-- again is a duplicate even after the member edited the entry. The hash goes
-- with its entry: an entry deleted may be imported again.
CREATE TABLE account_entry_import (
    member_id  bigint      NOT NULL,
    row_hash   bytea       NOT NULL,
    entry_id   bigint      NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (member_id, row_hash),
    FOREIGN KEY (member_id, entry_id) REFERENCES account_entry (member_id, id) ON DELETE CASCADE
);
CREATE INDEX account_entry_import_entry_idx ON account_entry_import (entry_id);

-- +goose Down
DROP TABLE account_entry_import;
