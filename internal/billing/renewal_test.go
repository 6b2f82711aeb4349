package billing_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/billing"
	"github.com/nestegg/nestegg/internal/external/store"
	"github.com/nestegg/nestegg/internal/external/store/storetest"
)

// lapsedMember buys a monthly plan from the fake store (auto-renew on) and
// returns it with the purchase token; the plan expires at monthAfterStart.
func lapsedMember(t *testing.T, env *apitest.Env, fake *storetest.Fake) (*apitest.Member, string) {
	t.Helper()
	m := env.NewMember()
	token := fake.Active("premium_monthly", monthAfterStart)
	verify(m, "premium_monthly", token).Want(http.StatusOK)
	return m, token
}

// runRenewal runs the hourly job at the given time, as the runner would.
func runRenewal(t *testing.T, env *apitest.Env, at time.Time) {
	t.Helper()
	env.Clock.Set(at)
	if ran, err := env.App.Jobs.Run(context.Background(), billing.RenewalJobName); err != nil || !ran {
		t.Fatalf("renewal job at %s: ran=%v err=%v", at, ran, err)
	}
}

// Each answer of the store about a lapsed auto-renew plan: renewed extends
// it from the store's expiry; expired, cancelled (with nothing left) and
// revoked make it FREE at once for every session; a cancellation with time
// left runs to its expiry with auto-renew off.
func TestRenewalJobSettlesLapsedPlansWithTheStore(t *testing.T) {
	t.Parallel()
	env, fake := newEnv(t)
	renewed, renewedToken := lapsedMember(t, env, fake)
	expired, expiredToken := lapsedMember(t, env, fake)
	cancelled, cancelledToken := lapsedMember(t, env, fake)
	cancelledLater, cancelledLaterToken := lapsedMember(t, env, fake)
	revoked, revokedToken := lapsedMember(t, env, fake)
	expiredElsewhere := env.LogIn(expired.Email, apitest.DefaultPassword)

	next := monthAfterStart.AddDate(0, 1, 0)
	fake.Set(renewedToken, storetest.Purchase{State: store.StateActive, ProductID: "premium_monthly", Expiry: next, AutoRenew: true})
	fake.Set(expiredToken, storetest.Purchase{State: store.StateExpired, ProductID: "premium_monthly", Expiry: monthAfterStart})
	fake.Set(cancelledToken, storetest.Purchase{State: store.StateCanceled, ProductID: "premium_monthly", Expiry: monthAfterStart})
	fake.Set(cancelledLaterToken, storetest.Purchase{State: store.StateCanceled, ProductID: "premium_monthly", Expiry: next})
	fake.Forget(revokedToken)

	// Before the expiry nothing is asked.
	calls := fake.Calls()
	runRenewal(t, env, monthAfterStart.Add(-time.Minute))
	if fake.Calls() != calls {
		t.Fatalf("the store was asked %d times about plans not yet expired", fake.Calls()-calls)
	}

	runRenewal(t, env, monthAfterStart.Add(time.Hour))
	if got := fake.Calls() - calls; got != 5 {
		t.Fatalf("the store was asked %d times, want once per lapsed plan (5)", got)
	}
	s := subscription(t, renewed.Client)
	if s.Plan != "PREMIUM" || !s.AutoRenew {
		t.Fatalf("renewed: %+v", s)
	}
	wantTime(t, "renewed expiry", s.ExpiresAt, next)
	s = subscription(t, cancelledLater.Client)
	if s.Plan != "PREMIUM" || s.AutoRenew {
		t.Fatalf("cancelled with a month left: %+v", s)
	}
	wantTime(t, "cancelled expiry", s.ExpiresAt, next)
	for name, m := range map[string]*apitest.Member{"expired": expired, "cancelled": cancelled, "revoked": revoked} {
		if s := subscription(t, m.Client); s.Plan != "FREE" || s.ExpiresAt != nil || s.ProductID != nil || s.AutoRenew {
			t.Fatalf("%s: %+v, want FREE with the subscription cleared", name, s)
		}
	}
	if plan := sessionPlan(t, expiredElsewhere); plan != "FREE" {
		t.Fatalf("another session of the expired member sees %s", plan)
	}

	// A restore on a new device grants up to the renewed expiry, which the
	// purchase now records.
	var until time.Time
	if err := env.Pool.QueryRow(context.Background(), `SELECT expires_at FROM iap_purchase WHERE purchase_token = $1`, renewedToken).Scan(&until); err != nil || !until.Equal(next) {
		t.Fatalf("renewed purchase pays until %s (%v), want %s", until, err, next)
	}

	// An hour after the renewed plan's new expiry the store is asked again;
	// the cancelled one is the expiry job's (auto-renew off) and not asked.
	fake.Set(renewedToken, storetest.Purchase{State: store.StateExpired, ProductID: "premium_monthly", Expiry: next})
	calls = fake.Calls()
	runRenewal(t, env, next.Add(time.Hour))
	if got := fake.Calls() - calls; got != 1 {
		t.Fatalf("the store was asked %d times, want once (only the renewed plan auto-renews)", got)
	}
	if s := subscription(t, renewed.Client); s.Plan != "FREE" {
		t.Fatalf("renewed, then expired: %+v", s)
	}
}

// A store that cannot be reached leaves every plan as it is; the next run
// settles them.
func TestRenewalJobLeavesPlansWhenTheStoreIsDown(t *testing.T) {
	t.Parallel()
	env, fake := newEnv(t)
	m, token := lapsedMember(t, env, fake)
	fake.Set(token, storetest.Purchase{State: store.StateExpired, ProductID: "premium_monthly", Expiry: monthAfterStart})

	for _, failure := range []storetest.Failure{storetest.Fail500, storetest.Garbage} {
		fake.SetFailure(failure)
		runRenewal(t, env, monthAfterStart.Add(time.Duration(failure)*time.Hour))
		if s := subscription(t, m.Client); s.Plan != "PREMIUM" || !s.AutoRenew {
			t.Fatalf("store failing (%d): %+v, want the plan left as it was", failure, s)
		}
	}
	fake.SetFailure(storetest.Healthy)
	runRenewal(t, env, monthAfterStart.Add(5*time.Hour))
	if s := subscription(t, m.Client); s.Plan != "FREE" {
		t.Fatalf("after the outage: %+v", s)
	}
}

// A test-mode purchase was never the store's to renew: it ends at its
// expiry without a call.
func TestRenewalJobEndsTestPurchasesWithoutAskingTheStore(t *testing.T) {
	t.Parallel()
	env, fake := newEnv(t, testMode())
	m := env.NewMember()
	verify(m, "premium_monthly", "test-renewal").Want(http.StatusOK)
	calls := fake.Calls()
	runRenewal(t, env, monthAfterStart.Add(time.Hour))
	if fake.Calls() != calls {
		t.Fatal("the store was asked about a test-mode purchase")
	}
	if s := subscription(t, m.Client); s.Plan != "FREE" {
		t.Fatalf("test purchase after its expiry: %+v", s)
	}
}
