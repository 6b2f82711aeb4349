package ledger_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/ledger"
)

func TestRecurringNextOccurrence(t *testing.T) {
	t.Parallel()
	seoul := apitest.Start.Location()
	at := func(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 10, 0, 0, 0, seoul) }
	for _, tc := range []struct {
		name  string
		today time.Time
		day   int
		want  time.Time
	}{
		{"day 31 in November falls on the 30th", at(2026, 11, 16), 31, day(2026, 11, 30)},
		{"day 31 on 30 November is today", at(2026, 11, 30), 31, day(2026, 11, 30)},
		{"today's day is today", at(2026, 11, 16), 16, day(2026, 11, 16)},
		{"a past day is next month's", at(2026, 11, 16), 10, day(2026, 12, 10)},
		{"day 31 in February 2027", at(2027, 2, 1), 31, day(2027, 2, 28)},
		{"day 30 in February 2027", at(2027, 2, 28), 30, day(2027, 2, 28)},
		{"day 31 in February 2028 (leap)", at(2028, 2, 10), 31, day(2028, 2, 29)},
		{"day 30 in February 2028 (leap)", at(2028, 2, 10), 30, day(2028, 2, 29)},
		{"day 29 on 29 January", at(2027, 1, 29), 29, day(2027, 1, 29)},
		{"day 29 after 29 January falls on February's last day", at(2027, 1, 30), 29, day(2027, 2, 28)},
		{"after February's last day comes 1 March", at(2027, 2, 28), 1, day(2027, 3, 1)},
		{"December to January of the next year", at(2026, 12, 20), 5, day(2027, 1, 5)},
		{"day 31 on 31 December", at(2026, 12, 31), 31, day(2026, 12, 31)},
		{"day 30 after 30 December", at(2026, 12, 31), 30, day(2027, 1, 30)},
		// 20:00 UTC on 30 November is 1 December in Seoul: the date is today's
		// in its own location.
		{"today's date in its location", time.Date(2026, 11, 30, 20, 0, 0, 0, time.UTC).In(seoul), 31, day(2026, 12, 31)},
	} {
		if got := ledger.NextOccurrence(tc.today, tc.day); !got.Equal(tc.want) {
			t.Errorf("%s: nextOccurrence(%s, %d) = %s, want %s", tc.name, tc.today.Format(time.DateTime), tc.day, got.Format(time.DateOnly), tc.want.Format(time.DateOnly))
		}
	}
}

// Every recurring answer (create, update, list) carries nextDate, computed
// from the service clock in APP_TIMEZONE.
func TestRecurringNextDateInAnswers(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	nextDates := func() []string {
		t.Helper()
		var list api.RecurringList
		m.Do(http.MethodGet, "/api/account/recurrings", nil).Want(http.StatusOK).JSON(&list)
		var out []string
		for _, r := range list.Items {
			out = append(out, fmt.Sprintf("day %d: %s", r.Day, r.NextDate))
		}
		return out
	}
	wantDates := func(when string, got []string, want ...string) {
		t.Helper()
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: next dates %v, want %v", when, got, want)
		}
	}

	// The clock starts on 16 November 2026, 10:00 in Seoul.
	var rent, salary api.Recurring
	m.Do(http.MethodPost, "/api/account/recurrings", api.RecurringRequest{Name: "Rent", Type: api.EntryTypeExpense, Amount: 650000, Day: 31}).
		Want(http.StatusCreated).JSON(&rent)
	m.Do(http.MethodPost, "/api/account/recurrings", api.RecurringRequest{Name: "Salary", Type: api.EntryTypeIncome, Amount: 3000000, Day: 5}).
		Want(http.StatusCreated).JSON(&salary)
	wantDates("create", []string{rent.NextDate.String(), salary.NextDate.String()}, "2026-11-30", "2026-12-05")
	wantDates("list on 16 November", nextDates(), "day 5: 2026-12-05", "day 31: 2026-11-30")

	// 20:00 UTC on 30 November is already 1 December in Seoul.
	env.Clock.Set(time.Date(2026, 11, 30, 20, 0, 0, 0, time.UTC))
	wantDates("list on 1 December in Seoul", nextDates(), "day 5: 2026-12-05", "day 31: 2026-12-31")

	m.Do(http.MethodPut, fmt.Sprintf("/api/account/recurrings/%d", salary.ID), api.RecurringRequest{Name: "Salary", Type: api.EntryTypeIncome, Amount: 3000000, Day: 1}).
		Want(http.StatusOK).JSON(&salary)
	wantDates("update to day 1 on 1 December", []string{salary.NextDate.String()}, "2026-12-01")

	env.Clock.Set(time.Date(2027, 2, 10, 9, 0, 0, 0, apitest.Start.Location()))
	wantDates("list on 10 February 2027", nextDates(), "day 1: 2027-03-01", "day 31: 2027-02-28")
}
