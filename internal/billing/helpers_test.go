package billing_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/config"
	"github.com/nestegg/nestegg/internal/external/store/storetest"
)

// storeTimeout is the store deadline in tests: short, so the outage tests
// are quick, and long enough for the fake on a busy machine.
const storeTimeout = 2 * time.Second

// newEnv starts the service against a fake store.
func newEnv(t *testing.T, opts ...apitest.Option) (*apitest.Env, *storetest.Fake) {
	t.Helper()
	fake := storetest.New(t)
	opts = append([]apitest.Option{withStore(fake, storeTimeout)}, opts...)
	return apitest.New(t, opts...), fake
}

func withStore(fake *storetest.Fake, timeout time.Duration) apitest.Option {
	return apitest.WithConfig(func(c *config.Config) {
		c.StoreAPIURL = fake.URL()
		c.StorePackageName = storetest.PackageName
		c.StoreAPIToken = storetest.Credential
		c.StoreTimeout = timeout
	})
}

func testMode() apitest.Option {
	return apitest.WithConfig(func(c *config.Config) { c.StoreTestMode = true })
}

// monthAfterStart is the expiry one monthly purchase at apitest.Start grants.
var monthAfterStart = apitest.Start.AddDate(0, 1, 0)

func verifyBody(productID, token string) api.StorePurchaseRequest {
	return api.StorePurchaseRequest{ProductID: productID, PurchaseToken: token}
}

func verify(m *apitest.Member, productID, token string) *apitest.Response {
	return m.Do(http.MethodPost, "/api/billing/store/verify", verifyBody(productID, token))
}

func subscription(t *testing.T, c *apitest.Client) api.Subscription {
	t.Helper()
	var s api.Subscription
	c.Do(http.MethodGet, "/api/billing/subscription", nil).Want(http.StatusOK).JSON(&s)
	return s
}

func sessionPlan(t *testing.T, c *apitest.Client) string {
	t.Helper()
	var u api.User
	c.Do(http.MethodGet, "/api/auth/session", nil).Want(http.StatusOK).JSON(&u)
	return string(u.Plan)
}

func purchaseCount(t *testing.T, env *apitest.Env, memberID int64) int {
	t.Helper()
	var n int
	if err := env.Pool.QueryRow(context.Background(), `SELECT count(*) FROM iap_purchase WHERE member_id = $1`, memberID).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func wantTime(t *testing.T, what string, got *time.Time, want time.Time) {
	t.Helper()
	if got == nil || !got.Equal(want) {
		t.Fatalf("%s = %v, want %s", what, got, want)
	}
}

func wantFree(t *testing.T, s api.Subscription) {
	t.Helper()
	if s.Plan != "FREE" || s.ExpiresAt != nil || s.NextPaymentAt != nil || s.AutoRenew || s.ProductID != nil {
		t.Fatalf("subscription %+v, want FREE with no subscription fields", s)
	}
}
