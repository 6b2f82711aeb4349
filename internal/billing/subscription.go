package billing

import (
	"context"
	"fmt"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/internal/member"
	"github.com/nestegg/nestegg/internal/problem"
	"github.com/nestegg/nestegg/internal/session"
)

// ErrNoSubscription answers cancel and resume for a member without a store
// subscription (FREE, or a permanent plan an administrator set).
var ErrNoSubscription = problem.Conflict(problem.CodeNoSubscription, "there is no store subscription to change")

// GetSubscription answers the member's plan and subscription.
func (h *BillingHandler) GetSubscription(ctx context.Context, _ api.GetSubscriptionRequestObject) (api.GetSubscriptionResponseObject, error) {
	m, err := member.GetSelf(ctx, db.New(h.pool), session.PrincipalFrom(ctx).MemberID)
	if err != nil {
		return nil, err
	}
	return api.GetSubscription200JSONResponse(toSubscription(m)), nil
}

// CancelSubscription turns auto-renew off.
func (h *BillingHandler) CancelSubscription(ctx context.Context, _ api.CancelSubscriptionRequestObject) (api.CancelSubscriptionResponseObject, error) {
	m, err := h.SetAutoRenew(ctx, session.PrincipalFrom(ctx).MemberID, false)
	if err != nil {
		return nil, err
	}
	return api.CancelSubscription200JSONResponse(toSubscription(m)), nil
}

// ResumeSubscription turns auto-renew back on.
func (h *BillingHandler) ResumeSubscription(ctx context.Context, _ api.ResumeSubscriptionRequestObject) (api.ResumeSubscriptionResponseObject, error) {
	m, err := h.SetAutoRenew(ctx, session.PrincipalFrom(ctx).MemberID, true)
	if err != nil {
		return nil, err
	}
	return api.ResumeSubscription200JSONResponse(toSubscription(m)), nil
}

// SetAutoRenew turns the member's auto-renew on or off, on the member and on
// their latest purchase (which restore reads), or answers ErrNoSubscription.
// The member's row is locked so the check and the change see one state.
func (h *BillingHandler) SetAutoRenew(ctx context.Context, memberID int64, on bool) (db.Member, error) {
	return database.InTxV(ctx, h.pool, func(q *db.Queries) (db.Member, error) {
		m, err := member.GetSelfForUpdate(ctx, q, memberID)
		if err != nil {
			return db.Member{}, err
		}
		if !member.HasSubscription(m) {
			return db.Member{}, ErrNoSubscription
		}
		if err := q.SetLatestIAPPurchaseAutoRenew(ctx, db.SetLatestIAPPurchaseAutoRenewParams{MemberID: memberID, AutoRenew: on}); err != nil {
			return db.Member{}, fmt.Errorf("set auto-renew of member %d's purchase: %w", memberID, err)
		}
		return member.SetAutoRenew(ctx, q, memberID, on)
	})
}
