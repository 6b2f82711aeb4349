package rates_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/config"
	"github.com/nestegg/nestegg/internal/external/fx/fxtest"
	"github.com/nestegg/nestegg/internal/problem"
)

func newEnv(t *testing.T) (*apitest.Env, *fxtest.Server) {
	fake := fxtest.New(t)
	env := apitest.New(t, apitest.WithConfig(func(cfg *config.Config) { cfg.FXAPIURL = fake.URL }))
	return env, fake
}

func getRate(t *testing.T, m *apitest.Member, from, to string) api.FXRate {
	t.Helper()
	var out api.FXRate
	m.Do(http.MethodGet, "/api/fx/rate?from="+from+"&to="+to, nil).Want(http.StatusOK).JSON(&out)
	return out
}

func TestFXRateIsFetchedOncePerPairPerDay(t *testing.T) {
	t.Parallel()
	env, fake := newEnv(t)
	m := env.NewMember()
	got := getRate(t, m, "USD", "KRW")
	if got.From != "USD" || got.To != "KRW" || got.Rate != "1391.25" || got.Date.Format(time.DateOnly) != "2026-11-16" {
		t.Fatalf("got %+v", got)
	}
	fake.SetRate("USD", "KRW", 1400)
	if again := getRate(t, env.NewMember(), "USD", "KRW"); again.Rate != "1391.25" {
		t.Fatalf("second read %+v, want the stored rate", again)
	}
	if fake.Calls() != 1 {
		t.Fatalf("%d provider calls, want 1", fake.Calls())
	}
	if other := getRate(t, m, "JPY", "KRW"); other.Rate != "9.1234" {
		t.Fatalf("JPY: %+v", other)
	}
	// The next day in Seoul (15:00 UTC is midnight there) asks again.
	env.Clock.Set(time.Date(2026, 11, 16, 15, 0, 0, 0, time.UTC))
	if next := getRate(t, m, "USD", "KRW"); next.Rate != "1400" || next.Date.Format(time.DateOnly) != "2026-11-17" {
		t.Fatalf("next day %+v", next)
	}
	if fake.Calls() != 3 {
		t.Fatalf("%d provider calls, want 3", fake.Calls())
	}
	for _, p := range fake.Paths() {
		if p != "/latest" {
			t.Fatalf("today's rate asked at %s, want /latest", p)
		}
	}
}

func TestFXRateParallelRequestsForANewPairMakeOneCall(t *testing.T) {
	t.Parallel()
	env, fake := newEnv(t)
	fake.SetDelay(300 * time.Millisecond)
	members := []*apitest.Member{env.NewMember(), env.NewMember(), env.NewMember()}
	answers := apitest.TogetherV(16, func(i int) *apitest.Response {
		return members[i%len(members)].Do(http.MethodGet, "/api/fx/rate?from=EUR&to=KRW", nil)
	})
	for i, r := range answers {
		if r.Status != http.StatusOK {
			t.Errorf("request %d: status %d: %s", i, r.Status, r.Body)
		}
	}
	if fake.Calls() != 1 {
		t.Fatalf("%d provider calls for one new pair, want 1", fake.Calls())
	}
}

func TestFXRateProviderFailures(t *testing.T) {
	t.Parallel()
	for _, mode := range []fxtest.Mode{fxtest.Fail, fxtest.Garbage, fxtest.Hang} {
		t.Run(map[fxtest.Mode]string{fxtest.Fail: "500", fxtest.Garbage: "garbage", fxtest.Hang: "timeout"}[mode], func(t *testing.T) {
			t.Parallel()
			env, fake := newEnv(t)
			fake.SetMode(mode)
			m := env.NewMember()
			res := m.Do(http.MethodGet, "/api/fx/rate?from=USD&to=KRW", nil)
			res.WantProblem(http.StatusServiceUnavailable, problem.CodeDependencyUnavailable)
			if res.Header.Get("Retry-After") == "" {
				t.Fatal("no Retry-After")
			}
			// With an older rate stored, that rate is the answer.
			env.Exec(`INSERT INTO fx_rate (from_currency, to_currency, day, rate, rate_date, fetched_at)
				VALUES ('USD', 'KRW', '2026-11-13', 1385.5, '2026-11-13', now())`)
			got := getRate(t, m, "USD", "KRW")
			if got.Rate != "1385.5" || got.Date.Format(time.DateOnly) != "2026-11-13" {
				t.Fatalf("fallback %+v", got)
			}
		})
	}
}

// Issue 43: with no provider configured the 503 says so, with its own code
// and no retry advice.
func TestFXRateUnconfiguredIs503(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	res := env.NewMember().Do(http.MethodGet, "/api/fx/rate?from=USD&to=KRW", nil)
	res.WantProblem(http.StatusServiceUnavailable, problem.CodeFXNotConfigured)
	if ra := res.Header.Get("Retry-After"); ra != "" {
		t.Fatalf("Retry-After %q with no FX provider", ra)
	}
}

func TestFXRateBadInput(t *testing.T) {
	t.Parallel()
	env, fake := newEnv(t)
	m := env.NewMember()
	for _, q := range []string{"from=XYZ&to=KRW", "from=USD&to=QQQ", "from=usd&to=KRW", "from=USDX&to=KRW", "from=USD", "to=KRW", "from=US%00&to=KRW", "from=&to=KRW", "from=USD&to=12A"} {
		m.Raw().Do(http.MethodGet, "/api/fx/rate?"+q, nil).WantProblem(http.StatusBadRequest, problem.CodeValidationFailed)
	}
	env.Client().Do(http.MethodGet, "/api/fx/rate?from=USD&to=KRW", nil).WantProblem(http.StatusUnauthorized, problem.CodeUnauthenticated)
	if same := getRate(t, m, "KRW", "KRW"); same.Rate != "1" {
		t.Fatalf("same currency %+v", same)
	}
	if fake.Calls() != 0 {
		t.Fatalf("%d provider calls, want none", fake.Calls())
	}
}

func TestRateOnAsksForThePastDayAndCapsTheFuture(t *testing.T) {
	t.Parallel()
	env, fake := newEnv(t)
	m := env.NewMember()
	ctx := context.Background()
	seoul := env.Config.Timezone
	past, err := env.App.FX.RateOn(ctx, m.ID, "USD", "KRW", time.Date(2026, 11, 10, 23, 30, 0, 0, seoul))
	if err != nil || past.Rate.String() != "1391.25" || past.Day.Format(time.DateOnly) != "2026-11-10" {
		t.Fatalf("past: %+v %v", past, err)
	}
	future, err := env.App.FX.RateOn(ctx, m.ID, "USD", "KRW", time.Date(2027, 1, 1, 0, 0, 0, 0, seoul))
	if err != nil || future.Day.Format(time.DateOnly) != "2026-11-16" {
		t.Fatalf("future: %+v %v", future, err)
	}
	if paths := fake.Paths(); len(paths) != 2 || paths[0] != "/2026-11-10" || paths[1] != "/latest" {
		t.Fatalf("provider asked %v", paths)
	}
	if _, err := env.App.FX.RateOn(ctx, m.ID, "usd", "KRW", time.Now()); err == nil {
		t.Fatal("lower-case currency accepted")
	}
}
