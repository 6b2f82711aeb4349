package forecast

import (
	"math/big"
	"time"

	"github.com/nestegg/nestegg/internal/calendar"
	"github.com/nestegg/nestegg/internal/money"
)

// PaceBudget is a budget of the month with its category's confirmed
// expenses per day (a top-level category's include its sub-categories').
type PaceBudget struct {
	CategoryID int64
	Budget     int64
	// Daily are the days with spending, in date order.
	Daily []DaySpent
}

// DaySpent is a day's spending.
type DaySpent struct {
	Date   time.Time
	Amount int64
}

// PaceItem is one budget's pace.
type PaceItem struct {
	CategoryID               int64
	Budget, Spent, Projected int64
	// OverOn is the day the budget is (or was) passed at this pace; nil
	// when it is not passed in the month.
	OverOn *time.Time
}

// Pace computes each budget's pace through ledger month m on today:
// projected = spent + floor(spent × days left ÷ days elapsed) + the
// category's recurring expenses due from today through the month's last day
// (not posted yet); overOn is the day spending passed the budget when it
// already has, else the first day from today on when spent + floor(spent
// × k ÷ elapsed) (k days after today) + the recurring expenses due by then
// passes it. A total that cannot be represented is a 422 naming it.
func Pace(m calendar.Month, today time.Time, budgets []PaceBudget, recs []Recurring) ([]PaceItem, error) {
	first, lastDay := m.From(), m.Last()
	var elapsed, left int64
	switch {
	case today.Before(first):
		elapsed, left = 0, 0
	case today.After(lastDay):
		elapsed, left = daysBetween(first, lastDay)+1, 0
	default:
		elapsed, left = daysBetween(first, today)+1, daysBetween(today, lastDay)
	}
	dueFrom := today
	if dueFrom.Before(first) {
		dueFrom = first
	}
	out := make([]PaceItem, 0, len(budgets))
	for _, b := range budgets {
		item := PaceItem{CategoryID: b.CategoryID, Budget: b.Budget}
		var c money.Checked
		for _, d := range b.Daily {
			before := item.Spent
			c.Add(&item.Spent, d.Amount)
			if item.OverOn == nil && before <= b.Budget && item.Spent > b.Budget {
				day := d.Date
				item.OverOn = &day
			}
		}
		if err := c.Err(); err != nil {
			return nil, outOfRange("the spending of category " + itoa(b.CategoryID))
		}
		if item.Spent <= b.Budget {
			item.OverOn = nil
		}
		// The recurring expenses of the category due in the rest of the
		// month, by day.
		due := map[time.Time]int64{}
		var dueTotal int64
		if !dueFrom.After(lastDay) {
			for _, r := range recs {
				if r.Income || !inCategory(r, b.CategoryID) {
					continue
				}
				for _, d := range r.Occurrences(dueFrom, lastDay) {
					c.Add(&dueTotal, r.Amount)
					v := due[d]
					c.Add(&v, r.Amount)
					due[d] = v
				}
			}
		}
		pace := paceOf(item.Spent, left, elapsed)
		item.Projected = c.Sum(c.Sum(item.Spent, pace), dueTotal)
		if err := c.Err(); err != nil || pace < 0 {
			return nil, outOfRange("the projected spending of category " + itoa(b.CategoryID))
		}
		if item.OverOn == nil && item.Projected > b.Budget {
			item.OverOn = overOn(item.Spent, b.Budget, elapsed, dueFrom, lastDay, today, due)
		}
		out = append(out, item)
	}
	return out, nil
}

// overOn walks the days from dueFrom (today, or the month's first day when
// it has not begun) through lastDay: the first day when spent + the pace of
// the days since today + the recurring expenses due by that day passes
// budget. Sums cannot overflow here: each is at most the projection, which
// was checked.
func overOn(spent, budget, elapsed int64, dueFrom, lastDay, today time.Time, due map[time.Time]int64) *time.Time {
	var dueSoFar int64
	for d := dueFrom; !d.After(lastDay); d = d.AddDate(0, 0, 1) {
		dueSoFar += due[d]
		run := int64(0)
		if !today.Before(dueFrom) {
			run = paceOf(spent, daysBetween(today, d), elapsed)
		}
		if spent+run+dueSoFar > budget {
			return &d
		}
	}
	return nil
}

// paceOf is floor(spent × k ÷ elapsed), 0 with nothing elapsed; -1 when it
// cannot be represented.
func paceOf(spent, k, elapsed int64) int64 {
	if elapsed == 0 || k == 0 || spent == 0 {
		return 0
	}
	p := new(big.Int).Mul(big.NewInt(spent), big.NewInt(k))
	p.Quo(p, big.NewInt(elapsed))
	v, ok := money.FromBig(p)
	if !ok {
		return -1
	}
	return v
}

func inCategory(r Recurring, category int64) bool {
	return (r.CategoryID != nil && *r.CategoryID == category) || (r.ParentID != nil && *r.ParentID == category)
}

func daysBetween(a, b time.Time) int64 { return int64(b.Sub(a).Hours() / 24) }

func itoa(v int64) string { return big.NewInt(v).String() }
