package forecast

import (
	"math"
	"math/rand/v2"
	"net/http"
	"testing"
	"time"

	"github.com/nestegg/nestegg/internal/calendar"
	"github.com/nestegg/nestegg/internal/problem"
)

func day(s string) time.Time {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return t
}

func ptr[T any](v T) *T { return &v }

// TestPropertyLastDayIsTodayPlusEveryMovement: for random wallets and
// movements, the last day's balance is today's total of the money held plus
// every listed movement that moves money held (on a held wallet or on none),
// and each day's balance is the one before plus its own.
func TestPropertyLastDayIsTodayPlusEveryMovement(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(45, 1))
	today := day("2026-11-16")
	for range 500 {
		var wallets []Wallet
		for i := range 1 + r.IntN(5) {
			wallets = append(wallets, Wallet{ID: int64(i + 1), Held: r.IntN(3) > 0, Balance: r.Int64N(2_000_000) - 1_000_000})
		}
		days := 1 + r.IntN(MaxDays)
		var moves []Movement
		for range r.IntN(60) {
			m := Movement{Date: today.AddDate(0, 0, r.IntN(days+10)-5), Amount: r.Int64N(2_000_000) - 1_000_000, Source: SourceRecurring, SourceID: 1}
			if w := r.IntN(len(wallets) + 2); w < len(wallets) {
				m.WalletID = ptr(wallets[w].ID)
			}
			moves = append(moves, m)
		}
		f, err := Project(today, days, wallets, moves)
		if err != nil {
			t.Fatal(err)
		}
		held := map[int64]bool{}
		var total int64
		for _, w := range wallets {
			if w.Held {
				held[w.ID] = true
				total += w.Balance
			}
		}
		prev := total
		for _, d := range f.Days {
			for _, m := range d.Movements {
				if m.WalletID == nil || held[*m.WalletID] {
					total += m.Amount
					prev += m.Amount
				}
			}
			if d.Balance != prev {
				t.Fatalf("day %s balance %d, want the day before plus its movements %d", d.Date.Format(time.DateOnly), d.Balance, prev)
			}
		}
		if last := f.Days[len(f.Days)-1].Balance; last != total {
			t.Fatalf("last day %d, today's total plus every movement %d", last, total)
		}
		// Every movement up to the last day is listed, once.
		n := 0
		for _, m := range moves {
			if !m.Date.After(f.To) {
				n++
			}
		}
		listed := 0
		for _, d := range f.Days {
			listed += len(d.Movements)
		}
		if listed != n {
			t.Fatalf("%d movements listed, %d in the window", listed, n)
		}
		// The lowest point is the minimum, the earliest of equal ones.
		for _, d := range f.Days {
			if d.Balance < f.Lowest.Balance || (d.Balance == f.Lowest.Balance && d.Date.Before(f.Lowest.Date)) {
				t.Fatalf("lowest %+v, but %s has %d", f.Lowest, d.Date, d.Balance)
			}
		}
	}
}

// TestPropertySpreadSumsToTheAmount: a one-time budget's slices sum exactly
// to what is left, floor(left / days) each and the remainder first.
func TestPropertySpreadSumsToTheAmount(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(45, 2))
	for range 2000 {
		amount := r.Int64N(1_000_000_000_000_000)
		n := 1 + r.IntN(400)
		s := Spread(amount, n)
		var sum int64
		for i, v := range s {
			sum += v
			if i > 0 && v != amount/int64(n) {
				t.Fatalf("slice %d of %d over %d: %d", i, amount, n, v)
			}
		}
		if len(s) != n || sum != amount {
			t.Fatalf("%d over %d: %d slices summing to %d", amount, n, len(s), sum)
		}
	}
}

// TestProjectBelowZeroAndLowest, by hand: the first day each held wallet is
// below zero (one already below today is listed with day 1), in wallets'
// order; a CARD's balance is not counted.
func TestProjectBelowZeroAndLowest(t *testing.T) {
	t.Parallel()
	today := day("2026-11-16")
	wallets := []Wallet{{ID: 1, Held: true, Balance: 100}, {ID: 2, Held: true, Balance: -5}, {ID: 3, Balance: -1_000}}
	moves := []Movement{
		{Date: day("2026-11-18"), WalletID: ptr[int64](1), Amount: -150, Source: SourceRecurring, SourceID: 9},
		{Date: day("2026-11-19"), Amount: 500, Source: SourceExpectedIncome, SourceID: 202611},
		{Date: day("2026-11-17"), WalletID: ptr[int64](3), Amount: -7, Source: SourcePending, SourceID: 4},
	}
	f, err := Project(today, 5, wallets, moves)
	if err != nil {
		t.Fatal(err)
	}
	want := []int64{95, 95, -55, 445, 445}
	for i, d := range f.Days {
		if d.Balance != want[i] {
			t.Errorf("day %d balance %d, want %d", i+1, d.Balance, want[i])
		}
	}
	if f.Lowest != (Point{Date: day("2026-11-18"), Balance: -55}) {
		t.Errorf("lowest %+v", f.Lowest)
	}
	if len(f.BelowZero) != 2 || f.BelowZero[0] != (BelowZero{1, Point{day("2026-11-18"), -50}}) || f.BelowZero[1] != (BelowZero{2, Point{today, -5}}) {
		t.Errorf("below zero %+v", f.BelowZero)
	}
}

// TestProjectTotalOutOfRange: a total that passes int64 is a 422
// TOTAL_OUT_OF_RANGE naming it, never a wrapped number.
func TestProjectTotalOutOfRange(t *testing.T) {
	t.Parallel()
	today := day("2026-11-16")
	for _, c := range []struct {
		wallets []Wallet
		moves   []Movement
		names   string
	}{
		{[]Wallet{{ID: 1, Held: true, Balance: math.MaxInt64}, {ID: 2, Held: true, Balance: 1}}, nil, "today's total"},
		{[]Wallet{{ID: 1, Held: true, Balance: math.MaxInt64 - 1}}, []Movement{{Date: today.AddDate(0, 0, 1), Amount: 2, Source: SourceExpectedIncome}}, "total balance of 2026-11-17"},
		{[]Wallet{{ID: 1, Held: true, Balance: math.MinInt64 + 1}, {ID: 2, Held: true, Balance: 10}}, []Movement{{Date: today, WalletID: ptr[int64](1), Amount: -5, Source: SourcePending}}, "balance of wallet 1 on 2026-11-16"},
	} {
		_, err := Project(today, 3, c.wallets, c.moves)
		p, ok := problem.As(err)
		if !ok || p.Status != http.StatusUnprocessableEntity || p.Code != problem.CodeTotalOutOfRange || !contains(p.Detail, c.names) {
			t.Errorf("%s: %v", c.names, err)
		}
	}
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

// TestRecurringOccurrences: one a calendar month on its day (a shorter
// month's last day), the months before the posting cursor left out when the
// job posts it, every one when it does not.
func TestRecurringOccurrences(t *testing.T) {
	t.Parallel()
	r := Recurring{Day: 31, AutoPost: true, NextMonth: day("2026-12-01")}
	got := r.Occurrences(day("2026-11-16"), day("2027-02-28"))
	if fmtDays(got) != "2026-12-31 2027-01-31 2027-02-28" {
		t.Errorf("auto-posted: %s", fmtDays(got))
	}
	r.AutoPost = false
	if got := fmtDays(r.Occurrences(day("2026-11-16"), day("2027-02-27"))); got != "2026-11-30 2026-12-31 2027-01-31" {
		t.Errorf("not auto-posted: %s", got)
	}
}

func fmtDays(ds []time.Time) string {
	s := ""
	for i, d := range ds {
		if i > 0 {
			s += " "
		}
		s += d.Format(time.DateOnly)
	}
	return s
}

// TestPaceArithmetic, by hand, on 2026-11-16 with month start day 25: ledger
// month 2026-11 runs 11-25..12-24 is not begun, 2026-10 runs 10-25..11-24:
// 23 days elapsed (10-25..11-16), 8 left (11-17..11-24).
func TestPaceArithmetic(t *testing.T) {
	t.Parallel()
	today := day("2026-11-16")
	oct := calendar.NewMonth(2026, time.October, 25)
	recs := []Recurring{
		{ID: 1, Amount: 10_000, CategoryID: ptr[int64](7), Day: 20, AutoPost: true, NextMonth: day("2026-11-01")}, // due 11-20
		{ID: 2, Amount: 5_000, CategoryID: ptr[int64](70), ParentID: ptr[int64](7), Day: 16, AutoPost: false},     // a sub-category, due today
		{ID: 3, Amount: 1_000, CategoryID: ptr[int64](7), Day: 10, AutoPost: false},                               // 11-10: past
		{ID: 4, Amount: 9_000, CategoryID: ptr[int64](7), Day: 18, Income: true},                                  // income: no
		{ID: 5, Amount: 8_000, CategoryID: ptr[int64](8), Day: 18, AutoPost: true, NextMonth: day("2026-12-01")},  // posted already
	}
	budgets := []PaceBudget{
		// 46,000 spent in 23 days: 2,000 a day, 16,000 in the 8 left, plus
		// 15,000 recurring = 77,000. Passing 70,000: 11-16 46,000+0+5,000;
		// 11-19 46,000+6,000+5,000 = 57,000; 11-20 +8,000+15,000 = 69,000;
		// 11-21 46,000+10,000+15,000 = 71,000 → 11-21.
		{CategoryID: 7, Budget: 70_000, Daily: []DaySpent{{day("2026-10-30"), 23_000}, {day("2026-11-10"), 23_000}}},
		// 23,000 spent: 1,000 a day, 31,000 projected; a budget of 40,000
		// is not passed.
		{CategoryID: 8, Budget: 40_000, Daily: []DaySpent{{day("2026-11-01"), 23_000}}},
		// Already over: passed on 11-02 (10,000 then 15,000 > 20,000).
		{CategoryID: 9, Budget: 20_000, Daily: []DaySpent{{day("2026-10-26"), 10_000}, {day("2026-11-02"), 15_000}, {day("2026-11-03"), 1}}},
		{CategoryID: 10, Budget: 0},
	}
	items, err := Pace(oct, today, budgets, recs)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		spent, projected int64
		over             string
	}{
		{46_000, 77_000, "2026-11-21"},
		{23_000, 31_000, ""},
		{25_001, 25_001 + 25_001*8/23, "2026-11-02"},
		{0, 0, ""},
	}
	for i, w := range want {
		it := items[i]
		over := ""
		if it.OverOn != nil {
			over = it.OverOn.Format(time.DateOnly)
		}
		if it.Spent != w.spent || it.Projected != w.projected || over != w.over {
			t.Errorf("category %d: spent %d projected %d over %q, want %d %d %q", it.CategoryID, it.Spent, it.Projected, over, w.spent, w.projected, w.over)
		}
	}

	// The month not begun (2026-11, 11-25..12-24): nothing elapsed, its
	// recurring expenses due are the projection: 12-10 1,000, the
	// sub-category's 12-16 5,000, 12-20 10,000 (passing 14,000 then).
	nov := calendar.NewMonth(2026, time.November, 25)
	items, err = Pace(nov, today, []PaceBudget{{CategoryID: 7, Budget: 14_000}}, recs)
	if err != nil {
		t.Fatal(err)
	}
	if it := items[0]; it.Spent != 0 || it.Projected != 16_000 || it.OverOn == nil || it.OverOn.Format(time.DateOnly) != "2026-12-20" {
		t.Errorf("next month: %+v (over %v)", it, it.OverOn)
	}
	// A month already over: projected = spent.
	sep := calendar.NewMonth(2026, time.September, 25)
	items, err = Pace(sep, today, []PaceBudget{{CategoryID: 7, Budget: 100, Daily: []DaySpent{{day("2026-10-01"), 99}}}}, recs)
	if err != nil {
		t.Fatal(err)
	}
	if it := items[0]; it.Spent != 99 || it.Projected != 99 || it.OverOn != nil {
		t.Errorf("past month: %+v", it)
	}
	// A pace that passes int64 is a 422.
	_, err = Pace(oct, today, []PaceBudget{{CategoryID: 7, Budget: 1, Daily: []DaySpent{{day("2026-10-26"), math.MaxInt64 - 5}}}}, nil)
	if p, ok := problem.As(err); !ok || p.Code != problem.CodeTotalOutOfRange {
		t.Errorf("huge pace: %v", err)
	}
}
