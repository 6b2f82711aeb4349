package transfer

import (
	"context"
	"fmt"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/ledger"
)

// ByID answers these transfers as their GET does, by id, in one read (the
// changes feed renders a page's transfers with it).
func ByID(ctx context.Context, q *db.Queries, memberID int64, ids []int64) (map[int64]api.Transfer, error) {
	rows, err := q.ListTransfersByIDs(ctx, db.ListTransfersByIDsParams{MemberID: memberID, Ids: ids})
	if err != nil {
		return nil, fmt.Errorf("transfers of member %d: %w", memberID, err)
	}
	att, err := ledger.AttributionOf(ctx)
	if err != nil {
		return nil, err
	}
	out := make(map[int64]api.Transfer, len(rows))
	for _, r := range rows {
		out[r.ID] = toAPI(att, Transfer(r))
	}
	return out, nil
}
