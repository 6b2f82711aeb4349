package ledger

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/internal/session"
)

// The ledger's one concurrency rule (issue 41; database.LockOrder places it
// first among the locks):
//
//   - Every write of a member's ledger (wallets, categories, tags, entries,
//     transfers, recurring and quick entries, budgets, one-time budgets and
//     expected income: create, edit, delete; CSV import; card notification
//     intake and confirmation; the recurring job) holds the member's ledger lock ("ledger:" id) in SHARED mode from
//     its transaction's first statement (writeTx, LockLedgerSharedTx; the
//     entry create, one statement, takes it inside CreateEntryChecked).
//     Writes do not wait for one another here.
//   - In a household book the write holds its writer's membership first,
//     before the ledger lock (holdBookTx: a share lock on their book_member
//     row, the role checked again), so a removal or demotion waits for the
//     writes in flight and the writes after it are refused (404, 403).
//     Membership changes lock the book, then book_member rows, then (a
//     book's deletion) the ledger lock exclusively: the same order.
//   - Restore and account deletion, which replace or remove the whole
//     ledger, hold it EXCLUSIVELY (LockLedgerTx): they wait for the writes
//     in flight and the writes that come meanwhile wait for them, so no
//     write meets a ledger half deleted.
//   - A record a write names (wallet, category, tag) is locked or checked in
//     the statement that writes it: the foreign keys of the entry's row take
//     a key-share lock on its wallet and category, and ensure_member_tags
//     (ensure_member_tags) one on its tags. A record deleted by a parallel request is
//     then the 404 a check that missed it answers (refGone), never a 500.
//   - Writes that count and then insert (free limits, default categories,
//     CSV import's duplicate check) take, after the shared lock, the
//     member's reservation lock ("ledger_limit:" id) exclusively
//     (lockReservations): they go one after another among themselves
//     without making every other write wait. A shared holder asking for the
//     exclusive "ledger:" key would wait for itself to leave (two of them
//     deadlock); a key of its own avoids that upgrade.
//   - A write that moves money (an entry's create, edit, deletion or
//     confirmation, a transfer's, a CSV import, a restore) ends with the
//     write check (totals.go): the member's totals lock ("ledger_total:" id)
//     last, shared by a single write inside its one check statement,
//     exclusive by a multi-row write before its reads, then the commit.
//     Single writes never wait for each other; the rest never take it.

// holdBookTx holds, in a household book, the writer's membership through
// the write (session.BookScope.Hold: a share lock on their book_member row,
// the role checked again): a removal or a demotion waits for the writes in
// flight, and a write that started before them but reaches this after
// they committed answers 404 (403 for a demotion) rather than commit.
// It comes before the ledger lock (database.LockOrder). Nothing to do in a
// personal ledger, or for another ledger than the request's book's.
func holdBookTx(ctx context.Context, q *db.Queries, memberID int64) error {
	p := session.PrincipalFrom(ctx)
	if p == nil || p.Book == nil || p.Book.Hold == nil || p.MemberID != memberID {
		return nil
	}
	return p.Book.Hold(ctx, q)
}

// LockLedgerTx takes the member's ledger lock exclusively for the
// transaction: restore and account deletion only.
func LockLedgerTx(ctx context.Context, q *db.Queries, memberID int64) error {
	if err := holdBookTx(ctx, q, memberID); err != nil {
		return err
	}
	if err := q.LockMemberLedger(ctx, memberID); err != nil {
		return fmt.Errorf("lock ledger of member %d: %w", memberID, err)
	}
	return nil
}

// LockLedgerSharedTx takes the member's ledger lock in shared mode for the
// transaction, as every ledger write does first (other areas' writes of
// ledger records: transfers, CSV import, card notifications). Taking it
// again in the same transaction costs one statement and changes nothing.
func LockLedgerSharedTx(ctx context.Context, q *db.Queries, memberID int64) error {
	if err := holdBookTx(ctx, q, memberID); err != nil {
		return err
	}
	if err := q.LockMemberLedgerShared(ctx, memberID); err != nil {
		return fmt.Errorf("lock ledger of member %d (shared): %w", memberID, err)
	}
	return nil
}

// LockReservationsTx serialises the member's count-then-insert writes (a
// free limit, CSV import's duplicate check) under the shared ledger lock,
// which it takes first.
func LockReservationsTx(ctx context.Context, q *db.Queries, memberID int64) error {
	if err := LockLedgerSharedTx(ctx, q, memberID); err != nil {
		return err
	}
	if err := q.LockMemberLedgerReservations(ctx, memberID); err != nil {
		return fmt.Errorf("lock reservations of member %d: %w", memberID, err)
	}
	return nil
}

// writeTx runs fn in a transaction that holds the member's ledger lock in
// shared mode from its first statement: the transaction of every ledger
// write of this package's handlers.
func writeTx(ctx context.Context, pool *pgxpool.Pool, memberID int64, fn func(q *db.Queries) error) error {
	return database.InTx(ctx, pool, func(q *db.Queries) error {
		if err := LockLedgerSharedTx(ctx, q, memberID); err != nil {
			return err
		}
		return fn(q)
	})
}

// WriteTxV is writeTx for work that answers a value; the other areas whose
// records are ledger data (budgets, one-time budgets, expected income: a
// restore replaces them too) write through it as well.
func WriteTxV[T any](ctx context.Context, pool *pgxpool.Pool, memberID int64, fn func(q *db.Queries) (T, error)) (T, error) {
	return database.InTxV(ctx, pool, func(q *db.Queries) (T, error) {
		if err := LockLedgerSharedTx(ctx, q, memberID); err != nil {
			var zero T
			return zero, err
		}
		return fn(q)
	})
}
