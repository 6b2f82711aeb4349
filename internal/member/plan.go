package member

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

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

// Lapsed is a PREMIUM plan past its expiry with auto-renew on, and the
// purchase that paid for that expiry.
type Lapsed struct {
	MemberID  int64
	ExpiresAt time.Time
	Token     string
	ProductID string
	TestMode  bool
}

// LapsedAutoRenew lists at most max plans that expired at or before now with
// auto-renew on, oldest expiry first.
func LapsedAutoRenew(ctx context.Context, q *db.Queries, now time.Time, max int32) ([]Lapsed, error) {
	rows, err := q.ListLapsedAutoRenewPlans(ctx, db.ListLapsedAutoRenewPlansParams{Now: now, MaxRows: max})
	if err != nil {
		return nil, fmt.Errorf("list lapsed auto-renew plans: %w", err)
	}
	out := make([]Lapsed, len(rows))
	for i, r := range rows {
		out[i] = Lapsed{MemberID: r.MemberID, ExpiresAt: r.ExpiresAt, Token: r.PurchaseToken, ProductID: r.ProductID, TestMode: r.TestMode}
	}
	return out, nil
}

// EndLapsed makes l's member FREE, subscription fields cleared, if the plan
// is still the lapsed one l read; it reports whether it was.
func EndLapsed(ctx context.Context, q *db.Queries, l Lapsed) (bool, error) {
	_, err := q.EndLapsedMemberPlan(ctx, db.EndLapsedMemberPlanParams{ID: l.MemberID, ExpiresAt: l.ExpiresAt})
	return changed(err, "end lapsed plan", l.MemberID)
}

// RenewLapsed extends l's member's plan to expires with autoRenew, if the
// plan is still the lapsed one l read; it reports whether it was.
func RenewLapsed(ctx context.Context, q *db.Queries, l Lapsed, expires time.Time, autoRenew bool) (bool, error) {
	_, err := q.RenewLapsedMemberPlan(ctx, db.RenewLapsedMemberPlanParams{
		ID: l.MemberID, ExpiresAt: l.ExpiresAt, NewExpiresAt: &expires, AutoRenew: autoRenew,
	})
	return changed(err, "renew lapsed plan", l.MemberID)
}

func changed(err error, doing string, id int64) (bool, error) {
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, pgx.ErrNoRows):
		return false, nil
	default:
		return false, fmt.Errorf("%s of member %d: %w", doing, id, err)
	}
}
