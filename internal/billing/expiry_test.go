package billing_test

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/billing"
)

func TestExpiryJobDemotesLapsedPlansOnly(t *testing.T) {
	t.Parallel()
	env, _ := newEnv(t, testMode())
	ctx := context.Background()
	admin := env.NewMember(apitest.AsAdmin())

	cancelled := env.NewMember()
	verify(cancelled, "premium_monthly", "test-expiry-cancelled").Want(http.StatusOK)
	cancelled.Do(http.MethodPost, "/api/billing/cancel", nil).Want(http.StatusOK)
	cancelledElsewhere := env.LogIn(cancelled.Email, apitest.DefaultPassword)

	renewing := env.NewMember()
	verify(renewing, "premium_monthly", "test-expiry-renewing").Want(http.StatusOK)

	permanent := env.NewMember()
	verify(permanent, "premium_monthly", "test-expiry-permanent").Want(http.StatusOK)
	admin.Do(http.MethodPut, fmt.Sprintf("/api/admin/members/%d/plan", permanent.ID), api.PlanRequest{Plan: api.PlanPremium}).Want(http.StatusOK)
	legacy := env.NewMember(apitest.AsPremium())
	free := env.NewMember()

	// Just before the expiry: nothing to do.
	ids, err := billing.ExpirePlans(ctx, env.Pool, monthAfterStart.Add(-time.Second))
	if err != nil || len(ids) != 0 {
		t.Fatalf("before the expiry: demoted %v, %v", ids, err)
	}
	if s := subscription(t, cancelled.Client); s.Plan != "PREMIUM" {
		t.Fatalf("demoted before the expiry: %+v", s)
	}

	// At the expiry: only the cancelled subscription lapses.
	ids, err = billing.ExpirePlans(ctx, env.Pool, monthAfterStart)
	if err != nil || !slices.Equal(ids, []int64{cancelled.ID}) {
		t.Fatalf("at the expiry: demoted %v (%v), want only %d", ids, err, cancelled.ID)
	}
	wantFree(t, subscription(t, cancelled.Client))
	if plan := sessionPlan(t, cancelledElsewhere); plan != "FREE" {
		t.Fatalf("another session of the demoted member sees %s", plan)
	}
	if s := subscription(t, renewing.Client); s.Plan != "PREMIUM" || !s.AutoRenew {
		t.Fatalf("an auto-renewing subscription was touched: %+v", s)
	}
	for _, m := range []*apitest.Member{permanent, legacy} {
		if s := subscription(t, m.Client); s.Plan != "PREMIUM" || s.ExpiresAt != nil {
			t.Fatalf("a permanent plan was touched: %+v", s)
		}
	}
	wantFree(t, subscription(t, free.Client))

	// Again: idempotent.
	if ids, err := billing.ExpirePlans(ctx, env.Pool, monthAfterStart.Add(time.Hour)); err != nil || len(ids) != 0 {
		t.Fatalf("second run demoted %v, %v", ids, err)
	}
}

// The job is registered with the runner, hourly, under its name.
func TestExpiryJobRunsHourlyInTheRunner(t *testing.T) {
	t.Parallel()
	env, _ := newEnv(t, testMode())
	ctx := context.Background()
	m := env.NewMember()
	verify(m, "premium_monthly", "test-runner").Want(http.StatusOK)
	m.Do(http.MethodPost, "/api/billing/cancel", nil).Want(http.StatusOK)

	if ran, err := env.App.Jobs.Run(ctx, billing.ExpiryJobName); err != nil || !ran {
		t.Fatalf("ran=%v err=%v", ran, err)
	}
	if s := subscription(t, m.Client); s.Plan != "PREMIUM" {
		t.Fatal("demoted before the expiry")
	}
	env.Clock.Set(monthAfterStart.Add(30 * time.Minute))
	if ran, err := env.App.Jobs.Run(ctx, billing.ExpiryJobName); err != nil || !ran {
		t.Fatalf("ran=%v err=%v", ran, err)
	}
	wantFree(t, subscription(t, m.Client))
	// Within the hour it does not run again.
	env.Clock.Advance(10 * time.Minute)
	if ran, err := env.App.Jobs.Run(ctx, billing.ExpiryJobName); err != nil || ran {
		t.Fatalf("ran again within the hour: ran=%v err=%v", ran, err)
	}
}
