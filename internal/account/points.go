package account

import (
	"context"
	"fmt"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/member"
	"github.com/nestegg/nestegg/internal/session"
)

// pointHistoryLimit is how many of the newest point records the history shows.
const pointHistoryLimit = 100

// GetPoints answers the member's point balance.
func (h *AccountHandler) GetPoints(ctx context.Context, _ api.GetPointsRequestObject) (api.GetPointsResponseObject, error) {
	points, err := balance(ctx, db.New(h.pool), session.PrincipalFrom(ctx).MemberID)
	if err != nil {
		return nil, err
	}
	return api.GetPoints200JSONResponse{Points: points}, nil
}

func balance(ctx context.Context, q *db.Queries, id int64) (int64, error) {
	points, err := q.GetMemberPoints(ctx, id)
	if err != nil {
		return 0, member.Self(err, id)
	}
	return points, nil
}

// GetPointHistory answers the member's newest point records, newest first.
func (h *AccountHandler) GetPointHistory(ctx context.Context, _ api.GetPointHistoryRequestObject) (api.GetPointHistoryResponseObject, error) {
	items, err := history(ctx, db.New(h.pool), session.PrincipalFrom(ctx).MemberID)
	if err != nil {
		return nil, err
	}
	return api.GetPointHistory200JSONResponse{Items: items}, nil
}

func history(ctx context.Context, q *db.Queries, id int64) ([]api.PointRecord, error) {
	rows, err := q.ListPointHistory(ctx, db.ListPointHistoryParams{MemberID: id, Lim: pointHistoryLimit})
	if err != nil {
		return nil, fmt.Errorf("point history of member %d: %w", id, err)
	}
	items := make([]api.PointRecord, len(rows))
	for i, r := range rows {
		items[i] = api.PointRecord{Points: r.Points, Reason: r.Reason, CreatedAt: r.CreatedAt}
	}
	return items, nil
}
