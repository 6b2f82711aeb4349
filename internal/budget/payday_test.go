package budget_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	lt "github.com/nestegg/nestegg/internal/apitest/ledgertest"
	"github.com/nestegg/nestegg/internal/calendar"
)

func setStartDay(t *testing.T, m *apitest.Member, day int32) {
	t.Helper()
	var p api.Profile
	m.Do(http.MethodPut, "/api/auth/profile", api.UpdateProfileRequest{Name: "Payday", MonthStartDay: &day}).Want(http.StatusOK).JSON(&p)
	if p.MonthStartDay != day {
		t.Fatalf("profile monthStartDay %d, want %d", p.MonthStartDay, day)
	}
}

func TestMonthRangeAndMonthOfFollowTheStartDay(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		start      int
		year       int
		month      time.Month
		from, last string
	}{
		{1, 2026, time.December, "2026-12-01", "2026-12-31"},
		{25, 2026, time.December, "2026-12-25", "2027-01-24"},
		{25, 2027, time.January, "2027-01-25", "2027-02-24"},
		{5, 2026, time.November, "2026-11-05", "2026-12-04"},
		{28, 2027, time.January, "2027-01-28", "2027-02-27"},
	} {
		mo := calendar.NewMonth(c.year, c.month, c.start)
		from, to := mo.From(), mo.To()
		if from.Format(time.DateOnly) != c.from || to.AddDate(0, 0, -1).Format(time.DateOnly) != c.last {
			t.Errorf("start %d, %d-%02d: %s to %s, want %s to %s", c.start, c.year, c.month, from, to, c.from, c.last)
		}
		// Every day of the range belongs to that month, and the days around it do not.
		for d := from; d.Before(to); d = d.AddDate(0, 0, 1) {
			if m := calendar.MonthOf(d, c.start); m.Year() != c.year || m.Month() != c.month {
				t.Fatalf("start %d: %s is in %d-%02d", c.start, d.Format(time.DateOnly), m.Year(), m.Month())
			}
		}
		if calendar.MonthOf(to, c.start) == mo {
			t.Errorf("start %d: %s still in the month", c.start, to)
		}
		if calendar.MonthOf(from.AddDate(0, 0, -1), c.start) == mo {
			t.Errorf("start %d: the day before %s is in the month", c.start, from)
		}
	}
}

func TestMonthStartDayOnTheProfile(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	var p api.Profile
	m.Do(http.MethodGet, "/api/auth/profile", nil).Want(http.StatusOK).JSON(&p)
	if p.MonthStartDay != 1 {
		t.Fatalf("default monthStartDay %d", p.MonthStartDay)
	}
	setStartDay(t, m, 25)
	// A rename without the field keeps it.
	m.Do(http.MethodPut, "/api/auth/profile", api.UpdateProfileRequest{Name: "Renamed"}).Want(http.StatusOK).JSON(&p)
	if p.MonthStartDay != 25 || p.Name != "Renamed" {
		t.Fatalf("after rename %+v", p)
	}
	for _, body := range []string{`{"name":"x","monthStartDay":0}`, `{"name":"x","monthStartDay":29}`, `{"name":"x","monthStartDay":"5"}`, `{"name":"x","monthStartDay":1.5}`} {
		m.Raw().Send(http.MethodPut, "/api/auth/profile", "application/json", []byte(body)).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
	}
}

func entryDates(m *apitest.Member, query string) []string {
	var list api.EntryPage
	m.Do(http.MethodGet, "/api/account/entries?size=100&"+query, nil).Want(http.StatusOK).JSON(&list)
	out := []string{}
	for _, e := range list.Items {
		out = append(out, e.Date.String())
	}
	return out
}

// TestPaydayMonthsAcrossAYearEnd: with start day 25, "December 2026" is 25
// December to 24 January for the entry filter, budget status, statistics
// and the current month of the test clock (23:59 of the month's last day
// and 00:00 of the next one in APP_TIMEZONE).
func TestPaydayMonthsAcrossAYearEnd(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	w := lt.Wallet(m.Client, "Cash", api.WalletTypeCash, 0)
	food := lt.Category(m.Client, "Food", api.EntryTypeExpense, nil)
	for _, d := range []api.EntryRequest{
		lt.Expense(lt.Date(2026, 12, 24), 1, w.ID),
		lt.Expense(lt.Date(2026, 12, 25), 10, w.ID),
		lt.Expense(lt.Date(2026, 12, 31), 100, w.ID),
		lt.Expense(lt.Date(2027, 1, 1), 1000, w.ID),
		lt.Expense(lt.Date(2027, 1, 24), 10000, w.ID),
		lt.Expense(lt.Date(2027, 1, 25), 100000, w.ID),
	} {
		d.CategoryID = &food.ID
		lt.Entry(m.Client, d)
	}
	createBudget(m, food.ID, 2026, 12, 20000)

	// Start day 1: calendar months.
	if got := fmt.Sprint(entryDates(m, "year=2026&month=12")); got != "[2026-12-31 2026-12-25 2026-12-24]" {
		t.Errorf("calendar December: %s", got)
	}
	if s := statusOf(m, 2026, 12); s.Spent != 111 || s.Items[0].Spent != 111 {
		t.Errorf("calendar December status spent %d", s.Spent)
	}

	setStartDay(t, m, 25)
	if got := fmt.Sprint(entryDates(m, "year=2026&month=12")); got != "[2027-01-24 2027-01-01 2026-12-31 2026-12-25]" {
		t.Errorf("payday December: %s", got)
	}
	s := statusOf(m, 2026, 12)
	if s.Spent != 11110 || s.Items[0].Spent != 11110 || s.From.String() != "2026-12-25" || s.To.String() != "2027-01-24" {
		t.Errorf("payday December status %+v", s)
	}
	var ms api.MonthlyStats
	m.Do(http.MethodGet, "/api/account/stats/monthly?year=2026&month=12", nil).Want(http.StatusOK).JSON(&ms)
	if ms.Expense != 11110 || len(ms.Days) != 4 {
		t.Errorf("payday December statistics %+v", ms)
	}
	var ys api.YearlyStats
	m.Do(http.MethodGet, "/api/account/stats/yearly?year=2026", nil).Want(http.StatusOK).JSON(&ys)
	if ys.Months[10].Expense != 1 || ys.Months[11].Expense != 11110 || ys.Expense != 11111 {
		t.Errorf("payday 2026 by month: November %d, December %d, year %d", ys.Months[10].Expense, ys.Months[11].Expense, ys.Expense)
	}
	var c api.BudgetChart
	m.Do(http.MethodGet, "/api/account/budgets/chart?year=2027&month=1&months=2", nil).Want(http.StatusOK).JSON(&c)
	if len(c.Points) != 2 || c.Points[0].Spent != 11110 || c.Points[0].Budget != 20000 || c.Points[1].Spent != 100000 {
		t.Errorf("payday chart %+v", c.Points)
	}

	// The current month follows the clock in APP_TIMEZONE.
	seoul := env.Clock.Now().Location()
	env.Clock.Set(time.Date(2027, 1, 24, 23, 59, 0, 0, seoul))
	if got := fmt.Sprint(entryDates(m, "")); got != "[2027-01-24 2027-01-01 2026-12-31 2026-12-25]" {
		t.Errorf("at 23:59 of 24 January the current month is %s", got)
	}
	env.Clock.Set(time.Date(2027, 1, 25, 0, 0, 0, 0, seoul))
	if got := fmt.Sprint(entryDates(m, "")); got != "[2027-01-25]" {
		t.Errorf("at 00:00 of 25 January the current month is %s", got)
	}
}
