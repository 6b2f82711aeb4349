package invest

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5/pgtype"
	"github.com/oapi-codegen/runtime/types"
	"github.com/shopspring/decimal"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/calendar"
	"github.com/nestegg/nestegg/internal/ledger"
	"github.com/nestegg/nestegg/internal/money"
	"github.com/nestegg/nestegg/internal/problem"
)

// Point is the net worth at the end of one day.
type Point struct {
	Date                time.Time
	Assets, Liabilities int64
}

// PointDays are the days of a trend's points, oldest first: the last day of
// each of the n periods ending with today's (months, or weeks from Monday
// to Sunday), the current one dated today. Days are UTC midnights of
// calendar dates in the service time zone.
func PointDays(now time.Time, loc *time.Location, unit string, n int) []time.Time {
	today := calendar.Day(now, loc)
	days := make([]time.Time, 0, n)
	for k := n - 1; k >= 0; k-- {
		var end time.Time
		if unit == string(api.NetWorthUnitWeek) {
			monday := today.AddDate(0, 0, -((int(today.Weekday()) + 6) % 7))
			end = monday.AddDate(0, 0, 6-7*k)
		} else {
			first := calendar.Date(today.Year(), today.Month()-time.Month(k), 1)
			end = first.AddDate(0, 1, -1)
		}
		if end.After(today) {
			end = today
		}
		days = append(days, end)
	}
	return days
}

// GetNetWorthTrend answers the member's net worth per month or week.
func (h *InvestHandler) GetNetWorthTrend(ctx context.Context, req api.GetNetWorthTrendRequestObject) (api.GetNetWorthTrendResponseObject, error) {
	unit, n := api.NetWorthUnitMonth, int32(12)
	if req.Params.Unit != nil {
		unit = *req.Params.Unit
	}
	switch unit {
	case api.NetWorthUnitMonth:
		if req.Params.Months != nil {
			n = *req.Params.Months
		}
		if n < 1 || n > 120 {
			return nil, problem.Invalid("months", "must be 1 to 120")
		}
	case api.NetWorthUnitWeek:
		n = 13
		if req.Params.Weeks != nil {
			n = *req.Params.Weeks
		}
		if n < 1 || n > 260 {
			return nil, problem.Invalid("weeks", "must be 1 to 260")
		}
	default:
		return nil, problem.Invalid("unit", "must be MONTH or WEEK")
	}
	days := PointDays(h.clock.Now(), h.loc, string(unit), int(n))
	points, err := NetWorthOn(ctx, db.New(h.pool), memberOf(ctx), days, h.base)
	if err != nil {
		return nil, err
	}
	var c money.Checked
	out := api.NetWorthTrend{Unit: api.NetWorthUnitValue(unit), Points: make([]api.NetWorthPoint, len(points))}
	for i, p := range points {
		out.Points[i] = api.NetWorthPoint{Date: types.Date{Time: p.Date}, Assets: p.Assets, Liabilities: p.Liabilities, NetWorth: c.Sub(p.Assets, p.Liabilities)}
	}
	if err := c.Err(); err != nil {
		return nil, err
	}
	return api.GetNetWorthTrend200JSONResponse(out), nil
}

// NetWorthOn computes the net worth at the end of each day (ascending) in
// five queries, whatever the number of days, wallets or stocks; the wallets'
// balances come from the rollup (walletNetsOn), so the rows read do not grow
// with the member's history. Every sum is
// checked: a day whose assets or liabilities pass what int64 holds answers
// money.ErrOutOfRange.
func NetWorthOn(ctx context.Context, q *db.Queries, memberID int64, days []time.Time, base string) ([]Point, error) {
	if len(days) == 0 {
		return nil, nil
	}
	last := days[len(days)-1]
	wallets, err := q.NetWorthWallets(ctx, memberID)
	if err != nil {
		return nil, fmt.Errorf("wallets of member %d: %w", memberID, err)
	}
	netOf, err := walletNetsOn(ctx, q, memberID, days)
	if err != nil {
		return nil, err
	}
	stocks, err := q.ListStocks(ctx, memberID)
	if err != nil {
		return nil, fmt.Errorf("stocks: %w", err)
	}
	trades, err := q.ListMemberTradesUpTo(ctx, db.ListMemberTradesUpToParams{MemberID: memberID, UpTo: last})
	if err != nil {
		return nil, fmt.Errorf("trades: %w", err)
	}
	codes := make([]string, len(stocks))
	for i, s := range stocks {
		codes[i] = s.Code
	}
	quotes, err := q.QuotesOn(ctx, db.QuotesOnParams{Days: days, Codes: codes})
	if err != nil {
		return nil, fmt.Errorf("quotes: %w", err)
	}

	index := make(map[string]int, len(days))
	for i, d := range days {
		index[d.Format(time.DateOnly)] = i
	}
	type dayKey struct {
		day  int
		code string
	}
	var c money.Checked
	priceOf := map[dayKey]decimal.Decimal{}
	for _, r := range quotes {
		priceOf[dayKey{index[r.Day.Format(time.DateOnly)], r.Code}] = r.Price
	}

	points := make([]Point, len(days))
	for i, d := range days {
		points[i].Date = d
	}
	add := func(i int, v int64) {
		if v >= 0 {
			c.Add(&points[i].Assets, v)
		} else {
			points[i].Liabilities = c.Sub(points[i].Liabilities, v)
		}
	}

	// Stocks count through their INVEST wallet, or on their own without one;
	// a manual-valuation wallet's value replaces its stocks'.
	walletOf := map[int64]db.NetWorthWalletsRow{}
	for _, w := range wallets {
		walletOf[w.ID] = w
	}
	tradesOf := map[int64][]db.InvestTrade{}
	for _, t := range trades {
		tradesOf[t.StockID] = append(tradesOf[t.StockID], t)
	}
	for _, s := range stocks {
		if s.Currency != base {
			continue
		}
		if s.WalletID != nil {
			if w, ok := walletOf[*s.WalletID]; ok && w.ManualValuation {
				continue
			}
		}
		var p Position
		ts := tradesOf[s.ID]
		next := 0
		for i, d := range days {
			for next < len(ts) && !ts[next].TradeDate.After(d) {
				p.Apply(ts[next].Side, ts[next].Quantity, ts[next].Price, ts[next].Fee)
				next++
			}
			if price, ok := priceOf[dayKey{i, s.Code}]; ok {
				add(i, c.Won(p.Quantity.Mul(price)))
			} else {
				add(i, c.Won(p.Cost))
			}
		}
	}

	for _, w := range wallets {
		switch {
		case w.ManualValuation:
			for i := range days {
				if w.CurrentValue != nil {
					add(i, *w.CurrentValue)
				}
			}
		case w.Type == "INVEST":
			// Valued at its stocks' holdings, above.
		case w.Type == "LOAN" && w.LoanAmount != nil && w.LoanMethod != nil && w.LoanMonths != nil && w.LoanStart.Valid && w.LoanRate.Valid:
			l := ledger.Loan{Amount: *w.LoanAmount, Rate: w.LoanRate.Decimal, Method: *w.LoanMethod, Months: int(*w.LoanMonths), Start: w.LoanStart.Time}
			if w.LoanPayment != nil {
				l.Payment = *w.LoanPayment
			}
			schedule, err := ledger.Schedule(l)
			if err != nil {
				return nil, err
			}
			for i, d := range days {
				c.Add(&points[i].Liabilities, remainingOn(l, schedule, d))
			}
		default:
			nets := netOf[w.ID]
			for i := range days {
				net := decimal.Zero
				if nets != nil {
					net = nets[i]
				}
				add(i, c.Won(net.Add(decimal.NewFromInt(w.OpeningBalance))))
			}
		}
	}
	if err := c.Err(); err != nil {
		return nil, err
	}
	return points, nil
}

// remainingOn is the principal of a loan still owed at the end of day: none
// before the loan starts, then what remains after the last instalment due on
// or before that day.
func remainingOn(l ledger.Loan, schedule []ledger.Installment, day time.Time) int64 {
	start := calendar.Day(l.Start, l.Start.Location())
	if day.Before(start) {
		return 0
	}
	remaining := l.Amount
	for _, inst := range schedule {
		if inst.Date.After(day) {
			break
		}
		remaining = inst.Remaining
	}
	return remaining
}

// walletNetsOn answers each wallet's net of counting entries (confirmed, on
// a wallet, transfer sides included) up to the end of each day, in one query
// of the rollup wallet_net (see its migration): the wallet's total, minus
// the periods that start after the day, minus the entries after the day in
// its own period, plus the deltas not folded into the rollup yet that are
// dated before the next period. A day that ends a calendar month is taken by months, any
// other by weeks (Monday to Sunday): the trend's days end their month or
// week, except today, whose period's later entries (dated ahead) are read
// from the entries themselves. The rows read are the periods from the first
// day on × wallets, not the history. Nets stay decimal until the opening
// balance is added: a net past int64 may still give a balance within it.
func walletNetsOn(ctx context.Context, q *db.Queries, memberID int64, days []time.Time) (map[int64][]decimal.Decimal, error) {
	const month, week = "month", "week"
	grain := make([]string, len(days))
	// bound[i] is the start of the period after day i's.
	bound := make([]time.Time, len(days))
	var arg db.WalletNetsParams
	arg.MemberID = memberID
	arg.PartAfter, arg.PartBefore = []time.Time{}, []time.Time{}
	after := map[string]*pgtype.Date{month: &arg.MonthAfter, week: &arg.WeekAfter}
	for i, d := range days {
		next := d.AddDate(0, 0, 1)
		grain[i] = week
		if next.Day() == 1 {
			grain[i] = month
		}
		if a := after[grain[i]]; !a.Valid || d.Before(a.Time) {
			*a = pgtype.Date{Time: d, Valid: true}
		}
		bound[i] = next
		if grain[i] == week && next.Weekday() != time.Monday {
			bound[i] = next.AddDate(0, 0, (8-int(next.Weekday()))%7)
			arg.PartAfter, arg.PartBefore = append(arg.PartAfter, d), append(arg.PartBefore, bound[i])
		}
	}
	rows, err := q.WalletNets(ctx, arg)
	if err != nil {
		return nil, fmt.Errorf("wallet nets of member %d: %w", memberID, err)
	}

	// Per wallet: its total, its periods of each grain, its parts by day.
	type periodNet struct {
		start time.Time
		net   decimal.Decimal
	}
	// A wallet whose total is 0 may have no total row but periods.
	total := map[int64]decimal.Decimal{}
	periods := map[string]map[int64][]periodNet{month: {}, week: {}}
	parts := map[int64]map[string]decimal.Decimal{}
	deltas := map[int64][]periodNet{}
	for _, r := range rows {
		if _, seen := total[r.WalletID]; !seen {
			total[r.WalletID] = decimal.Zero
		}
		switch r.Period {
		case "total":
			total[r.WalletID] = r.Net
		case month, week:
			periods[r.Period][r.WalletID] = append(periods[r.Period][r.WalletID], periodNet{r.Start.Time, r.Net})
		case "part":
			if parts[r.WalletID] == nil {
				parts[r.WalletID] = map[string]decimal.Decimal{}
			}
			parts[r.WalletID][r.Start.Time.Format(time.DateOnly)] = r.Net
		case "delta":
			deltas[r.WalletID] = append(deltas[r.WalletID], periodNet{r.Start.Time, r.Net})
		}
	}
	out := make(map[int64][]decimal.Decimal, len(total))
	for w, t := range total {
		nets := make([]decimal.Decimal, len(days))
		for i := range nets {
			nets[i] = t.Sub(parts[w][days[i].Format(time.DateOnly)])
		}
		// The periods after each day, summed from the latest day back: the
		// days of one grain ascend, so one pass over its periods each.
		for g, byWallet := range periods {
			ps := byWallet[w]
			slices.SortFunc(ps, func(a, b periodNet) int { return b.start.Compare(a.start) })
			later, next := decimal.Zero, 0
			for i := len(days) - 1; i >= 0; i-- {
				if grain[i] != g {
					continue
				}
				for next < len(ps) && ps[next].start.After(days[i]) {
					later = later.Add(ps[next].net)
					next++
				}
				nets[i] = nets[i].Sub(later)
			}
		}
		// A delta is in neither the total nor the periods, but it is in
		// the part of a day whose period it falls in after the day: it
		// counts up to the period's end.
		for _, d := range deltas[w] {
			for i := range days {
				if d.start.Before(bound[i]) {
					nets[i] = nets[i].Add(d.net)
				}
			}
		}
		out[w] = nets
	}
	return out, nil
}
