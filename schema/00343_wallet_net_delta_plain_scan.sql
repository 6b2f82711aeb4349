-- +goose Up
-- wallet_net_delta (00300) is a queue: a burst of one member's parallel
-- writes appends rows that the member's next fold deletes. Until VACUUM
-- comes (a minute at best, never where autovacuum is off), the deleted
-- rows' index entries stay, all under the member's id. The fold's DELETE
-- read them with a bitmap scan, which visits every dead row again and marks
-- none: each write of a burst read all the deltas ever folded before it
-- (entry creates fell from 694 to 428 a second over three 10 s rounds of
-- make load, 2.5 ms a write after 44,649 deltas). A plain index scan marks
-- a dead row's entry once, and later scans pass it by (btree drops marked
-- entries before it splits a page), so wallet_net_add does without bitmap
-- scans. The queue is also vacuumed after a thousand dead rows, not after a
-- fifth of its size, which for a table that is usually empty is at once.
ALTER FUNCTION wallet_net_add(bigint[], bigint[], date[], numeric[]) SET enable_bitmapscan = off;
ALTER TABLE wallet_net_delta SET (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 1000);

-- +goose Down
ALTER TABLE wallet_net_delta RESET (autovacuum_vacuum_scale_factor, autovacuum_vacuum_threshold);
ALTER FUNCTION wallet_net_add(bigint[], bigint[], date[], numeric[]) RESET enable_bitmapscan;
