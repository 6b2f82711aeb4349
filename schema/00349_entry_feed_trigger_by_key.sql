-- +goose Up
-- The feed's trigger on account_entry (ledger_change_entry, 00320) finds
-- the wallets, transfers and budgets an entry write touched, each lookup
-- held to the writing members (`member_id = ANY(members)`). Like the tag
-- triggers (00348), it keeps its plans for the connection's life, and a
-- plan made while wallet held a few rows was a sequential scan of the whole
-- table: kept where no ANALYZE replaced it, every entry write then read
-- every member's wallets (5,001 rows a create, in
-- TestEntryWriteReadsNoOtherMembersRowsWhateverTheirNumberWhenPlanned,
-- after another member's 5,000 wallets). With enable_seqscan off its plans
-- read each table by the member's index, whatever size it had when they
-- were made.
ALTER FUNCTION ledger_change_entry() SET enable_seqscan = off;

-- +goose Down
ALTER FUNCTION ledger_change_entry() RESET enable_seqscan;
