// Package points keeps members' point balances and their history. Other areas
// (the board, the month-complete bonus) change balances through this package,
// inside their own transactions.
package points

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/member"
	"github.com/nestegg/nestegg/internal/session"
)

// historyLimit is how many of the newest point records the history shows.
const historyLimit = 100

// PointsHandler implements the points operations of the contract.
type PointsHandler struct {
	pool *pgxpool.Pool
}

// NewHandler returns the points handler.
func NewHandler(pool *pgxpool.Pool) *PointsHandler { return &PointsHandler{pool: pool} }

// GetPoints answers the member's point balance.
func (h *PointsHandler) GetPoints(ctx context.Context, _ api.GetPointsRequestObject) (api.GetPointsResponseObject, error) {
	points, err := Balance(ctx, db.New(h.pool), session.PrincipalFrom(ctx).MemberID)
	if err != nil {
		return nil, err
	}
	return api.GetPoints200JSONResponse{Points: points}, nil
}

// Balance returns the member's point balance.
func Balance(ctx context.Context, q *db.Queries, memberID int64) (int64, error) {
	points, err := q.GetMemberPoints(ctx, memberID)
	if err != nil {
		return 0, member.Self(err, memberID)
	}
	return points, nil
}

// GetPointHistory answers the member's newest point records, newest first.
func (h *PointsHandler) GetPointHistory(ctx context.Context, _ api.GetPointHistoryRequestObject) (api.GetPointHistoryResponseObject, error) {
	items, err := History(ctx, db.New(h.pool), session.PrincipalFrom(ctx).MemberID)
	if err != nil {
		return nil, err
	}
	return api.GetPointHistory200JSONResponse{Items: items}, nil
}

// History returns the member's newest point records, newest first.
func History(ctx context.Context, q *db.Queries, memberID int64) ([]api.PointRecord, error) {
	rows, err := q.ListPointHistory(ctx, db.ListPointHistoryParams{MemberID: memberID, Lim: historyLimit})
	if err != nil {
		return nil, fmt.Errorf("point history of member %d: %w", memberID, err)
	}
	items := make([]api.PointRecord, len(rows))
	for i, r := range rows {
		items[i] = api.PointRecord{Points: r.Points, Reason: r.Reason, CreatedAt: r.CreatedAt}
	}
	return items, nil
}
