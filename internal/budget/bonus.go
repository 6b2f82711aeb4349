package budget

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/calendar"
	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/internal/points"
)

// ReasonMonthComplete is the point_history reason of the month-complete
// bonus; the ledger month (yyyyMM) follows it.
const ReasonMonthComplete = "MONTH_COMPLETE_"

// MonthComplete is the ledger's entry hook: after an entry of day is written
// or confirmed, it gives the month-complete bonus if it is now due. The
// entry is already saved, so a failure here is logged, not answered.
func (h *BudgetHandler) MonthComplete(ctx context.Context, memberID int64, startDay int, day time.Time) {
	if _, err := h.AwardMonthComplete(ctx, memberID, startDay, day); err != nil {
		slog.ErrorContext(ctx, "month-complete bonus", "member_id", memberID, "error", err)
	}
}

// AwardMonthComplete gives a random 1..100 points, once per member and
// ledger month, when the member's counting entries cover every day of the
// current month (their month begins on startDay) and day lies in it
// (back-filling another month gives nothing). It answers the points given.
//
// Only entries dated today or earlier count (DECISIONS 9): entries written
// ahead into the rest of the month would otherwise earn the bonus on its
// first day. So no month is complete before its last day, and before it
// nothing needs to be read.
//
// The member's row is locked before anything is read: parallel writes of
// the last missing day take turns, and each one after the first sees the
// first one's award (READ COMMITTED reads anew after the lock).
func (h *BudgetHandler) AwardMonthComplete(ctx context.Context, memberID int64, startDay int, day time.Time) (int, error) {
	now := h.clock.Now().In(h.loc)
	today := calendar.Day(now, h.loc)
	month, ok := calendar.MayCompleteOn(today, startDay, day)
	if !ok {
		return 0, nil
	}
	reason := ReasonMonthComplete + month.Key()
	due := func(q *db.Queries) (bool, error) {
		d, err := q.MonthBonusDue(ctx, db.MonthBonusDueParams{MemberID: memberID, Reason: reason, FromDate: month.From(), ToDate: month.To()})
		if err != nil {
			return false, fmt.Errorf("month-complete check of member %d: %w", memberID, err)
		}
		return !d.Given && d.Complete, nil
	}
	// Most writes leave the month incomplete: a plain read answers them
	// without taking the member's lock. The check is repeated under it.
	if ok, err := due(db.New(h.pool)); err != nil || !ok {
		return 0, err
	}
	return database.InTxV(ctx, h.pool, func(q *db.Queries) (int, error) {
		if err := points.LockTx(ctx, q, memberID); err != nil {
			return 0, err
		}
		if ok, err := due(q); err != nil || !ok {
			return 0, err
		}
		return points.AwardTx(ctx, q, memberID, h.draw(), reason, points.Cap{}, now)
	})
}

// draw is the bonus: 1 to 100 points.
func (h *BudgetHandler) draw() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.rand.IntN(100) + 1
}
