package invest_test

import (
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/config"
	"github.com/nestegg/nestegg/internal/external/quote/quotetest"
	"github.com/nestegg/nestegg/internal/invest"
)

func withQuotes(fake *quotetest.Server) apitest.Option {
	return apitest.WithConfig(func(cfg *config.Config) { cfg.QuoteAPIURL = fake.URL })
}

// TestRefreshStoresGoodQuotesAndKeepsTheLastOnFailure: good, unknown, failing
// and slow codes in one refresh; each distinct code is asked once.
func TestRefreshStoresGoodQuotesAndKeepsTheLastOnFailure(t *testing.T) {
	t.Parallel()
	fake := quotetest.New(t)
	env := apitest.New(t, withQuotes(fake))
	m := env.NewMember(apitest.AsPremium())
	fake.SetPrice("005930", "71200")
	fake.SetPrice("FAIL", "1")
	fake.SetMode("FAIL", quotetest.Fail)
	fake.SetPrice("SLOW", "1")
	fake.SetMode("SLOW", quotetest.Slow)
	fake.SetMode("NOPE", quotetest.Unknown)
	for _, code := range []string{"005930", "005930", "FAIL", "SLOW", "NOPE"} {
		newStock(t, m, code, nil)
	}
	env.Exec(`INSERT INTO stock_quote (code, quote_day, price, currency, quoted_at) VALUES ('FAIL', '2026-11-13', 900, 'KRW', '2026-11-13T06:30:00Z')`)

	start := time.Now()
	var r api.QuoteRefresh
	m.Do(http.MethodPost, "/api/account/invest/quotes/refresh", nil).Want(http.StatusOK).JSON(&r)
	if time.Since(start) > 9*time.Second {
		t.Fatalf("the refresh took %s: the deadline did not hold", time.Since(start))
	}
	slices.Sort(r.Failed)
	if len(r.Refreshed) != 1 || r.Refreshed[0].Code != "005930" || r.Refreshed[0].Price != "71200" ||
		!slices.Equal(r.Failed, []string{"FAIL", "NOPE", "SLOW"}) {
		t.Fatalf("refresh %+v", r)
	}
	if fake.Asked("005930") != 1 {
		t.Fatalf("005930 asked %d times, want once", fake.Asked("005930"))
	}
	var p api.Portfolio
	m.Do(http.MethodGet, "/api/account/invest/portfolio", nil).Want(http.StatusOK).JSON(&p)
	prices := map[string]string{}
	for _, h := range p.Items {
		if h.QuotePrice != nil {
			prices[h.Code] = *h.QuotePrice
		}
	}
	if prices["005930"] != "71200" || prices["FAIL"] != "900" || prices["NOPE"] != "" {
		t.Fatalf("stored quotes %v", prices)
	}

	// A later answer of the same day replaces the day's quote.
	fake.SetPrice("005930", "71500")
	fake.SetTime(time.Date(2026, 11, 16, 15, 45, 0, 0, time.FixedZone("KST", 9*3600)))
	m.Do(http.MethodPost, "/api/account/invest/quotes/refresh", nil).Want(http.StatusOK).JSON(&r)
	var n int
	if err := env.Pool.QueryRow(t.Context(), `SELECT count(*) FROM stock_quote WHERE code = '005930' AND quote_day = '2026-11-16' AND price = 71500`).Scan(&n); err != nil || n != 1 {
		t.Fatalf("the day's quote was not replaced: %d %v", n, err)
	}
}

func TestRefreshAsksAtMostFourCodesAtOnce(t *testing.T) {
	t.Parallel()
	fake := quotetest.New(t)
	env := apitest.New(t, withQuotes(fake))
	m := env.NewMember(apitest.AsPremium())
	fake.SetDelay(150 * time.Millisecond)
	for i := range 9 {
		code := fmt.Sprintf("C%d", i)
		fake.SetPrice(code, "100")
		newStock(t, m, code, nil)
	}
	var r api.QuoteRefresh
	m.Do(http.MethodPost, "/api/account/invest/quotes/refresh", nil).Want(http.StatusOK).JSON(&r)
	if len(r.Refreshed) != 9 || len(r.Failed) != 0 {
		t.Fatalf("refresh %+v", r)
	}
	if max := fake.MaxInFlight(); max > invest.MaxConcurrentQuotes || max < 2 {
		t.Fatalf("%d calls at once, want 2 to %d", max, invest.MaxConcurrentQuotes)
	}
}

// Issue 43: without a provider the answer says so (QUOTES_NOT_CONFIGURED)
// and gives no retry advice, as no retry helps.
func TestRefreshWithoutAProviderAnswers503(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	var r api.QuoteRefresh
	m.Do(http.MethodPost, "/api/account/invest/quotes/refresh", nil).Want(http.StatusOK).JSON(&r)
	if len(r.Refreshed)+len(r.Failed) != 0 {
		t.Fatalf("refresh without stocks %+v", r)
	}
	newStock(t, m, "005930", nil)
	res := m.Do(http.MethodPost, "/api/account/invest/quotes/refresh", nil)
	res.WantProblem(http.StatusServiceUnavailable, "QUOTES_NOT_CONFIGURED")
	if ra := res.Header.Get("Retry-After"); ra != "" {
		t.Fatalf("Retry-After %q on a service with no quote provider", ra)
	}
}
