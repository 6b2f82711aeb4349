package billing

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/config"
	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/internal/external/store"
	"github.com/nestegg/nestegg/internal/idempotency"
	"github.com/nestegg/nestegg/internal/member"
	"github.com/nestegg/nestegg/internal/problem"
	"github.com/nestegg/nestegg/internal/session"
)

// testTokenPrefix marks the purchase tokens test mode accepts unasked.
const testTokenPrefix = "test-"

// retryAfter is the Retry-After of a store outage, in seconds.
const retryAfter = "30"

// ErrDuplicatePurchase answers a purchase token already accepted once.
var ErrDuplicatePurchase = problem.Conflict(problem.CodeDuplicatePurchase, "this purchase has already been used")

// VerifyStorePurchase verifies a store purchase and grants PREMIUM, once
// under its Idempotency-Key: a retry of a purchase that was granted finds
// its token used, and answers the first answer (replayed) instead of 409.
func (h *BillingHandler) VerifyStorePurchase(ctx context.Context, req api.VerifyStorePurchaseRequestObject) (api.VerifyStorePurchaseResponseObject, error) {
	p := session.PrincipalFrom(ctx)
	k, err := idempotency.KeyFor(p, req.Params.IdempotencyKey, "verifyStorePurchase", req)
	if err != nil {
		return nil, err
	}
	product, v, refused := h.check(ctx, req.Body.ProductID, req.Body.PurchaseToken)
	if refused != nil && (req.Params.IdempotencyKey == nil || *req.Params.IdempotencyKey == "") {
		return nil, refused
	}
	// With a key, a refusal goes through Once too: when the key holds the
	// answer of this request, that answer is replayed (Once answers a
	// failed write with the stored answer); otherwise the refusal stands.
	out, replayed, err := idempotency.Once(ctx, h.keys, k, func(tx pgx.Tx) (api.Subscription, error) {
		if refused != nil {
			return api.Subscription{}, refused
		}
		m, err := h.grantTx(ctx, db.New(tx), p.MemberID, product, req.Body.PurchaseToken, v)
		if err != nil {
			return api.Subscription{}, err
		}
		return toSubscription(m), nil
	})
	if err != nil {
		return nil, err
	}
	return api.VerifyStorePurchase200JSONResponse{Body: out, Headers: api.VerifyStorePurchase200ResponseHeaders{
		IdempotentReplayed: idempotency.Replayed(replayed),
	}}, nil
}

// verified is what the store (or test mode) vouched for.
type verified struct {
	autoRenew   bool
	storeExpiry *time.Time
	testMode    bool
}

// Verify asks the store about a purchase and, when it is an active purchase
// of productID, records it once and extends the member's plan by the
// product's period from the later of now and the current expiry. The store
// is asked before the transaction opens: no outside call holds a lock.
func (h *BillingHandler) Verify(ctx context.Context, memberID int64, productID, token string) (db.Member, error) {
	product, v, err := h.check(ctx, productID, token)
	if err != nil {
		return db.Member{}, err
	}
	return database.InTxV(ctx, h.pool, func(q *db.Queries) (db.Member, error) {
		return h.grantTx(ctx, q, memberID, product, token, v)
	})
}

// check is what Verify checks before its transaction: the product, the
// token's shape, that the token is unused, and what the store says.
func (h *BillingHandler) check(ctx context.Context, productID, token string) (config.Product, verified, error) {
	product, err := h.product("/productId", productID)
	if err != nil {
		return config.Product{}, verified{}, err
	}
	if len(token) == 0 || len(token) > 4096 || strings.IndexFunc(token, func(r rune) bool { return r <= ' ' || r > '~' }) >= 0 {
		return config.Product{}, verified{}, problem.Invalid("/purchaseToken", "must be 1 to 4096 printable ASCII characters without spaces")
	}
	// A token already used needs no store call; the unique key in grantTx
	// is what settles a race.
	used, err := db.New(h.pool).IAPPurchaseTokenExists(ctx, token)
	if err != nil {
		return config.Product{}, verified{}, fmt.Errorf("look up purchase token: %w", err)
	}
	if used {
		return config.Product{}, verified{}, ErrDuplicatePurchase
	}
	v, err := h.askStore(ctx, product, token)
	if err != nil {
		return config.Product{}, verified{}, err
	}
	return product, v, nil
}

// askStore returns what the store says about token, as a problem when the
// purchase grants nothing or the store cannot tell.
func (h *BillingHandler) askStore(ctx context.Context, product config.Product, token string) (verified, error) {
	if h.testMode && strings.HasPrefix(token, testTokenPrefix) {
		return verified{autoRenew: true, testMode: true}, nil
	}
	p, err := h.store.Subscription(ctx, token)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return verified{}, &problem.Error{Status: http.StatusBadRequest, Code: problem.CodePurchaseInvalid,
			Detail: "the store does not know this purchase token", Fields: []problem.FieldError{{Field: "/purchaseToken", Message: "unknown to the store"}}, Err: err}
	case errors.Is(err, store.ErrNotConfigured):
		return verified{}, unavailable(problem.CodeServiceUnavailable, "purchases cannot be verified: no store is configured", err)
	case err != nil:
		return verified{}, unavailable(problem.CodeDependencyUnavailable, "the store could not be reached to verify the purchase; retry later", err)
	}
	item, ok := p.Item(product.ID)
	if !ok {
		return verified{}, &problem.Error{Status: http.StatusBadRequest, Code: problem.CodePurchaseInvalid,
			Detail: "the purchase is not of product " + product.ID, Fields: []problem.FieldError{{Field: "/productId", Message: "not the purchase's product"}}}
	}
	if p.State != store.StateActive {
		return verified{}, problem.New(http.StatusBadRequest, problem.CodePurchaseNotActive,
			"the store reports the purchase as "+strings.ToLower(strings.TrimPrefix(p.State, "SUBSCRIPTION_STATE_")))
	}
	if !item.ExpiryTime.After(h.clock.Now()) {
		return verified{}, problem.New(http.StatusBadRequest, problem.CodePurchaseNotActive, "the purchase has expired")
	}
	expiry := item.ExpiryTime
	return verified{autoRenew: item.AutoRenew, storeExpiry: &expiry}, nil
}

func unavailable(code, detail string, cause error) *problem.Error {
	e := problem.Unavailable(code, detail, cause)
	e.Headers = map[string]string{"Retry-After": retryAfter}
	return e
}

// grantTx records the purchase and extends the member's plan, with the
// member's row locked so that two purchases extend one after the other.
func (h *BillingHandler) grantTx(ctx context.Context, q *db.Queries, memberID int64, product config.Product, token string, v verified) (db.Member, error) {
	m, err := member.GetSelfForUpdate(ctx, q, memberID)
	if err != nil {
		return db.Member{}, err
	}
	now := h.clock.Now()
	from := now
	if m.PlanExpiresAt != nil && m.PlanExpiresAt.After(now) {
		from = *m.PlanExpiresAt
	}
	expires := product.Period.AddTo(from.In(h.tz))
	_, err = q.InsertIAPPurchase(ctx, db.InsertIAPPurchaseParams{
		MemberID: memberID, PurchaseToken: token, ProductID: product.ID, AutoRenew: v.autoRenew,
		ExpiresAt: expires, StoreExpiresAt: v.storeExpiry, TestMode: v.testMode, CreatedAt: now,
	})
	if database.IsUniqueViolation(err, "iap_purchase_purchase_token_key") {
		return db.Member{}, ErrDuplicatePurchase
	}
	if err != nil {
		return db.Member{}, fmt.Errorf("record purchase of member %d: %w", memberID, err)
	}
	if permanent(m) {
		return m, nil
	}
	return member.SetSubscription(ctx, q, memberID, member.Subscription{ExpiresAt: expires, Product: product.ID, AutoRenew: v.autoRenew})
}

// permanent reports whether m has a PREMIUM plan an administrator set, which
// no purchase or restore shortens.
func permanent(m db.Member) bool {
	return m.Plan == session.PlanPremium && m.PlanExpiresAt == nil
}
