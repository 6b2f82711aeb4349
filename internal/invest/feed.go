package invest

import (
	"context"
	"fmt"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
)

// StocksByID answers these stocks (a member holds few: all are read once);
// the changes feed renders a page's stocks with it.
func StocksByID(ctx context.Context, q *db.Queries, memberID int64, ids []int64) (map[int64]api.Stock, error) {
	rows, err := q.ListStocks(ctx, memberID)
	if err != nil {
		return nil, fmt.Errorf("stocks of member %d: %w", memberID, err)
	}
	want := make(map[int64]bool, len(ids))
	for _, id := range ids {
		want[id] = true
	}
	out := make(map[int64]api.Stock, len(ids))
	for _, r := range rows {
		if want[r.ID] {
			out[r.ID] = toAPIStock(r)
		}
	}
	return out, nil
}

// TradesByID answers these trades in one read.
func TradesByID(ctx context.Context, q *db.Queries, memberID int64, ids []int64) (map[int64]api.Trade, error) {
	rows, err := q.ListTradesByIDs(ctx, db.ListTradesByIDsParams{MemberID: memberID, Ids: ids})
	if err != nil {
		return nil, fmt.Errorf("trades of member %d: %w", memberID, err)
	}
	out := make(map[int64]api.Trade, len(rows))
	for _, r := range rows {
		out[r.ID] = toAPITrade(r)
	}
	return out, nil
}
