package budget

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/calendar"
	"github.com/nestegg/nestegg/internal/ledger"
	"github.com/nestegg/nestegg/internal/money"
	"github.com/nestegg/nestegg/internal/problem"
)

// maxStatsDays bounds a statistics range (five years).
const maxStatsDays = 1830

// categorySum is one (type, category) sum of a statistics query.
type categorySum struct {
	Type         string
	CategoryID   *int64
	CategoryName *string
	ParentID     *int64
	ParentName   *string
	Amount       int64
}

// nest folds category sums into per-type trees: a sub-category's sum goes
// under its parent, whose amount includes it.
func nest(c *money.Checked, sums []categorySum) api.StatsCategories {
	out := api.StatsCategories{Income: []api.StatsCategory{}, Expense: []api.StatsCategory{}}
	type key struct {
		typ string
		id  int64 // 0: uncategorized
	}
	index := map[key]int{}
	lists := map[string]*[]api.StatsCategory{ledger.TypeIncome: &out.Income, ledger.TypeExpense: &out.Expense}
	top := func(typ string, id *int64, name *string) *api.StatsCategory {
		k := key{typ, 0}
		if id != nil {
			k.id = *id
		}
		list := lists[typ]
		i, ok := index[k]
		if !ok {
			i = len(*list)
			index[k] = i
			*list = append(*list, api.StatsCategory{CategoryID: id, Name: name, Children: []api.StatsCategoryChild{}})
		}
		return &(*list)[i]
	}
	for _, s := range sums {
		if _, ok := lists[s.Type]; !ok {
			continue
		}
		if s.ParentID == nil {
			t := top(s.Type, s.CategoryID, s.CategoryName)
			c.Add(&t.Own, s.Amount)
			c.Add(&t.Amount, s.Amount)
			continue
		}
		t := top(s.Type, s.ParentID, s.ParentName)
		c.Add(&t.Amount, s.Amount)
		t.Children = append(t.Children, api.StatsCategoryChild{CategoryID: *s.CategoryID, Name: *s.CategoryName, Amount: s.Amount})
	}
	return out
}

// GetMonthlyStats answers a month's statistics.
func (h *BudgetHandler) GetMonthlyStats(ctx context.Context, req api.GetMonthlyStatsRequestObject) (api.GetMonthlyStatsResponseObject, error) {
	p := req.Params
	if err := checkMonth("year", "month", p.Year, p.Month); err != nil {
		return nil, err
	}
	q := db.New(h.pool)
	m := monthOf(ctx, p.Year, p.Month)
	s, err := MonthlyStats(ctx, q, memberOf(ctx), m)
	if err != nil {
		return nil, err
	}
	if s.ByPaidBy, err = byPaidBy(ctx, q, p.GroupBy, m.From(), m.To()); err != nil {
		return nil, err
	}
	return api.GetMonthlyStats200JSONResponse(s), nil
}

// MonthlyStats computes the statistics of the member's ledger month m in one
// query: income, expense, categories and days, and the month's transfers per
// wallet.
func MonthlyStats(ctx context.Context, q *db.Queries, memberID int64, m calendar.Month) (api.MonthlyStats, error) {
	rows, err := q.MonthlyStats(ctx, db.MonthlyStatsParams{MemberID: memberID, FromDate: m.From(), ToDate: m.To()})
	if err != nil {
		return api.MonthlyStats{}, fmt.Errorf("monthly statistics of member %d: %w", memberID, err)
	}
	out := api.MonthlyStats{
		Year: int32(m.Year()), Month: int32(m.Month()), From: date(m.From()), To: date(m.Last()),
		Days: []api.StatsDay{}, Transfers: []api.StatsWalletTransfers{},
	}
	var c money.Checked
	var sums []categorySum
	days := map[time.Time]int{}
	for _, r := range rows {
		amount := c.Won(r.Amount)
		switch r.Kind {
		case "category":
			sums = append(sums, categorySum{r.Type, r.CategoryID, r.CategoryName, r.ParentID, r.ParentName, amount})
		case "day":
			i, ok := days[r.EntryDate]
			if !ok {
				i = len(out.Days)
				days[r.EntryDate] = i
				out.Days = append(out.Days, api.StatsDay{Date: date(r.EntryDate)})
			}
			if r.Type == ledger.TypeIncome {
				c.Add(&out.Days[i].Income, amount)
				c.Add(&out.Income, amount)
			} else {
				c.Add(&out.Days[i].Expense, amount)
				c.Add(&out.Expense, amount)
			}
		case "transfer":
			// A wallet's rows come together: they are ordered by wallet id.
			n := len(out.Transfers)
			if n == 0 || out.Transfers[n-1].WalletID != r.WalletID {
				out.Transfers = append(out.Transfers, api.StatsWalletTransfers{WalletID: r.WalletID})
				n++
			}
			switch r.Type {
			case ledger.TypeIncome:
				c.Add(&out.Transfers[n-1].In, amount)
			case ledger.TypeExpense:
				c.Add(&out.Transfers[n-1].Out, amount)
			}
		}
	}
	out.Net = c.Sub(out.Income, out.Expense)
	out.Categories = nest(&c, sums)
	if err := c.Err(); err != nil {
		return api.MonthlyStats{}, err
	}
	return out, nil
}

// GetYearlyStats answers the twelve ledger months of a year.
func (h *BudgetHandler) GetYearlyStats(ctx context.Context, req api.GetYearlyStatsRequestObject) (api.GetYearlyStatsResponseObject, error) {
	year := req.Params.Year
	if err := checkMonth("year", "month", year, 1); err != nil {
		return nil, err
	}
	memberID := memberOf(ctx)
	january := monthOf(ctx, year, 1)
	q := db.New(h.pool)
	rows, err := q.YearlyStats(ctx, db.YearlyStatsParams{
		StartDay: int32(january.StartDay()), MemberID: memberID, FromDate: january.From(), ToDate: january.Add(11).To(),
	})
	if err != nil {
		return nil, fmt.Errorf("yearly statistics of member %d: %w", memberID, err)
	}
	out := api.YearlyStats{Year: year, Months: make([]api.StatsMonth, 12)}
	for i := range out.Months {
		m := january.Add(i)
		out.Months[i] = api.StatsMonth{Month: int32(m.Month()), From: date(m.From()), To: date(m.Last())}
	}
	var c money.Checked
	for _, r := range rows {
		m := &out.Months[int(r.Month.Month())-1]
		amount := c.Won(r.Amount)
		if r.Type == ledger.TypeIncome {
			c.Add(&m.Income, amount)
			c.Add(&out.Income, amount)
		} else {
			c.Add(&m.Expense, amount)
			c.Add(&out.Expense, amount)
		}
	}
	for i := range out.Months {
		out.Months[i].Net = c.Sub(out.Months[i].Income, out.Months[i].Expense)
	}
	out.Net = c.Sub(out.Income, out.Expense)
	if err := c.Err(); err != nil {
		return nil, err
	}
	if out.ByPaidBy, err = byPaidBy(ctx, q, req.Params.GroupBy, january.From(), january.Add(11).To()); err != nil {
		return nil, err
	}
	return api.GetYearlyStats200JSONResponse(out), nil
}

func statsRange(from, to time.Time) (time.Time, time.Time, error) {
	end := to.AddDate(0, 0, 1)
	if !end.After(from) {
		return from, end, problem.Invalid("to", "must not be before from")
	}
	if end.Sub(from) > maxStatsDays*24*time.Hour {
		return from, end, problem.Invalid("to", fmt.Sprintf("a range spans at most %d days", maxStatsDays))
	}
	return from, end, nil
}

// GetCategoryStats answers sums per category over a range.
func (h *BudgetHandler) GetCategoryStats(ctx context.Context, req api.GetCategoryStatsRequestObject) (api.GetCategoryStatsResponseObject, error) {
	from, end, err := statsRange(req.Params.From.Time, req.Params.To.Time)
	if err != nil {
		return nil, err
	}
	memberID := memberOf(ctx)
	q := db.New(h.pool)
	rows, err := q.CategoryStats(ctx, db.CategoryStatsParams{MemberID: memberID, FromDate: from, ToDate: end})
	if err != nil {
		return nil, fmt.Errorf("category statistics of member %d: %w", memberID, err)
	}
	out := api.CategoryStats{From: req.Params.From, To: req.Params.To}
	var c money.Checked
	sums := make([]categorySum, len(rows))
	for i, r := range rows {
		sums[i] = categorySum{r.Type, r.CategoryID, r.CategoryName, r.ParentID, r.ParentName, c.Won(r.Amount)}
		if r.Type == ledger.TypeIncome {
			c.Add(&out.Income, sums[i].Amount)
		} else {
			c.Add(&out.Expense, sums[i].Amount)
		}
	}
	out.Categories = nest(&c, sums)
	if err := c.Err(); err != nil {
		return nil, err
	}
	if out.ByPaidBy, err = byPaidBy(ctx, q, req.Params.GroupBy, from, end); err != nil {
		return nil, err
	}
	return api.GetCategoryStats200JSONResponse(out), nil
}

// GetTagStats answers sums per tag over a range.
func (h *BudgetHandler) GetTagStats(ctx context.Context, req api.GetTagStatsRequestObject) (api.GetTagStatsResponseObject, error) {
	from, end, err := statsRange(req.Params.From.Time, req.Params.To.Time)
	if err != nil {
		return nil, err
	}
	memberID := memberOf(ctx)
	q := db.New(h.pool)
	rows, err := q.TagStats(ctx, db.TagStatsParams{MemberID: memberID, FromDate: from, ToDate: end})
	if err != nil {
		return nil, fmt.Errorf("tag statistics of member %d: %w", memberID, err)
	}
	totals, err := q.TaggedTotals(ctx, db.TaggedTotalsParams{MemberID: memberID, FromDate: from, ToDate: end})
	if err != nil {
		return nil, fmt.Errorf("tagged totals of member %d: %w", memberID, err)
	}
	var c money.Checked
	out := api.TagStats{From: req.Params.From, To: req.Params.To, Income: c.Won(totals.Income), Expense: c.Won(totals.Expense), Items: []api.TagStatsItem{}}
	index := map[int64]int{}
	for _, r := range rows {
		i, ok := index[r.TagID]
		if !ok {
			i = len(out.Items)
			index[r.TagID] = i
			out.Items = append(out.Items, api.TagStatsItem{TagID: r.TagID, Name: r.Name})
		}
		it := &out.Items[i]
		it.Entries += r.Entries
		if r.Type == ledger.TypeIncome {
			c.Add(&it.Income, c.Won(r.Amount))
		} else {
			c.Add(&it.Expense, c.Won(r.Amount))
		}
	}
	if err := c.Err(); err != nil {
		return nil, err
	}
	return api.GetTagStats200JSONResponse(out), nil
}

// byPaidBy answers a statistics answer's byPaidBy: nil unless groupBy is
// paidBy (the parameter is one enum, checked against the contract, in each
// operation's params type), else the income, expense and net of the counting
// entries dated from..end (end excluded) per payer, by member id. A NULL
// paid_by counts for the member the ledger's attribution defaults to (the
// owner; in a book its longest-standing OWNER), as the entry's answer says.
func byPaidBy[G ~string](ctx context.Context, q *db.Queries, groupBy *G, from, end time.Time) (*[]api.StatsPayer, error) {
	if groupBy == nil || string(*groupBy) != string(api.StatsGroupByPaidBy) {
		return nil, nil
	}
	a, err := ledger.AttributionOf(ctx)
	if err != nil {
		return nil, err
	}
	memberID := memberOf(ctx)
	rows, err := q.PaidByStats(ctx, db.PaidByStatsParams{MemberID: memberID, FromDate: from, ToDate: end})
	if err != nil {
		return nil, fmt.Errorf("statistics by payer of member %d: %w", memberID, err)
	}
	var c money.Checked
	out := []api.StatsPayer{}
	index := map[int64]int{}
	for _, r := range rows {
		who := r.PaidBy
		if who == nil {
			d := a.Default()
			who = &d
		}
		i, ok := index[*who]
		if !ok {
			i = len(out)
			index[*who] = i
			out = append(out, api.StatsPayer{PaidBy: a.Ref(who)})
		}
		if r.Type == ledger.TypeIncome {
			c.Add(&out[i].Income, c.Won(r.Amount))
		} else {
			c.Add(&out[i].Expense, c.Won(r.Amount))
		}
	}
	for i := range out {
		out[i].Net = c.Sub(out[i].Income, out[i].Expense)
	}
	if err := c.Err(); err != nil {
		return nil, err
	}
	sort.Slice(out, func(i, j int) bool { return out[i].PaidBy.MemberID < out[j].PaidBy.MemberID })
	return &out, nil
}
