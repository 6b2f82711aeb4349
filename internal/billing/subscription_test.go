package billing_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/billing"
)

func TestSubscriptionOfAFreeMember(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	wantFree(t, subscription(t, env.NewMember().Client))
	env.Client().Do(http.MethodGet, "/api/billing/subscription", nil).WantProblem(http.StatusUnauthorized, "UNAUTHENTICATED")
}

func TestCancelAndResume(t *testing.T) {
	t.Parallel()
	env, _ := newEnv(t, testMode())
	m := env.NewMember()
	other := env.LogIn(m.Email, apitest.DefaultPassword)
	verify(m, "premium_monthly", "test-cancel").Want(http.StatusOK)

	var s api.Subscription
	for range 2 { // cancelling twice changes nothing more
		m.Do(http.MethodPost, "/api/billing/cancel", nil).Want(http.StatusOK).JSON(&s)
		if s.Plan != "PREMIUM" || s.AutoRenew || s.NextPaymentAt != nil || s.ProductID == nil {
			t.Fatalf("after cancel %+v", s)
		}
		wantTime(t, "expiresAt after cancel", s.ExpiresAt, monthAfterStart)
	}
	if got := subscription(t, other); got.AutoRenew {
		t.Fatal("another session still sees auto-renew on")
	}
	for range 2 {
		m.Do(http.MethodPost, "/api/billing/resume", nil).Want(http.StatusOK).JSON(&s)
		if !s.AutoRenew {
			t.Fatalf("after resume %+v", s)
		}
		wantTime(t, "nextPaymentAt after resume", s.NextPaymentAt, monthAfterStart)
	}
}

func TestCancelAndResumeNeedAStoreSubscription(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	for _, c := range []*apitest.Client{env.NewMember().Client, env.NewMember(apitest.AsPremium()).Client, env.NewMember(apitest.AsAdmin()).Client} {
		for _, op := range []string{"cancel", "resume"} {
			c.Do(http.MethodPost, "/api/billing/"+op, nil).WantProblem(http.StatusConflict, "NO_SUBSCRIPTION")
		}
	}
}

// An administrator's plan is permanent and clears the subscription; the
// expiry job leaves it alone however late it runs.
func TestAdministratorPlanIsPermanent(t *testing.T) {
	t.Parallel()
	env, _ := newEnv(t, testMode())
	admin := env.NewMember(apitest.AsAdmin())
	m := env.NewMember()
	verify(m, "premium_monthly", "test-admin-1").Want(http.StatusOK)
	m.Do(http.MethodPost, "/api/billing/cancel", nil).Want(http.StatusOK)

	admin.Do(http.MethodPut, fmt.Sprintf("/api/admin/members/%d/plan", m.ID), api.PlanRequest{Plan: api.PlanPremium}).Want(http.StatusOK)
	s := subscription(t, m.Client)
	if s.Plan != "PREMIUM" || s.ExpiresAt != nil || s.NextPaymentAt != nil || s.AutoRenew || s.ProductID != nil {
		t.Fatalf("after the administrator's change %+v", s)
	}
	ctx := context.Background()
	for _, later := range []int{1, 120} {
		if _, err := billing.ExpirePlans(ctx, env.Pool, apitest.Start.AddDate(0, later, 0)); err != nil {
			t.Fatal(err)
		}
		if s := subscription(t, m.Client); s.Plan != "PREMIUM" {
			t.Fatalf("%d months later the expiry job made the permanent plan %s", later, s.Plan)
		}
	}
	// A purchase does not shorten a permanent plan.
	verify(m, "premium_monthly", "test-admin-2").Want(http.StatusOK)
	if s := subscription(t, m.Client); s.Plan != "PREMIUM" || s.ExpiresAt != nil {
		t.Fatalf("a purchase turned the permanent plan into %+v", s)
	}

	admin.Do(http.MethodPut, fmt.Sprintf("/api/admin/members/%d/plan", m.ID), api.PlanRequest{Plan: api.PlanFree}).Want(http.StatusOK)
	wantFree(t, subscription(t, m.Client))
}
