package server_test

import (
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/apitest/ledgertest"
	"github.com/nestegg/nestegg/internal/app"
	"github.com/nestegg/nestegg/internal/config"
	"github.com/nestegg/nestegg/internal/dbtest"
)

// Issue 42: with PostgreSQL stopped (packets accepted, nothing answered),
// requests answer 503 DEPENDENCY_UNAVAILABLE with Retry-After in about a
// second, not at their 8 s deadline; they succeed again soon after it
// answers; and a backup (60 s deadline) through the same pool works.
//
// The service opens its own pool from DATABASE_URL, as in production (with
// the production DATABASE_HANG_TIMEOUT), through a proxy that the test
// freezes instead of the shared server.
func TestHungDatabaseAnswers503Fast(t *testing.T) {
	t.Parallel()
	proxy := dbtest.NewProxy(t)
	env := apitest.New(t, func(cfg *config.Config, o *app.Options) {
		// The test's own database, reached through the proxy by a pool the
		// service opens.
		cfg.DatabaseURL = proxy.URL(o.Pool.Config().ConnString())
		o.Pool = nil
	})
	m := env.NewMember(apitest.AsPremium())
	w := ledgertest.Wallet(m.Client, "Cash", api.WalletTypeCash, 10_000)
	for day := 1; day <= 3; day++ {
		ledgertest.Entry(m.Client, ledgertest.Expense(ledgertest.Date(2026, 11, day), 1_000, w.ID))
	}
	m.Do(http.MethodGet, "/api/account/wallets", nil).Want(http.StatusOK)

	// A heavy operation through the proxy, the breaker closed: its own
	// deadline, not a second's.
	m.Do(http.MethodGet, "/api/account/backup", nil).Want(http.StatusOK)

	proxy.Freeze()
	const n = 4
	var wg sync.WaitGroup
	took := make([]time.Duration, n)
	res := make([]*apitest.Response, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			start := time.Now()
			res[i] = m.Do(http.MethodGet, "/api/account/wallets", nil)
			took[i] = time.Since(start)
		}()
	}
	wg.Wait()
	for i := range n {
		res[i].WantProblem(http.StatusServiceUnavailable, "DEPENDENCY_UNAVAILABLE")
		if res[i].Header.Get("Retry-After") == "" {
			t.Errorf("request %d: 503 without Retry-After", i)
		}
		if took[i] > 4*time.Second {
			t.Errorf("request %d answered after %s: the hung database cost it its deadline, not about a second", i, took[i])
		}
	}
	t.Logf("while PostgreSQL did not answer, requests answered 503 after %v", took)

	proxy.Thaw()
	thawed := time.Now()
	dbtest.Eventually(t, "requests succeed again once PostgreSQL answers", func() bool {
		return m.Do(http.MethodGet, "/api/account/wallets", nil).Status == http.StatusOK
	})
	t.Logf("requests succeeded again %s after PostgreSQL answered", time.Since(thawed))
	m.Do(http.MethodGet, "/api/account/backup", nil).Want(http.StatusOK)
}
