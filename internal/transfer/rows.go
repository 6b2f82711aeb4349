package transfer

import (
	"context"

	"github.com/nestegg/nestegg/generated/db"
)

// Reads and writes of the transfer table for other areas (backup), inside
// their transaction (q).

// ForBackupTx answers a page of the member's transfers with their sides'
// wallets, by date, after arg's keyset.
func ForBackupTx(ctx context.Context, q *db.Queries, arg db.ListBackupTransfersParams) ([]db.ListBackupTransfersRow, error) {
	return q.ListBackupTransfers(ctx, arg)
}

// FeeEntryIDsTx answers the ids of the member's transfers' fee entries.
func FeeEntryIDsTx(ctx context.Context, q *db.Queries, memberID int64) ([]int64, error) {
	return q.ListFeeEntryIDs(ctx, memberID)
}

// CopyTx inserts many transfers with COPY (restore).
func CopyTx(ctx context.Context, q *db.Queries, arg []db.CopyTransfersParams) (int64, error) {
	return q.CopyTransfers(ctx, arg)
}

// InsertedIDsTx answers the ids of the member's transfers this transaction inserted, in order.
func InsertedIDsTx(ctx context.Context, q *db.Queries, memberID int64) ([]int64, error) {
	return q.ListTransferIDs(ctx, memberID)
}

// SetFeesTx points transfers at their fee entries, pairwise.
func SetFeesTx(ctx context.Context, q *db.Queries, arg db.SetTransferFeesParams) (int64, error) {
	return q.SetTransferFees(ctx, arg)
}
