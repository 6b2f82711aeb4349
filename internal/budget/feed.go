package budget

import (
	"context"
	"fmt"
	"time"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/calendar"
	"github.com/nestegg/nestegg/internal/money"
)

// The changes feed (internal/changes) renders a page's records of each kind
// through these: each answers the records among ids that exist, as their GET
// (or list item) answers them.

// BudgetsByID answers these monthly budgets (one read).
func BudgetsByID(ctx context.Context, q *db.Queries, memberID int64, ids []int64) (map[int64]api.Budget, error) {
	rows, err := q.ListBudgetsByIDs(ctx, db.ListBudgetsByIDsParams{MemberID: memberID, Ids: ids})
	if err != nil {
		return nil, fmt.Errorf("budgets of member %d: %w", memberID, err)
	}
	out := make(map[int64]api.Budget, len(rows))
	for _, r := range rows {
		out[r.ID] = toAPIBudget(Budget(r))
	}
	return out, nil
}

// OnetimeByID answers these one-time budgets with what they spent (a member
// holds few: all are read in one statement).
func OnetimeByID(ctx context.Context, q *db.Queries, memberID int64, ids []int64) (map[int64]api.OnetimeBudget, error) {
	rows, err := q.ListOnetimeBudgets(ctx, db.ListOnetimeBudgetsParams{MemberID: memberID})
	if err != nil {
		return nil, fmt.Errorf("one-time budgets of member %d: %w", memberID, err)
	}
	want := make(map[int64]bool, len(ids))
	for _, id := range ids {
		want[id] = true
	}
	var c money.Checked
	out := make(map[int64]api.OnetimeBudget, len(ids))
	for _, r := range rows {
		if want[r.ID] {
			out[r.ID] = toAPIOnetime(&c, r)
		}
	}
	return out, c.Err()
}

// IncomesByMonth answers the expected incomes of these months (year * 100 +
// month) that are set, each with its received income in the member's ledger
// month (startDay): two reads however many months, the rows and then the
// months' sums (receivedIn).
func IncomesByMonth(ctx context.Context, q *db.Queries, memberID int64, startDay int, months []int64) (map[int64]api.BudgetIncome, error) {
	rows, err := q.ListBudgetIncomesByMonths(ctx, db.ListBudgetIncomesByMonthsParams{MemberID: memberID, Months: months})
	if err != nil {
		return nil, fmt.Errorf("expected incomes of member %d: %w", memberID, err)
	}
	out := make(map[int64]api.BudgetIncome, len(rows))
	if len(rows) == 0 {
		return out, nil
	}
	ledgerMonths := make([]calendar.Month, len(rows))
	for i, r := range rows {
		ledgerMonths[i] = calendar.NewMonth(int(r.Year), time.Month(r.Month), startDay)
	}
	sums, err := receivedIn(ctx, q, memberID, ledgerMonths)
	if err != nil {
		return nil, err
	}
	for i, r := range rows {
		out[int64(r.Year)*100+int64(r.Month)] = api.BudgetIncome{Year: r.Year, Month: r.Month, Amount: &r.Amount, Received: sums[i]}
	}
	return out, nil
}
