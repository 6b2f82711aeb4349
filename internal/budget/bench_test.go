package budget_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/budget"
	"github.com/nestegg/nestegg/internal/calendar"
)

// The benchmarks measure requests against their floor as internal/ledger's
// do (apitest.BenchAgainstFloor).

// BenchmarkBudgetStatus: a month's status over a seeded year, against the
// one statement a request sends (the start day comes with the session).
func BenchmarkBudgetStatus(b *testing.B) {
	env := apitest.New(b)
	m := env.NewMember(apitest.AsPremium())
	seedBudgetYear(b, env, m)
	rec := &apitest.RecordingDB{DBTX: env.Pool}
	if _, err := budget.Status(asRequest(m, 1), db.New(rec), m.ID, calendar.NewMonth(2026, time.March, 1)); err != nil {
		b.Fatal(err)
	}
	env.BenchAgainstFloor(b, m, apitest.BenchRequest{Method: http.MethodGet, Path: "/api/account/budgets/status?year=2026&month=3", Want: http.StatusOK}, rec.Sent)
}

// BenchmarkMonthlyStats: a month's statistics over a seeded year, against
// the one statement a request sends (sums by category, by day and the
// transfers per wallet).
func BenchmarkMonthlyStats(b *testing.B) {
	env := apitest.New(b)
	m := env.NewMember(apitest.AsPremium())
	seedBudgetYear(b, env, m)
	rec := &apitest.RecordingDB{DBTX: env.Pool}
	if _, err := budget.MonthlyStats(asRequest(m, 1), db.New(rec), m.ID, calendar.NewMonth(2026, time.March, 1)); err != nil {
		b.Fatal(err)
	}
	env.BenchAgainstFloor(b, m, apitest.BenchRequest{Method: http.MethodGet, Path: "/api/account/stats/monthly?year=2026&month=3", Want: http.StatusOK}, rec.Sent)
}
