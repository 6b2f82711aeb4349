package ledger

import (
	"context"
	"errors"

	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/problem"
)

// Reads and writes of the ledger's tables for other areas (backup, transfer,
// intake, budget, invest), inside their transaction (q): the ledger owns
// these tables, and no other area calls their queries itself.

// ListTagsTx answers the member's tags in their order.
func ListTagsTx(ctx context.Context, q *db.Queries, memberID int64) ([]db.AccountTag, error) {
	return q.ListTags(ctx, memberID)
}

// ListCategoriesTx answers the member's categories in their order.
func ListCategoriesTx(ctx context.Context, q *db.Queries, memberID int64) ([]db.AccountCategory, error) {
	return q.ListCategories(ctx, memberID)
}

// EntriesForBackupTx answers a page of the member's entries that are not
// transfer sides, oldest first, after arg's keyset, each with its tag names.
func EntriesForBackupTx(ctx context.Context, q *db.Queries, arg db.ListBackupEntriesParams) ([]db.ListBackupEntriesRow, error) {
	return q.ListBackupEntries(ctx, arg)
}

// ListRecurringsTx answers the member's recurring entries.
func ListRecurringsTx(ctx context.Context, q *db.Queries, memberID int64) ([]db.Recurring, error) {
	return q.ListRecurrings(ctx, memberID)
}

// ListQuickEntriesTx answers the member's quick entries.
func ListQuickEntriesTx(ctx context.Context, q *db.Queries, memberID int64) ([]db.QuickEntry, error) {
	return q.ListQuickEntries(ctx, memberID)
}

// WalletsForBackupTx answers the member's wallets in their order.
func WalletsForBackupTx(ctx context.Context, q *db.Queries, memberID int64) ([]db.Wallet, error) {
	return q.ListBackupWallets(ctx, memberID)
}

// EnsureTagRowsTx creates the member's tags of the names that do not exist
// yet and answers every name's row, each key-share locked until the caller
// commits (ensure_member_tags). A tag deleted by a parallel request between the INSERT
// and the lock is missing from the first answer; a second pass makes it
// again, as EnsureTagsTx does.
func EnsureTagRowsTx(ctx context.Context, q *db.Queries, arg db.EnsureTagsParams) ([]db.EnsureTagsRow, error) {
	rows, err := q.EnsureTags(ctx, arg)
	if err == nil && len(rows) < len(distinct(arg.Names)) {
		rows, err = q.EnsureTags(ctx, arg)
	}
	if err == nil && len(rows) < len(distinct(arg.Names)) {
		return nil, problem.Busy(errors.New("ensure tags: a tag was deleted twice while it was made"))
	}
	return rows, err
}

// distinct answers names without repeats.
func distinct(names []string) map[string]bool {
	out := make(map[string]bool, len(names))
	for _, n := range names {
		out[n] = true
	}
	return out
}

// CopyEntriesTx inserts many entries with COPY (restore).
func CopyEntriesTx(ctx context.Context, q *db.Queries, arg []db.CopyEntriesParams) (int64, error) {
	n, err := q.CopyEntries(ctx, arg)
	// A wallet or category deleted since the caller resolved it answers
	// as a check that missed it would, not as a 500.
	return n, refGone(err, "copy entries")
}

// InsertedEntryIDsTx answers the ids of the member's entries this transaction inserted, in order.
func InsertedEntryIDsTx(ctx context.Context, q *db.Queries, memberID int64) ([]int64, error) {
	return q.ListEntryIDs(ctx, memberID)
}

// CopyEntryTagsTx inserts many entry tags with COPY (restore).
func CopyEntryTagsTx(ctx context.Context, q *db.Queries, arg []db.CopyEntryTagsParams) (int64, error) {
	return q.CopyEntryTags(ctx, arg)
}

// GetCategoryTx answers one of the member's categories (pgx.ErrNoRows for none).
func GetCategoryTx(ctx context.Context, q *db.Queries, arg db.GetCategoryParams) (db.AccountCategory, error) {
	return q.GetCategory(ctx, arg)
}

// GetWalletTx answers one of the member's wallets (pgx.ErrNoRows for none).
func GetWalletTx(ctx context.Context, q *db.Queries, arg db.GetWalletParams) (db.Wallet, error) {
	return q.GetWallet(ctx, arg)
}

// ListWalletNamesTx answers the member's wallets' ids, names and types in their order.
func ListWalletNamesTx(ctx context.Context, q *db.Queries, memberID int64) ([]db.ListNotifyWalletsRow, error) {
	return q.ListNotifyWallets(ctx, memberID)
}

// EntryByNotifKeyTx answers the member's entry recorded from the notification key (pgx.ErrNoRows for none).
func EntryByNotifKeyTx(ctx context.Context, q *db.Queries, arg db.GetEntryByNotifKeyParams) (db.AccountEntry, error) {
	return q.GetEntryByNotifKey(ctx, arg)
}

// MostUsedCategoryForMemoTx answers the category most used by the member's confirmed entries of a type whose memo matches.
func MostUsedCategoryForMemoTx(ctx context.Context, q *db.Queries, arg db.MostUsedCategoryForMemoParams) (int64, error) {
	return q.MostUsedCategoryForMemo(ctx, arg)
}

// FindCancelledEntryTx finds and locks the latest expense a card cancellation undoes.
func FindCancelledEntryTx(ctx context.Context, q *db.Queries, arg db.FindCancelledEntryParams) (db.AccountEntry, error) {
	return q.FindCancelledEntry(ctx, arg)
}

// DeleteEntryTx deletes one of the member's entries as it is (no transfer check: the caller owns that rule).
func DeleteEntryTx(ctx context.Context, q *db.Queries, arg db.DeleteEntryParams) (int64, error) {
	return q.DeleteEntry(ctx, arg)
}

// ListEntryTagsTx answers the tag names of the member's entries.
func ListEntryTagsTx(ctx context.Context, q *db.Queries, arg db.ListEntryTagsParams) ([]db.ListEntryTagsRow, error) {
	return q.ListEntryTags(ctx, arg)
}

// TransferSidesTx answers the sides of a transfer.
func TransferSidesTx(ctx context.Context, q *db.Queries, arg db.ListTransferSidesParams) ([]db.ListTransferSidesRow, error) {
	return q.ListTransferSides(ctx, arg)
}

// GetEntryForUpdateTx answers and locks one of the member's entries.
func GetEntryForUpdateTx(ctx context.Context, q *db.Queries, arg db.GetEntryForUpdateParams) (db.AccountEntry, error) {
	return q.GetEntryForUpdate(ctx, arg)
}

// MaxEntryAmount is the largest amount an entry may have (10^15 won).
const MaxEntryAmount = maxAmount

// EntriesForExportTx answers one batch of a period's confirmed entries with
// their wallet, category and tag names, after the arg's keyset (CSV export).
func EntriesForExportTx(ctx context.Context, q *db.Queries, arg db.ListEntriesForExportParams) ([]db.ListEntriesForExportRow, error) {
	return q.ListEntriesForExport(ctx, arg)
}

// CountEntriesByKeyTx answers how many of the member's entries of a period
// have each date, type, amount and memo (CSV import's duplicate check).
func CountEntriesByKeyTx(ctx context.Context, q *db.Queries, arg db.CountEntriesByKeyParams) ([]db.CountEntriesByKeyRow, error) {
	return q.CountEntriesByKey(ctx, arg)
}

// ConfirmTransferSidesTx confirms both sides of a pending transfer and
// answers how many it confirmed (0: confirmed already). The caller holds the
// transfer's row lock.
func ConfirmTransferSidesTx(ctx context.Context, q *db.Queries, memberID, transferID int64) (int64, error) {
	return q.ConfirmTransferSides(ctx, db.ConfirmTransferSidesParams{MemberID: memberID, TransferID: transferID})
}
