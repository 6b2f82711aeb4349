package billing_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
)

func TestRestoreFromTheLatestPurchase(t *testing.T) {
	t.Parallel()
	env, _ := newEnv(t, testMode())
	admin := env.NewMember(apitest.AsAdmin())
	m := env.NewMember()
	verify(m, "premium_monthly", "test-restore-1").Want(http.StatusOK)
	verify(m, "premium_yearly", "test-restore-2").Want(http.StatusOK)
	m.Do(http.MethodPost, "/api/billing/cancel", nil).Want(http.StatusOK)
	want := monthAfterStart.AddDate(1, 0, 0)

	// The plan is lost (an administrator's change here; a reinstall in life).
	admin.Do(http.MethodPut, fmt.Sprintf("/api/admin/members/%d/plan", m.ID), api.PlanRequest{Plan: api.PlanFree}).Want(http.StatusOK)
	wantFree(t, subscription(t, m.Client))

	env.Clock.Advance(24 * time.Hour)
	var s api.Subscription
	m.Do(http.MethodPost, "/api/billing/restore", nil).Want(http.StatusOK).JSON(&s)
	if s.Plan != "PREMIUM" || s.ProductID == nil || *s.ProductID != "premium_yearly" || s.AutoRenew {
		t.Fatalf("restored %+v (auto-renew was cancelled before)", s)
	}
	wantTime(t, "restored expiry", s.ExpiresAt, want)
	if plan := sessionPlan(t, env.LogIn(m.Email, apitest.DefaultPassword)); plan != "PREMIUM" {
		t.Fatalf("a new session sees %s", plan)
	}
	// Restoring again changes nothing.
	m.Do(http.MethodPost, "/api/billing/restore", nil).Want(http.StatusOK).JSON(&s)
	wantTime(t, "restored twice", s.ExpiresAt, want)

	// Another member has nothing to restore: purchases are their buyer's.
	env.NewMember().Do(http.MethodPost, "/api/billing/restore", nil).WantProblem(http.StatusNotFound, "NO_RESTORABLE_PURCHASE")
}

func TestRestoreWithoutAPurchaseThatHasNotExpired(t *testing.T) {
	t.Parallel()
	env, _ := newEnv(t, testMode())
	m := env.NewMember()
	m.Do(http.MethodPost, "/api/billing/restore", nil).WantProblem(http.StatusNotFound, "NO_RESTORABLE_PURCHASE")

	verify(m, "premium_monthly", "test-lapse").Want(http.StatusOK)
	env.Clock.Set(monthAfterStart)
	m.Do(http.MethodPost, "/api/billing/restore", nil).WantProblem(http.StatusNotFound, "NO_RESTORABLE_PURCHASE")
}

func TestRestoreKeepsALaterExpiryAndAPermanentPlan(t *testing.T) {
	t.Parallel()
	env, _ := newEnv(t, testMode())
	m := env.NewMember()
	verify(m, "premium_monthly", "test-keep").Want(http.StatusOK)
	later := apitest.Start.AddDate(3, 0, 0)
	env.Exec(`UPDATE member SET plan_expires_at = $2 WHERE id = $1`, m.ID, later)
	var s api.Subscription
	m.Do(http.MethodPost, "/api/billing/restore", nil).Want(http.StatusOK).JSON(&s)
	wantTime(t, "kept expiry", s.ExpiresAt, later)

	env.Exec(`UPDATE member SET plan_expires_at = NULL, plan_product = NULL, plan_auto_renew = false WHERE id = $1`, m.ID)
	m.Do(http.MethodPost, "/api/billing/restore", nil).Want(http.StatusOK).JSON(&s)
	if s.Plan != "PREMIUM" || s.ExpiresAt != nil {
		t.Fatalf("restore shortened a permanent plan: %+v", s)
	}
}
