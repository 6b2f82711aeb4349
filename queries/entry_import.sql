-- name: ListImportedRowHashes :many
-- Which of the hashes an earlier import of the member recorded.
SELECT row_hash FROM account_entry_import
WHERE member_id = @member_id AND row_hash = ANY(@hashes::bytea[]);

-- name: CopyImportedRows :copyfrom
INSERT INTO account_entry_import (member_id, row_hash, entry_id) VALUES (@member_id, @row_hash, @entry_id);
