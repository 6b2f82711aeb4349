package billing_test

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/billing"
	"github.com/nestegg/nestegg/internal/config"
	"github.com/nestegg/nestegg/internal/external/store"
	"github.com/nestegg/nestegg/internal/external/store/storetest"
)

func TestVerifiedPurchaseGrantsPremium(t *testing.T) {
	t.Parallel()
	env, fake := newEnv(t)
	m := env.NewMember()
	other := env.LogIn(m.Email, apitest.DefaultPassword)
	token := fake.Active("premium_monthly", apitest.Start.Add(30*24*time.Hour))

	var s api.Subscription
	verify(m, "premium_monthly", token).Want(http.StatusOK).JSON(&s)
	if s.Plan != "PREMIUM" || !s.AutoRenew || s.ProductID == nil || *s.ProductID != "premium_monthly" {
		t.Fatalf("subscription %+v", s)
	}
	wantTime(t, "expiresAt", s.ExpiresAt, monthAfterStart)
	wantTime(t, "nextPaymentAt", s.NextPaymentAt, monthAfterStart)
	if got := subscription(t, other); got.Plan != "PREMIUM" || !got.ExpiresAt.Equal(monthAfterStart) {
		t.Fatalf("another session sees %+v", got)
	}
	if plan := sessionPlan(t, other); plan != "PREMIUM" {
		t.Fatalf("the other session's plan is %s", plan)
	}
	if n := purchaseCount(t, env, m.ID); n != 1 {
		t.Fatalf("%d purchases recorded", n)
	}
}

func TestVerificationExtendsFromTheLaterOfNowAndExpiry(t *testing.T) {
	t.Parallel()
	env, fake := newEnv(t)
	m := env.NewMember()
	far := apitest.Start.AddDate(2, 0, 0)

	var s api.Subscription
	verify(m, "premium_monthly", fake.Active("premium_monthly", far)).Want(http.StatusOK).JSON(&s)
	wantTime(t, "after the first month", s.ExpiresAt, monthAfterStart)
	// Renewal before the expiry: from the expiry, nothing lost.
	env.Clock.Advance(10 * 24 * time.Hour)
	verify(m, "premium_yearly", fake.Active("premium_yearly", far)).Want(http.StatusOK).JSON(&s)
	wantTime(t, "after a year more", s.ExpiresAt, monthAfterStart.AddDate(1, 0, 0))
	if s.ProductID == nil || *s.ProductID != "premium_yearly" {
		t.Fatalf("product %v", s.ProductID)
	}

	// A lapsed expiry counts from now.
	env.Exec(`UPDATE member SET plan_expires_at = $2 WHERE id = $1`, m.ID, apitest.Start.AddDate(0, -1, 0))
	verify(m, "premium_monthly", fake.Active("premium_monthly", far)).Want(http.StatusOK).JSON(&s)
	wantTime(t, "from now", s.ExpiresAt, env.Clock.Now().AddDate(0, 1, 0))

	// Auto-renew is what the store says.
	off := fake.Add(storetest.Purchase{State: store.StateActive, ProductID: "premium_monthly", Expiry: far, AutoRenew: false})
	verify(m, "premium_monthly", off).Want(http.StatusOK).JSON(&s)
	if s.AutoRenew || s.NextPaymentAt != nil {
		t.Fatalf("auto-renew off at the store, yet %+v", s)
	}
}

func TestPurchasesTheStoreDoesNotVouchForGrantNothing(t *testing.T) {
	t.Parallel()
	env, fake := newEnv(t)
	m := env.NewMember()
	future := apitest.Start.AddDate(0, 1, 0)
	cases := []struct {
		name, productID, token, code string
	}{
		{"expired", "premium_monthly", fake.Add(storetest.Purchase{State: store.StateExpired, ProductID: "premium_monthly", Expiry: apitest.Start.Add(-time.Hour)}), "PURCHASE_NOT_ACTIVE"},
		{"cancelled", "premium_monthly", fake.Add(storetest.Purchase{State: store.StateCanceled, ProductID: "premium_monthly", Expiry: future}), "PURCHASE_NOT_ACTIVE"},
		{"pending", "premium_monthly", fake.Add(storetest.Purchase{State: store.StatePending, ProductID: "premium_monthly", Expiry: future}), "PURCHASE_NOT_ACTIVE"},
		{"active with its expiry passed", "premium_monthly", fake.Active("premium_monthly", apitest.Start.Add(-time.Second)), "PURCHASE_NOT_ACTIVE"},
		{"unknown token", "premium_monthly", "never-issued-token", "PURCHASE_INVALID"},
		{"test token outside test mode", "premium_monthly", "test-abc", "PURCHASE_INVALID"},
		{"wrong product", "premium_monthly", fake.Active("premium_yearly", future), "PURCHASE_INVALID"},
		{"unknown product", "premium_weekly", fake.Active("premium_weekly", future), "VALIDATION_FAILED"},
	}
	for _, c := range cases {
		p := verify(m, c.productID, c.token).WantProblem(http.StatusBadRequest, c.code)
		if p.Detail == "" {
			t.Errorf("%s: no detail", c.name)
		}
	}
	wantFree(t, subscription(t, m.Client))
	if n := purchaseCount(t, env, m.ID); n != 0 {
		t.Fatalf("%d purchases recorded", n)
	}
}

func TestStoreOutageAnswers503(t *testing.T) {
	t.Parallel()
	for name, failure := range map[string]storetest.Failure{"500": storetest.Fail500, "garbage": storetest.Garbage, "timeout": storetest.Hang} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			fake := storetest.New(t)
			env := apitest.New(t, withStore(fake, 300*time.Millisecond))
			m := env.NewMember()
			token := fake.Active("premium_monthly", apitest.Start.AddDate(0, 1, 0))
			fake.SetFailure(failure)
			start := time.Now()
			res := verify(m, "premium_monthly", token)
			res.WantProblem(http.StatusServiceUnavailable, "DEPENDENCY_UNAVAILABLE")
			if res.Header.Get("Retry-After") == "" {
				t.Fatal("no Retry-After")
			}
			if took := time.Since(start); took > 10*time.Second {
				t.Fatalf("answered after %s", took)
			}
			wantFree(t, subscription(t, m.Client))
			// Nothing was recorded, so the same token works once the store is back.
			fake.SetFailure(storetest.Healthy)
			verify(m, "premium_monthly", token).Want(http.StatusOK)
		})
	}
}

func TestUnconfiguredStoreAnswers503(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	res := verify(env.NewMember(), "premium_monthly", "some-token")
	res.WantProblem(http.StatusServiceUnavailable, "SERVICE_UNAVAILABLE")
	if res.Header.Get("Retry-After") == "" {
		t.Fatal("no Retry-After")
	}
}

func TestSamePurchaseIsAcceptedOnce(t *testing.T) {
	t.Parallel()
	env, fake := newEnv(t)
	m, other := env.NewMember(), env.NewMember()
	token := fake.Active("premium_monthly", apitest.Start.AddDate(0, 1, 0))
	verify(m, "premium_monthly", token).Want(http.StatusOK)
	calls := fake.Calls()
	verify(m, "premium_monthly", token).WantProblem(http.StatusConflict, "DUPLICATE_PURCHASE")
	verify(other, "premium_monthly", token).WantProblem(http.StatusConflict, "DUPLICATE_PURCHASE")
	if fake.Calls() != calls {
		t.Fatal("a known duplicate was sent to the store")
	}
	wantTime(t, "expiresAt", subscription(t, m.Client).ExpiresAt, monthAfterStart)
	wantFree(t, subscription(t, other.Client))
}

// Twenty verifications of one token at once, from two members: exactly one
// is accepted, and the plan is extended exactly once.
func TestParallelVerificationsOfOneToken(t *testing.T) {
	t.Parallel()
	env, fake := newEnv(t)
	members := []*apitest.Member{env.NewMember(), env.NewMember()}
	token := fake.Active("premium_monthly", apitest.Start.AddDate(0, 1, 0))
	const n = 20
	answers := apitest.TogetherV(n, func(i int) *apitest.Response {
		return verify(members[i%2], "premium_monthly", token)
	})
	ok, duplicates := 0, 0
	for i, res := range answers {
		switch res.Status {
		case http.StatusOK:
			ok++
		case http.StatusConflict:
			duplicates++
			res.WantProblem(http.StatusConflict, "DUPLICATE_PURCHASE")
		default:
			t.Errorf("verification %d answered %d %s", i, res.Status, res.Body)
		}
	}
	if ok != 1 || duplicates != n-1 {
		t.Fatalf("%d verifications accepted and %d refused as duplicates, want 1 and %d", ok, duplicates, n-1)
	}
	var rows int
	if err := env.Pool.QueryRow(context.Background(), `SELECT count(*) FROM iap_purchase WHERE purchase_token = $1`, token).Scan(&rows); err != nil {
		t.Fatal(err)
	}
	premium := 0
	for _, m := range members {
		if s := subscription(t, m.Client); s.Plan == "PREMIUM" {
			premium++
			wantTime(t, "expiresAt", s.ExpiresAt, monthAfterStart)
		}
	}
	if rows != 1 || premium != 1 {
		t.Fatalf("%d purchase rows and %d PREMIUM members, want 1 and 1", rows, premium)
	}
}

// Parallel purchases of different tokens by one member extend one after the
// other: none is lost.
func TestParallelPurchasesOfOneMemberAllCount(t *testing.T) {
	t.Parallel()
	env, fake := newEnv(t)
	m := env.NewMember()
	const n = 6
	tokens := make([]string, n)
	for i := range tokens {
		tokens[i] = fake.Active("premium_monthly", apitest.Start.AddDate(1, 0, 0))
	}
	answers := apitest.TogetherV(n, func(i int) *apitest.Response {
		return verify(m, "premium_monthly", tokens[i])
	})
	for i, res := range answers {
		if res.Status != http.StatusOK {
			t.Errorf("purchase %d answered %d: %s", i, res.Status, res.Body)
		}
	}
	if t.Failed() {
		t.FailNow()
	}
	wantTime(t, "expiresAt", subscription(t, m.Client).ExpiresAt, apitest.Start.AddDate(0, n, 0))
}

func TestTestModeAcceptsTestTokensWithoutTheStore(t *testing.T) {
	t.Parallel()
	env, fake := newEnv(t, testMode())
	m := env.NewMember()
	var s api.Subscription
	verify(m, "premium_yearly", "test-purchase-1").Want(http.StatusOK).JSON(&s)
	if s.Plan != "PREMIUM" || !s.AutoRenew {
		t.Fatalf("subscription %+v", s)
	}
	wantTime(t, "expiresAt", s.ExpiresAt, apitest.Start.AddDate(1, 0, 0))
	if fake.Calls() != 0 {
		t.Fatalf("test mode called the store %d times", fake.Calls())
	}
	verify(m, "premium_yearly", "test-purchase-1").WantProblem(http.StatusConflict, "DUPLICATE_PURCHASE")
	// Other tokens still go to the store.
	verify(m, "premium_monthly", "real-token").WantProblem(http.StatusBadRequest, "PURCHASE_INVALID")
	if fake.Calls() != 1 {
		t.Fatalf("the store was called %d times, want 1", fake.Calls())
	}
	var testMode bool
	if err := env.Pool.QueryRow(context.Background(), `SELECT test_mode FROM iap_purchase WHERE member_id = $1`, m.ID).Scan(&testMode); err != nil || !testMode {
		t.Fatalf("purchase recorded with test_mode=%v (%v)", testMode, err)
	}
}

func TestStartUpWarnsInTestMode(t *testing.T) {
	t.Parallel()
	for _, on := range []bool{true, false} {
		var logs bytes.Buffer
		cfg, err := config.Load(func(string) string { return "" })
		if err != nil {
			t.Fatal(err)
		}
		cfg.StoreTestMode = on
		billing.NewHandler(billing.Deps{Config: cfg, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
		warned := strings.Contains(logs.String(), "level=WARN") && strings.Contains(logs.String(), "STORE_TEST_MODE")
		if warned != on {
			t.Fatalf("test mode %v: logged %q", on, logs.String())
		}
	}
}

func TestVerifyRefusesBadInput(t *testing.T) {
	t.Parallel()
	env, _ := newEnv(t, testMode())
	m := env.NewMember()
	bad := []string{
		`{"productId": "premium_monthly"}`,
		`{"purchaseToken": "test-x"}`,
		`{"productId": "premium_monthly", "purchaseToken": ""}`,
		`{"productId": "premium_monthly", "purchaseToken": "test-` + strings.Repeat("x", 5000) + `"}`,
		`{"productId": "premium_monthly", "purchaseToken": "test-a\u0000b"}`,
		`{"productId": "premium_monthly", "purchaseToken": "test-a\u0007b"}`,
		`{"productId": "premium_monthly", "purchaseToken": "test-a b"}`,
		`{"productId": "premium_monthly", "purchaseToken": "test-한글"}`,
		`{"productId": "", "purchaseToken": "test-x"}`,
		`{"productId": "Premium_Monthly", "purchaseToken": "test-x"}`,
		`{"productId": "premium_monthly\u0000", "purchaseToken": "test-x"}`,
		`{"productId": "` + strings.Repeat("p", 200) + `", "purchaseToken": "test-x"}`,
		`{"productId": 5, "purchaseToken": "test-x"}`,
		`{"productId": "premium_monthly", "purchaseToken": "test-x"`,
	}
	for _, body := range bad {
		m.Raw().Send(http.MethodPost, "/api/billing/store/verify", "application/json", []byte(body)).
			WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
	}
	m.Raw().Send(http.MethodPost, "/api/billing/store/verify", "text/plain", []byte(`x`)).
		WantProblem(http.StatusUnsupportedMediaType, "UNSUPPORTED_MEDIA_TYPE")
	wantFree(t, subscription(t, m.Client))
}
