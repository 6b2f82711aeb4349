package forecast_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/forecast"
	"github.com/nestegg/nestegg/internal/loadtest"
)

// seedHeavyMember gives m what issue 45's speed figure names: five years of
// history (loadtest.SeedHistory, 6 entries a day: about 11,000), 10 cards
// with a statement cycle paid from a bank, each with two purchases a week
// for five years (one in five in 2 to 24 months' installments, about 5,200
// card entries) and every past bill paid, and 50 recurring entries; then
// ANALYZE.
func seedHeavyMember(tb testing.TB, env *apitest.Env, m *apitest.Member) {
	tb.Helper()
	today := time.Date(2026, 11, 16, 0, 0, 0, 0, time.UTC)
	if _, err := loadtest.SeedHistory(context.Background(), env.Pool, m.ID, 5, 6, today); err != nil {
		tb.Fatal(err)
	}
	env.Exec(`INSERT INTO wallet (member_id, name, type, opening_balance, sort_order) VALUES ($1, 'Pay bank', 'BANK', 10000000000, 10)`, m.ID)
	env.Exec(`INSERT INTO wallet (member_id, name, type, statement_day, payment_day, payment_wallet_id, sort_order)
		SELECT $1, 'Card ' || i, 'CARD', 1 + (i * 3) % 31, 1 + (i * 7 + 10) % 28,
		       (SELECT id FROM wallet WHERE member_id = $1 AND name = 'Pay bank'), 10 + i
		FROM generate_series(1, 10) i`, m.ID)
	env.Exec(`INSERT INTO account_entry (member_id, wallet_id, type, amount, entry_date, memo, installment_months)
		SELECT $1, w.id, 'expense', 5000 + (k * 7919) % 200000, DATE '2021-11-17' + (k * 3 + w.id % 3)::int, 'card ' || k,
		       CASE WHEN k % 5 = 0 THEN 2 + k % 23 END
		FROM wallet w, generate_series(0, 606) k
		WHERE w.member_id = $1 AND w.name LIKE 'Card %'`, m.ID)
	// Members pay their bills: a transfer from the bank into each card on
	// the 28th of every past month, more than a month's bill (a statement
	// takes the oldest payment dated after it closes), so every closed
	// statement is paid but the last.
	env.Exec(`WITH t AS (
			INSERT INTO transfer (member_id, transfer_date, amount)
			SELECT $1, (DATE '2021-12-28' + make_interval(months => k))::date, 10000000
			FROM generate_series(0, 58) k, generate_series(1, 10) c
			RETURNING id, transfer_date, amount),
		n AS (SELECT id, transfer_date, amount, row_number() OVER (PARTITION BY transfer_date ORDER BY id) AS c FROM t)
		INSERT INTO account_entry (member_id, wallet_id, type, amount, entry_date, transfer_id)
		SELECT $1, w.id, s.type, n.amount, n.transfer_date, n.id
		FROM n CROSS JOIN (VALUES ('expense'), ('income')) s (type)
		JOIN wallet w ON w.member_id = $1 AND w.name = CASE WHEN s.type = 'expense' THEN 'Pay bank' ELSE 'Card ' || n.c END`, m.ID)
	env.Exec(`INSERT INTO recurring (member_id, name, type, amount, wallet_id, day, next_month)
		SELECT $1, 'r' || i, CASE WHEN i % 10 = 0 THEN 'income' ELSE 'expense' END, 10000 + i * 100,
		       (SELECT id FROM wallet WHERE member_id = $1 AND name = 'Pay bank'), 1 + i % 31, DATE '2026-12-01'
		FROM generate_series(1, 50) i`, m.ID)
	env.Exec(`ANALYZE`)
}

// BenchmarkForecastVsMonthList: issue 45's figure. A 92-day forecast of a
// member with five years of history, 10 cards with installments and 50
// recurring entries, against the same member's month list (the default
// page), one request at a time, interleaved (a forecast, then a month
// list, b.N times), so both see the same machine. It reports each one's
// median latency and their ratio, "x-monthlist" (target ≤ 2).
func BenchmarkForecastVsMonthList(b *testing.B) {
	env := apitest.New(b)
	m := env.NewMember(apitest.AsPremium())
	seedHeavyMember(b, env, m)
	client := &http.Client{}
	get := func(path string) time.Duration {
		req, err := http.NewRequest(http.MethodGet, env.Server.URL+path, nil)
		if err != nil {
			b.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+m.Token)
		start := time.Now()
		res, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		d := time.Since(start)
		if res.StatusCode != http.StatusOK {
			b.Fatalf("%s: status %d", path, res.StatusCode)
		}
		return d
	}
	const forecast, monthList = "/api/account/forecast?days=92", "/api/account/entries?year=2026&month=11"
	for range 20 { // warm: connections, prepared statements, plans
		get(forecast)
		get(monthList)
	}
	n := max(b.N, 50)
	f, l := make([]time.Duration, n), make([]time.Duration, n)
	b.ResetTimer()
	for i := range n {
		f[i] = get(forecast)
		l[i] = get(monthList)
	}
	b.StopTimer()
	fm, lm := median(f), median(l)
	b.ReportMetric(float64(fm.Microseconds()), "forecast-µs")
	b.ReportMetric(float64(lm.Microseconds()), "monthlist-µs")
	b.ReportMetric(float64(fm)/float64(lm), "x-monthlist")
}

func median(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

// TestForecastIsAFixedNumberOfStatements: the forecast of the heavy member
// sends the same statements as that of a member with one wallet and
// nothing else (no N+1 over wallets, cards or recurring entries), six
// queries in one round trip, and one more statement, recording the cards'
// checkpoints, only when they moved (the heavy member's first forecast);
// its answer for the heavy member lists every source it has.
func TestForecastIsAFixedNumberOfStatements(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	heavy := env.NewMember(apitest.AsPremium())
	light := env.NewMember()
	seedHeavyMember(t, env, heavy)
	env.Exec(`INSERT INTO wallet (member_id, name, type, sort_order) VALUES ($1, 'Only', 'BANK', 1)`, light.ID)
	statements := func(m *apitest.Member) ([]string, int) {
		var log []string
		rec := &apitest.RecordingDB{DBTX: env.Pool}
		today := time.Date(2026, 11, 16, 0, 0, 0, 0, time.UTC)
		if _, err := forecast.MemberForecast(t.Context(), rec, m.ID, 1, today, 92); err != nil {
			t.Fatal(err)
		}
		for _, s := range rec.Sent {
			first := strings.SplitN(strings.TrimSpace(s.SQL), "\n", 2)[0]
			log = append(log, first)
		}
		return log, rec.Trips
	}
	first, firstTrips := statements(heavy)
	h, hTrips := statements(heavy)
	l, lTrips := statements(light)
	if fmt.Sprint(h) != fmt.Sprint(l) || len(h) != 6 || hTrips != 1 || lTrips != 1 {
		t.Errorf("heavy member: %d statements in %d round trips %v\nlight member: %d in %d %v", len(h), hTrips, h, len(l), lTrips, l)
	}
	if fmt.Sprint(first) != fmt.Sprint(append(h, "-- name: SaveCardCheckpoints :exec")) || firstTrips != 2 {
		t.Errorf("heavy member's first forecast: %d statements in %d round trips %v", len(first), firstTrips, first)
	}
	f := forecastOf(t, heavy, "?days=92")
	sources := map[string]bool{}
	for _, mv := range movements(f) {
		sources[string(mv.source)] = true
	}
	if !sources["RECURRING"] || !sources["CARD_BILL"] {
		t.Errorf("heavy member's sources %v", sources)
	}
}
