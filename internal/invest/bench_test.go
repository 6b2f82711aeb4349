package invest_test

import (
	"io"
	"net/http"
	"testing"

	"github.com/nestegg/nestegg/internal/apitest"
)

// BenchmarkNetWorthTrend asks one member's net-worth trend over and over at
// one connection, the default 12 months and 13 weeks, for a member with one
// year of entries and one with five (the same six wallets, four entries a
// day, a tenth pending). Issue 21's target: the five-year member's trend
// within 1.3× of the one-year member's (compare the ns/op of .../1y and
// .../5y of the same unit).
func BenchmarkNetWorthTrend(b *testing.B) {
	for _, unit := range []string{"MONTH", "WEEK"} {
		for _, years := range []int{1, 5} {
			b.Run(unit+"/"+map[int]string{1: "1y", 5: "5y"}[years], func(b *testing.B) {
				env := apitest.New(b)
				m := env.NewMember(apitest.AsPremium())
				seedHistory(env, m.ID, years)
				benchOneConnection(b, env, m, "/api/account/networth/trend?unit="+unit)
			})
		}
	}
}

// seedHistory gives the member six wallets and four entries a day for the
// given years up to the test clock's day (16 November 2026), a tenth of
// them pending, a fortieth backdated onto another wallet's day.
func seedHistory(env *apitest.Env, memberID int64, years int) {
	env.Exec(`INSERT INTO wallet (member_id, name, type, opening_balance, sort_order)
		SELECT $1, t, t, 1000000, o FROM unnest(ARRAY['BANK','CARD','CASH','SAVINGS','POINT','MINUS']) WITH ORDINALITY AS x(t, o)`, memberID)
	env.Exec(`INSERT INTO account_entry (member_id, wallet_id, type, amount, entry_date, memo, pending)
		SELECT $1, w.ids[1 + g % 6], CASE WHEN g % 10 = 3 THEN 'income' ELSE 'expense' END,
		       1000 + (g * 7919) % 50000, DATE '2026-11-16' - g / 4, 'seed', g % 10 = 7
		FROM generate_series(0, $2::int * 365 * 4 - 1) g,
		     (SELECT array_agg(id ORDER BY id) AS ids FROM wallet WHERE member_id = $1) w`, memberID, years)
}

// benchOneConnection sends GET path as m, one request at a time.
func benchOneConnection(b *testing.B, env *apitest.Env, m *apitest.Member, path string) {
	b.Helper()
	client := &http.Client{}
	get := func() {
		req, err := http.NewRequest(http.MethodGet, env.Server.URL+path, nil)
		if err != nil {
			b.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+m.Token)
		res, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			b.Fatalf("status %d", res.StatusCode)
		}
	}
	for range 50 {
		get()
	}
	b.ResetTimer()
	for b.Loop() {
		get()
	}
}
