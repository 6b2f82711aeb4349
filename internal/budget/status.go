package budget

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/oapi-codegen/runtime/types"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/calendar"
	"github.com/nestegg/nestegg/internal/money"
	"github.com/nestegg/nestegg/internal/problem"
)

func date(t time.Time) types.Date { return types.Date{Time: t} }

// GetBudgetStatus answers a month's budgets against their spending.
func (h *BudgetHandler) GetBudgetStatus(ctx context.Context, req api.GetBudgetStatusRequestObject) (api.GetBudgetStatusResponseObject, error) {
	p := req.Params
	if err := checkMonth("year", "month", p.Year, p.Month); err != nil {
		return nil, err
	}
	s, err := Status(ctx, db.New(h.pool), memberOf(ctx), monthOf(ctx, p.Year, p.Month))
	if err != nil {
		return nil, err
	}
	return api.GetBudgetStatus200JSONResponse(s), nil
}

// Status computes the budget status of the member's ledger month m in one
// query.
func Status(ctx context.Context, q *db.Queries, memberID int64, m calendar.Month) (api.BudgetStatus, error) {
	year, month := int32(m.Year()), int32(m.Month())
	rows, err := q.BudgetStatus(ctx, db.BudgetStatusParams{MemberID: memberID, FromDate: m.From(), ToDate: m.To(), Year: year, Month: month})
	if err != nil {
		return api.BudgetStatus{}, fmt.Errorf("budget status of member %d: %w", memberID, err)
	}
	out := api.BudgetStatus{Year: year, Month: month, From: date(m.From()), To: date(m.Last()), Items: []api.BudgetStatusItem{}}
	budgeted := map[int64]bool{}
	for _, r := range rows {
		if r.BudgetID != nil {
			budgeted[*r.CategoryID] = true
		}
	}
	var c money.Checked
	for i, r := range rows {
		if i == 0 {
			out.Spent = c.Won(r.TotalSpent)
			out.Unbudgeted = c.Won(r.TotalSpent.Sub(r.BudgetedSpent))
			if r.ExpectedIncome >= 0 {
				out.ExpectedIncome = &r.ExpectedIncome
				left := c.Sub(r.ExpectedIncome, out.Spent)
				out.IncomeLeft = &left
			}
		}
		if r.BudgetID == nil {
			continue
		}
		spent := c.Won(r.Spent)
		item := api.BudgetStatusItem{
			BudgetID: *r.BudgetID, CategoryID: *r.CategoryID, CategoryName: *r.CategoryName, ParentID: r.ParentID,
			Amount: *r.BudgetAmount, Spent: spent, Remaining: c.Sub(*r.BudgetAmount, spent),
		}
		if item.Amount > 0 {
			pct := math.Round(float64(item.Spent)*1000/float64(item.Amount)) / 10
			item.Percent = &pct
		}
		out.Items = append(out.Items, item)
		// A sub-category's budget inside a budgeted parent is part of the
		// parent's: counting it again would budget the same money twice.
		if r.ParentID == nil || !budgeted[*r.ParentID] {
			c.Add(&out.Budget, item.Amount)
		}
	}
	out.Remaining = c.Sub(out.Budget, out.Spent)
	if err := c.Err(); err != nil {
		return api.BudgetStatus{}, err
	}
	return out, nil
}

// GetBudgetChart answers budget against spending for up to 24 months.
func (h *BudgetHandler) GetBudgetChart(ctx context.Context, req api.GetBudgetChartRequestObject) (api.GetBudgetChartResponseObject, error) {
	p := req.Params
	if err := checkMonth("year", "month", p.Year, p.Month); err != nil {
		return nil, err
	}
	n := int32(6)
	if p.Months != nil {
		n = *p.Months
	}
	if n < 1 || n > 24 {
		return nil, problem.Invalid("months", "must be 1 to 24")
	}
	memberID := memberOf(ctx)
	last := monthOf(ctx, p.Year, p.Month)
	first := last.Add(-int(n - 1))
	// The query names a ledger month by the first of its calendar month.
	rows, err := db.New(h.pool).BudgetChart(ctx, db.BudgetChartParams{
		FirstMonth: calendar.Date(first.Year(), first.Month(), 1), LastMonth: calendar.Date(last.Year(), last.Month(), 1),
		StartDay: int32(last.StartDay()), MemberID: memberID, FromDate: first.From(), ToDate: last.To(),
		FirstYear: int32(first.Year()), FirstMonthNo: int32(first.Month()), LastYear: int32(last.Year()), LastMonthNo: int32(last.Month()),
	})
	if err != nil {
		return nil, fmt.Errorf("budget chart of member %d: %w", memberID, err)
	}
	out := api.GetBudgetChart200JSONResponse{Points: make([]api.BudgetChartPoint, len(rows))}
	var c money.Checked
	for i, r := range rows {
		out.Points[i] = api.BudgetChartPoint{Year: int32(r.Month.Year()), Month: int32(r.Month.Month()), Budget: c.Won(r.Budget), Spent: c.Won(r.Spent)}
	}
	if err := c.Err(); err != nil {
		return nil, err
	}
	return out, nil
}
