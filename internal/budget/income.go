package budget

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/calendar"
	"github.com/nestegg/nestegg/internal/ledger"
	"github.com/nestegg/nestegg/internal/money"
)

// GetBudgetIncome answers a month's expected income and what came in.
func (h *BudgetHandler) GetBudgetIncome(ctx context.Context, req api.GetBudgetIncomeRequestObject) (api.GetBudgetIncomeResponseObject, error) {
	p := req.Params
	if err := checkMonth("year", "month", p.Year, p.Month); err != nil {
		return nil, err
	}
	q := db.New(h.pool)
	memberID := memberOf(ctx)
	amount, err := q.GetBudgetIncome(ctx, db.GetBudgetIncomeParams{MemberID: memberID, Year: p.Year, Month: p.Month})
	out := api.BudgetIncome{Year: p.Year, Month: p.Month}
	switch {
	case err == nil:
		out.Amount = &amount
	case !errors.Is(err, pgx.ErrNoRows):
		return nil, fmt.Errorf("expected income of member %d: %w", memberID, err)
	}
	if out.Received, err = received(ctx, q, memberID, monthOf(ctx, p.Year, p.Month)); err != nil {
		return nil, err
	}
	return api.GetBudgetIncome200JSONResponse(out), nil
}

// PutBudgetIncome sets a month's expected income.
func (h *BudgetHandler) PutBudgetIncome(ctx context.Context, req api.PutBudgetIncomeRequestObject) (api.PutBudgetIncomeResponseObject, error) {
	b := req.Body
	if err := checkMonth("/year", "/month", b.Year, b.Month); err != nil {
		return nil, err
	}
	if err := checkAmount("/amount", b.Amount); err != nil {
		return nil, err
	}
	memberID := memberOf(ctx)
	m := monthOf(ctx, b.Year, b.Month)
	// One transaction, so that an answer that cannot be given (a received
	// total out of range) leaves nothing stored, as every write does.
	out, err := ledger.WriteTxV(ctx, h.pool, memberID, func(q *db.Queries) (api.BudgetIncome, error) {
		amount, err := q.PutBudgetIncome(ctx, db.PutBudgetIncomeParams{MemberID: memberID, Year: b.Year, Month: b.Month, Amount: b.Amount})
		if err != nil {
			return api.BudgetIncome{}, fmt.Errorf("set expected income of member %d: %w", memberID, err)
		}
		out := api.BudgetIncome{Year: b.Year, Month: b.Month, Amount: &amount}
		if out.Received, err = received(ctx, q, memberID, m); err != nil {
			return api.BudgetIncome{}, err
		}
		return out, nil
	})
	if err != nil {
		return nil, err
	}
	return api.PutBudgetIncome200JSONResponse(out), nil
}

// received answers the member's confirmed income in ledger month m.
func received(ctx context.Context, q *db.Queries, memberID int64, m calendar.Month) (int64, error) {
	sums, err := receivedIn(ctx, q, memberID, []calendar.Month{m})
	if err != nil {
		return 0, err
	}
	return sums[0], nil
}

// receivedIn answers the member's confirmed income in each of these ledger
// months, in their order, in one statement however many there are.
func receivedIn(ctx context.Context, q *db.Queries, memberID int64, months []calendar.Month) ([]int64, error) {
	p := db.IncomeOfRangesParams{MemberID: memberID}
	for _, m := range months {
		p.FromDates = append(p.FromDates, m.From())
		p.ToDates = append(p.ToDates, m.To())
	}
	sums, err := q.IncomeOfRanges(ctx, p)
	if err != nil {
		return nil, fmt.Errorf("income of member %d: %w", memberID, err)
	}
	if len(sums) != len(months) {
		return nil, fmt.Errorf("income of member %d: %d sums for %d months", memberID, len(sums), len(months))
	}
	out := make([]int64, len(sums))
	for i, n := range sums {
		v, ok := money.FromDecimal(n)
		if !ok {
			return nil, money.ErrOutOfRange
		}
		out[i] = v
	}
	return out, nil
}
