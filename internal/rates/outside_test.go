package rates_test

import (
	"context"
	"net/http"
	"strconv"
	"testing"
	"time"

	openapi_types "github.com/oapi-codegen/runtime/types"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/config"
	"github.com/nestegg/nestegg/internal/external/fx/fxtest"
	"github.com/nestegg/nestegg/internal/problem"
	"github.com/nestegg/nestegg/internal/rates"
)

// madeUpPairs are n distinct pairs of real ISO 4217 codes the fake provider
// has no rate for (it answers 404 for them).
func madeUpPairs(t *testing.T, n int) [][2]string {
	t.Helper()
	var out [][2]string
	for a := 'A'; a <= 'Z' && len(out) < n; a++ {
		for b := 'A'; b <= 'Z' && len(out) < n; b++ {
			for c := 'A'; c <= 'Z' && len(out) < n; c++ {
				code := string([]rune{a, b, c})
				if rates.IsCurrency(code) && code != "KRW" && code != "USD" && code != "EUR" && code != "JPY" {
					out = append(out, [2]string{code, "KRW"})
				}
			}
		}
	}
	if len(out) < n {
		t.Fatalf("only %d pairs", len(out))
	}
	return out
}

func TestFXRateMadeUpCurrencyIs400WithoutACall(t *testing.T) {
	t.Parallel()
	env, fake := newEnv(t)
	m := env.NewMember()
	for _, c := range []struct{ query, field string }{
		{"from=XYZ&to=KRW", "/from"}, {"from=USD&to=ABC", "/to"}, {"from=DEM&to=KRW", "/from"}, {"from=KRW&to=XXX", "/to"},
	} {
		p := m.Do(http.MethodGet, "/api/fx/rate?"+c.query, nil).WantProblem(http.StatusBadRequest, problem.CodeValidationFailed)
		if len(p.Errors) != 1 || p.Errors[0].Field != c.field {
			t.Errorf("%s: %+v, want one error on %s", c.query, p, c.field)
		}
	}
	// An entry whose rate would be looked up names its own field.
	orig, cur := "12.5", "QQQ"
	p := m.Do(http.MethodPost, "/api/account/entries", api.CreateEntryJSONRequestBody{
		Type: api.EntryTypeExpense, Date: openapi_types.Date{Time: time.Date(2026, 11, 16, 0, 0, 0, 0, time.UTC)},
		Currency: &cur, OriginalAmount: &orig,
	}).WantProblem(http.StatusBadRequest, problem.CodeValidationFailed)
	if len(p.Errors) != 1 || p.Errors[0].Field != "/currency" {
		t.Errorf("entry: %+v, want one error on /currency", p)
	}
	if fake.Calls() != 0 {
		t.Fatalf("%d provider calls for made-up currencies, want none", fake.Calls())
	}
}

func TestFXRateFailedLookupIsRememberedAcrossReplicas(t *testing.T) {
	t.Parallel()
	env, fake := newEnv(t)
	fake.SetMode(fxtest.Fail)
	m := env.NewMember()
	replica := env.NewReplica()
	for _, c := range []*apitest.Client{m.Client, m.Client, replica.Client().WithToken(m.Token)} {
		res := c.Do(http.MethodGet, "/api/fx/rate?from=USD&to=KRW", nil)
		res.WantProblem(http.StatusServiceUnavailable, problem.CodeDependencyUnavailable)
		if res.Header.Get("Retry-After") != "60" {
			t.Fatalf("Retry-After %q", res.Header.Get("Retry-After"))
		}
	}
	if fake.Calls() != 1 {
		t.Fatalf("%d provider calls for one miss asked three times at once, want 1", fake.Calls())
	}
	// A minute later the miss is asked again, and a rate that came back is
	// stored.
	fake.SetMode(fxtest.Good)
	env.Clock.Advance(time.Minute)
	if got := getRate(t, m, "USD", "KRW"); got.Rate != "1391.25" {
		t.Fatalf("after the miss: %+v", got)
	}
	if fake.Calls() != 2 {
		t.Fatalf("%d provider calls, want 2", fake.Calls())
	}
}

// The measurement: lookups of made-up pairs against a slow provider
// made another member's wallet list wait for pool connections. Here 100
// lookups are held at the provider at once; while they are, the service
// holds no pool connection for them, and another member's reads never wait
// for one (pgxpool counts every acquire that found the pool empty).
func TestFXSlowProviderLeavesThePoolToOthers(t *testing.T) {
	t.Parallel()
	const n = 100
	fake := fxtest.New(t)
	env := apitest.New(t, apitest.WithConfig(func(cfg *config.Config) {
		cfg.FXAPIURL = fake.URL
		cfg.FXDailyLimit = n
	}))
	asker, reader := env.NewMember(), env.NewMember()
	reader.Do(http.MethodPost, "/api/account/wallets", api.WalletRequest{Name: "Cash", Type: api.WalletTypeCash}).Want(http.StatusCreated)
	pairs := madeUpPairs(t, n)
	fake.Block()
	defer fake.Unblock()

	done := make(chan []*apitest.Response)
	go func() {
		done <- apitest.TogetherV(n, func(i int) *apitest.Response {
			return asker.Do(http.MethodGet, "/api/fx/rate?from="+pairs[i][0]+"&to="+pairs[i][1], nil)
		})
	}()
	// Wait until every lookup is at the provider. With a connection held
	// per call, no more than the pool's size ever get there: the lookups
	// end (the client gives up) before n are in flight.
	var answers []*apitest.Response
	for fake.InFlight() < n && answers == nil {
		select {
		case answers = <-done:
		default:
			time.Sleep(5 * time.Millisecond) // polling the fake, not waiting for an outcome
		}
	}
	if answers != nil {
		t.Fatalf("the lookups ended before all %d were at the provider at once (at most %d were)", n, fake.Calls())
	}
	stat := env.Pool.Stat()
	if held := stat.AcquiredConns(); held > 0 {
		t.Errorf("%d pool connections held while %d provider calls are in flight, want 0", held, n)
	}
	for range 5 {
		reader.Do(http.MethodGet, "/api/account/wallets", nil).Want(http.StatusOK)
	}
	if waits := env.Pool.Stat().EmptyAcquireCount() - stat.EmptyAcquireCount(); waits != 0 {
		t.Errorf("another member's reads waited %d times for a pool connection", waits)
	}
	if fake.InFlight() != n {
		t.Fatalf("%d calls in flight after the reads, want %d still held", fake.InFlight(), n)
	}
	fake.Unblock()
	answers = <-done
	for i, res := range answers {
		if res.Status != http.StatusServiceUnavailable {
			t.Errorf("lookup %d: status %d, want 503 (the provider has no such rate)", i, res.Status)
		}
	}
	if fake.Calls() != n {
		t.Fatalf("%d provider calls, want %d", fake.Calls(), n)
	}
}

func TestFXDailyLimitAdmitsExactlyTheLimit(t *testing.T) {
	t.Parallel()
	const limit, asks = 5, 20
	fake := fxtest.New(t)
	env := apitest.New(t, apitest.WithConfig(func(cfg *config.Config) {
		cfg.FXAPIURL = fake.URL
		cfg.FXDailyLimit = limit
	}))
	pairs := madeUpPairs(t, asks)
	for _, p := range pairs {
		fake.SetRate(p[0], p[1], 2.5)
	}
	m := env.NewMember()
	answers := apitest.TogetherV(asks, func(i int) *apitest.Response {
		return m.Do(http.MethodGet, "/api/fx/rate?from="+pairs[i][0]+"&to="+pairs[i][1], nil)
	})
	ok, limited := 0, 0
	var stored [2]string
	for i, res := range answers {
		switch res.Status {
		case http.StatusOK:
			ok++
			stored = pairs[i]
		case http.StatusTooManyRequests:
			limited++
			res.WantProblem(http.StatusTooManyRequests, problem.CodeRateLimited)
			// 10:00 in Seoul: 14 hours to the member's next day.
			if got := res.Header.Get("Retry-After"); got != strconv.Itoa(14*3600) {
				t.Errorf("Retry-After %q", got)
			}
		default:
			t.Errorf("lookup %d: status %d", i, res.Status)
		}
	}
	if ok != limit || limited != asks-limit {
		t.Fatalf("%d answered, %d limited; want exactly %d answered", ok, limited, limit)
	}
	if fake.Calls() != limit {
		t.Fatalf("%d provider calls, want %d", fake.Calls(), limit)
	}
	// Stored rates and the same currency cost nothing; another member has
	// a count of their own.
	getRate(t, m, stored[0], stored[1])
	getRate(t, m, "KRW", "KRW")
	getRate(t, env.NewMember(), "USD", "KRW")
	// A refused pair's claim was given back: another member fetches it.
	for i, res := range answers {
		if res.Status == http.StatusTooManyRequests {
			getRate(t, env.NewMember(), pairs[i][0], pairs[i][1])
			break
		}
	}
	// The next day in Seoul starts a new count.
	env.Clock.Set(time.Date(2026, 11, 16, 15, 0, 0, 0, time.UTC))
	getRate(t, m, "JPY", "KRW")
}

func TestFXLookupCleanupDeletesEndedClaims(t *testing.T) {
	t.Parallel()
	env, _ := newEnv(t)
	env.Exec(`INSERT INTO fx_lookup (from_currency, to_currency, day, failed, until) VALUES
		('USD', 'KRW', '2026-11-16', true, $1), ('EUR', 'KRW', '2026-11-16', false, $2)`,
		apitest.Start.Add(-time.Second), apitest.Start.Add(time.Minute))
	ran, err := env.App.Jobs.Run(context.Background(), "fx-lookup-cleanup")
	if err != nil || !ran {
		t.Fatalf("ran %v, %v", ran, err)
	}
	var left string
	if err := env.Pool.QueryRow(context.Background(), `SELECT string_agg(from_currency, ',') FROM fx_lookup`).Scan(&left); err != nil || left != "EUR" {
		t.Fatalf("left %q (%v), want the live EUR claim", left, err)
	}
}

// An entry whose rate is looked up spends the same daily FX limit.
func TestEntryRateLookupsCountAgainstTheFXLimit(t *testing.T) {
	t.Parallel()
	fake := fxtest.New(t)
	env := apitest.New(t, apitest.WithConfig(func(cfg *config.Config) {
		cfg.FXAPIURL = fake.URL
		cfg.FXDailyLimit = 1
	}))
	fake.SetRate("CHF", "KRW", 1600)
	fake.SetRate("GBP", "KRW", 1800)
	m := env.NewMember()
	entry := func(cur string) *apitest.Response {
		orig := "10"
		return m.Do(http.MethodPost, "/api/account/entries", api.CreateEntryJSONRequestBody{
			Type: api.EntryTypeExpense, Date: openapi_types.Date{Time: time.Date(2026, 11, 16, 0, 0, 0, 0, time.UTC)},
			Currency: &cur, OriginalAmount: &orig,
		})
	}
	var e api.Entry
	entry("CHF").Want(http.StatusCreated).JSON(&e)
	if e.Amount != 16000 {
		t.Fatalf("amount %d, want 16000", e.Amount)
	}
	entry("GBP").WantProblem(http.StatusTooManyRequests, problem.CodeRateLimited)
	// The stored CHF rate costs nothing.
	entry("CHF").Want(http.StatusCreated)
	if fake.Calls() != 1 {
		t.Fatalf("%d provider calls, want 1", fake.Calls())
	}
}
