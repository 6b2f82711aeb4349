package billing

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/jackc/pgx/v5"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/internal/member"
	"github.com/nestegg/nestegg/internal/problem"
	"github.com/nestegg/nestegg/internal/session"
)

// ErrNoRestorablePurchase answers a restore without a purchase to restore.
var ErrNoRestorablePurchase = problem.New(http.StatusNotFound, problem.CodeNoRestorablePurchase,
	"there is no purchase of this account that has not expired")

// RestorePurchase restores PREMIUM from the member's latest purchase.
func (h *BillingHandler) RestorePurchase(ctx context.Context, _ api.RestorePurchaseRequestObject) (api.RestorePurchaseResponseObject, error) {
	m, err := h.Restore(ctx, session.PrincipalFrom(ctx).MemberID)
	if err != nil {
		return nil, err
	}
	return api.RestorePurchase200JSONResponse(toSubscription(m)), nil
}

// Restore makes the member PREMIUM until the expiry their latest purchase
// paid for, with its product and auto-renew, when that expiry is ahead. A
// later expiry the member has is kept; a permanent plan stays.
func (h *BillingHandler) Restore(ctx context.Context, memberID int64) (db.Member, error) {
	return database.InTxV(ctx, h.pool, func(q *db.Queries) (db.Member, error) {
		m, err := member.GetSelfForUpdate(ctx, q, memberID)
		if err != nil {
			return db.Member{}, err
		}
		p, err := q.GetLatestIAPPurchase(ctx, memberID)
		if errors.Is(err, pgx.ErrNoRows) || (err == nil && !p.ExpiresAt.After(h.clock.Now())) {
			return db.Member{}, ErrNoRestorablePurchase
		}
		if err != nil {
			return db.Member{}, fmt.Errorf("latest purchase of member %d: %w", memberID, err)
		}
		if permanent(m) {
			return m, nil
		}
		sub := member.Subscription{ExpiresAt: p.ExpiresAt, Product: p.ProductID, AutoRenew: p.AutoRenew}
		if m.PlanExpiresAt != nil && m.PlanExpiresAt.After(p.ExpiresAt) {
			sub.ExpiresAt = *m.PlanExpiresAt
		}
		return member.SetSubscription(ctx, q, memberID, sub)
	})
}
