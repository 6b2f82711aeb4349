package member

import (
	"context"
	"fmt"
	"time"

	"github.com/nestegg/nestegg/generated/db"
)

// Subscription is what a store subscription sets on the member's plan.
type Subscription struct {
	ExpiresAt time.Time
	Product   string
	AutoRenew bool
}

// SetSubscription makes the member PREMIUM until sub.ExpiresAt with the
// subscription's product and auto-renew. Callers that compute the expiry
// from the current one hold the member's row (GetSelfForUpdate).
func SetSubscription(ctx context.Context, q *db.Queries, id int64, sub Subscription) (db.Member, error) {
	m, err := q.SetMemberPlanSubscription(ctx, db.SetMemberPlanSubscriptionParams{
		ID: id, ExpiresAt: &sub.ExpiresAt, Product: &sub.Product, AutoRenew: sub.AutoRenew,
	})
	return m, Self(err, id)
}

// HasSubscription reports whether m's plan is a store subscription (and not
// FREE or a permanent plan an administrator set).
func HasSubscription(m db.Member) bool {
	return m.Plan == "PREMIUM" && m.PlanProduct != nil && m.PlanExpiresAt != nil
}

// SetAutoRenew turns auto-renew of the member's store subscription on or
// off; it changes nothing for a member without one (see HasSubscription),
// which reads as the account being gone.
func SetAutoRenew(ctx context.Context, q *db.Queries, id int64, on bool) (db.Member, error) {
	m, err := q.SetMemberPlanAutoRenew(ctx, db.SetMemberPlanAutoRenewParams{ID: id, AutoRenew: on})
	return m, Self(err, id)
}

// DemoteExpired makes FREE every PREMIUM member whose expiry is at or before
// now with auto-renew off, clearing the subscription fields, and returns
// their ids. Permanent plans and auto-renewing subscriptions stay.
func DemoteExpired(ctx context.Context, q *db.Queries, now time.Time) ([]int64, error) {
	ids, err := q.DemoteExpiredMemberPlans(ctx, now)
	if err != nil {
		return nil, fmt.Errorf("demote expired plans: %w", err)
	}
	return ids, nil
}
