package database

// LockOrder names the one order in which every transaction takes its row
// locks (FOR UPDATE, FOR NO KEY UPDATE, FOR SHARE, the locks UPDATE and DELETE
// take, and the key-share locks a foreign key check takes on the referenced
// row). Two transactions that lock rows in the same order cannot deadlock;
// each place that takes a lock says where it stands in this order. A path
// that cannot follow it exactly (it learns which rows it needs only after
// locking one) relies on InTx running a deadlock victim again.
//
//  1. member rows, several in ascending id (points.LockTx, and a member's
//     deletion, whose DELETE locks the member row before its cascade reaches
//     anything the member owns). Board writes lock the acting member (and a
//     vote the author too) before the post or comment, because the deletion
//     cascade goes member -> post/comment/vote (the counter triggers update the
//     post and the comment a deleted vote, comment or report belonged to).
//  2. per-member advisory locks: the ledger ("ledger:" id, free limits and
//     restore) and card notifications ("notify:" id).
//  3. money: stock, then its trades (a stock's DELETE cascades to its trades,
//     so trade edits lock the stock before the trade); transfer, then the
//     wallets it touches (key-share, ascending id), then category, then
//     entries (a wallet's deletion locks the wallet before it moves entries),
//     then the wallets' rollup: the triggers on account_entry, at the end of
//     each statement that changes what counts in a balance, take the
//     member's advisory lock "wallet_net:" id (several members in ascending
//     id) and then its wallet_net rows in key order, and hold them to the
//     commit. So one transaction at a time holds a member's rollup rows, and
//     two transactions writing entries of two wallets in opposite orders (a
//     transfer each way) wait for each other instead of deadlocking. Two
//     paths lock something earlier after a counting entry write and can meet
//     a member's own parallel request in a deadlock that InTx runs again: a
//     transfer's update locks its fee entry after writing its sides (against
//     an edit of that fee entry), and an entry written on a wallet holds the
//     wallet's key-share lock while a deletion of that wallet with moveTo
//     has moved its entries and waits to delete it.
//  4. board: post, then comment, then vote and report rows (the triggers
//     keeping the counters update post and comment rows after these).
//
// Advisory locks that are not per member (sign-up and sign-in throttles,
// default categories, jobs) are taken alone, with no row lock held.
const LockOrder = "member, member advisory, stock, trade, transfer, wallet, category, entry, wallet_net, post, comment, vote"
