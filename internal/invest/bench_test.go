package invest_test

import (
	"io"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/nestegg/nestegg/internal/apitest"
)

// BenchmarkNetWorthTrend asks the net-worth trend at one connection, the
// default 12 months and 13 weeks, of a member with one year of entries and
// of one with five (the same six wallets, four entries a day, a tenth
// pending). The two members' requests alternate in one loop, so a machine
// busy with other work slows both alike; it reports each one's median time
// per request and their ratio, "5y/1y" (issue 21's target: at most 1.3).
func BenchmarkNetWorthTrend(b *testing.B) {
	for _, unit := range []string{"MONTH", "WEEK"} {
		b.Run(unit, func(b *testing.B) {
			env := apitest.New(b)
			one, five := env.NewMember(apitest.AsPremium()), env.NewMember(apitest.AsPremium())
			seedHistory(env, one.ID, 1)
			seedHistory(env, five.ID, 5)
			path := "/api/account/networth/trend?unit=" + unit
			get := getter(b, env, path)
			for range 30 {
				get(one)
				get(five)
			}
			var t1, t5 []time.Duration
			b.ResetTimer()
			for b.Loop() {
				t1 = append(t1, get(one))
				t5 = append(t5, get(five))
			}
			b.StopTimer()
			m1, m5 := median(t1), median(t5)
			b.ReportMetric(float64(m1.Microseconds()), "1y-µs/req")
			b.ReportMetric(float64(m5.Microseconds()), "5y-µs/req")
			b.ReportMetric(float64(m5)/float64(m1), "5y/1y")
		})
	}
}

func median(ds []time.Duration) time.Duration {
	slices.Sort(ds)
	return ds[len(ds)/2]
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

// getter answers a function that sends GET path as a member over one
// kept-alive connection and answers how long the answer took.
func getter(b *testing.B, env *apitest.Env, path string) func(m *apitest.Member) time.Duration {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1}}
	return func(m *apitest.Member) time.Duration {
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
		took := time.Since(start)
		if res.StatusCode != http.StatusOK {
			b.Fatalf("status %d", res.StatusCode)
		}
		return took
	}
}
