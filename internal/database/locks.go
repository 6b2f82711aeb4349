package database

// LockOrder names the one order in which every transaction takes its row
// locks (FOR UPDATE, FOR NO KEY UPDATE, FOR SHARE, the locks UPDATE and DELETE
// take, and the key-share locks a foreign key check takes on the referenced
// row). Two transactions that lock rows in the same order cannot deadlock;
// each place that takes a lock says where it stands in this order. A path
// that cannot follow it exactly (it learns which rows it needs only after
// locking one) relies on InTx running a deadlock victim again.
//
//  0. in a household book, the writer's book_member row, FOR SHARE (the
//     membership held to the commit, book.Select's Hold, taken by
//     LockLedgerSharedTx and LockLedgerTx before the ledger lock), so a
//     removal or a role change waits for the writes in flight; then
//     the ledger's lock ("ledger:" id), the first lock of every
//     transaction that takes it (the rule: internal/ledger/locks.go). Every
//     ledger write holds it SHARED (entries, transfers, wallets, categories,
//     tags, recurring and quick entries, CSV import, card notifications and
//     their confirmation, the recurring job; the entry create inside its one
//     statement); restore and a member's deletion hold it EXCLUSIVELY, the
//     deletion before its DELETE locks the member row, so it stands before
//     member rows. Shared holders never wait for one another; nothing that
//     holds a lock below waits for this one.
//  1. member rows, several in ascending id (points.LockTx, and a member's
//     deletion, whose DELETE locks the member row before its cascade reaches
//     anything the member owns). Board writes lock the acting member (and a
//     vote the author too) before the post or comment, because the deletion
//     cascade goes member -> post/comment/vote (the counter triggers update the
//     post and the comment a deleted vote, comment or report belonged to).
//  2. per-member advisory locks, each taken after the ledger lock by the
//     writes that take both: the reservation lock ("ledger_limit:" id,
//     exclusive: free limits, default categories, CSV import's duplicate
//     check, which count and then insert) and card notifications
//     ("notify:" id).
//  3. money: stock, then its trades (a stock's DELETE cascades to its trades,
//     so trade edits lock the stock before the trade); transfer, then the
//     wallets it touches (key-share, ascending id), then category, then
//     entries (a wallet's deletion: see below; an edit or deletion of a
//     transfer's fee entry through the entries API locks the transfer before
//     the entry, as the transfer's own edit does),
//     then the wallets' rollup: the triggers on account_entry, at the end of
//     each statement that changes what counts in a balance, append to
//     wallet_net_delta, rows no one else locks, and when the member has
//     wallet_net_fold_at() of them try the member's advisory lock
//     "wallet_net:" id without waiting (pg_try_advisory_xact_lock, held to
//     the commit) and, holding it, fold them into the member's wallet_net
//     rows in key order; not getting it, they leave them. Only the lock's
//     holder writes a member's wallet_net rows, so writers never wait for
//     one another there and the rollup adds no deadlock between them. One
//     rare meeting remains, which InTx runs again: a wallet's deletion (its
//     cascade to wallet_net) at the moment another transaction folds old
//     deltas of that wallet (a new row's key-share lock on the wallet).
//     Tags stand beside entries, out of this order: an entry's edit locks
//     the entry, then key-shares the tags it links (ensure_member_tags
//     key-shares every tag it answers (schema/00002_ledger.sql), so a create's tags stay until
//     it commits); a tag's deletion locks
//     the tag, then its cascade (the links) and the version trigger lock its
//     entries, in ascending id (entry_tags_version). An edit and a deletion
//     meeting on one entry and one tag are a deadlock InTx runs again.
//     New tags are made by ensure_member_tags (schema/00002_ledger.sql), in name
//     order whatever order the request gave: a request that names a tag a
//     parallel one is making waits for that one's commit, and two requests
//     making the same new tags wait in one order rather than deadlock.
//     A wallet's deletion reads the wallet without a lock and locks its
//     entries (moving or deleting them) before its own DELETE locks it.
//     A recurring entry's row comes after these: the posting job
//     (ledger.PostRecurrings) updates it after the entry it posts, and before
//     them takes only a key-share lock on it, which conflicts with nothing but
//     its deletion.
//  4. board: post, then comment, then vote and report rows (the triggers
//     keeping the counters update post and comment rows after these).
//  5. the member's totals lock ("ledger_total:" id, issue 42): the write
//     check (ledger.CheckTotalsTx) takes it after every statement of a write
//     that moved money, shared for a single write (in its one check
//     statement), exclusive for a multi-row write (before its reads); its
//     holder only reads and commits, so it waits for nothing a waiter holds.
//
// The Idempotency-Key lock (issue 22) is the first statement of a create's
// transaction (idempotency.Once) but is only tried
// (pg_try_advisory_xact_lock, 409 when taken), never waited for, so it cannot
// take part in a deadlock. If-Match takes no lock of its own: the write's
// UPDATE or DELETE names the versions it may change, or the handler compares
// the version of the row it locked in its place above (internal/etag).
//
// Advisory locks that are not per member (sign-up and sign-in throttles,
// default categories, jobs) are taken alone, with no row lock held.
const LockOrder = "book_member (in a book, shared), ledger (shared by writes, exclusive by restore and deletion), member, member advisory, stock, trade, transfer, wallet, category, entry, wallet_net, post, comment, vote, ledger_total"
