// Package billing sells the PREMIUM membership through the app store: the
// products, verification of store purchases, the member's subscription
// (cancel, resume, restore), the store's notifications and the hourly
// expiry of lapsed plans. The plan itself lives on the member row (package
// member); sessions reload it on every request, so a change here reaches
// every session of the member by its next request.
package billing

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/clock"
	"github.com/nestegg/nestegg/internal/config"
	"github.com/nestegg/nestegg/internal/external/store"
	"github.com/nestegg/nestegg/internal/idempotency"
)

// BillingHandler implements the billing operations of the contract.
type BillingHandler struct {
	pool     *pgxpool.Pool
	clock    clock.Clock
	store    *store.Client
	testMode bool
	products []config.Product
	currency string
	tz       *time.Location
	log      *slog.Logger
	// keys store the answers of creates sent with an Idempotency-Key
	// (UseKeys).
	keys *idempotency.Store
}

// UseKeys sets the store of Idempotency-Keys the creates answer retries
// from.
func (h *BillingHandler) UseKeys(keys *idempotency.Store) { h.keys = keys }

// Deps are what the billing handler is built from.
type Deps struct {
	Pool       *pgxpool.Pool
	Clock      clock.Clock
	Config     config.Config
	HTTPClient *http.Client
	// Logger receives the store's notifications; nil is slog.Default().
	Logger *slog.Logger
}

// NewHandler returns the billing handler. It warns when test mode is on,
// since test mode grants PREMIUM to anyone who sends a test- token.
func NewHandler(d Deps) *BillingHandler {
	cfg := d.Config
	log := d.Logger
	if log == nil {
		log = slog.Default()
	}
	if cfg.StoreTestMode {
		log.Warn("STORE_TEST_MODE is on: purchase tokens starting with test- are accepted without asking the store; never use it in production")
	}
	tz := cfg.Timezone
	if tz == nil {
		tz = time.UTC
	}
	return &BillingHandler{
		pool:  d.Pool,
		clock: d.Clock,
		store: store.New(store.Config{
			BaseURL: cfg.StoreAPIURL, PackageName: cfg.StorePackageName,
			Credential: cfg.StoreAPIToken, Timeout: cfg.StoreTimeout,
		}, d.HTTPClient),
		testMode: cfg.StoreTestMode,
		products: []config.Product{cfg.MonthlyProduct, cfg.YearlyProduct},
		currency: cfg.BaseCurrency,
		tz:       tz,
		log:      log,
	}
}

// toSubscription maps a member's plan fields to the wire's Subscription.
func toSubscription(m db.Member) api.Subscription {
	s := api.Subscription{
		Plan: api.PlanValue(m.Plan), ExpiresAt: m.PlanExpiresAt, AutoRenew: m.PlanAutoRenew, ProductID: m.PlanProduct,
	}
	if m.PlanAutoRenew && m.PlanExpiresAt != nil {
		s.NextPaymentAt = m.PlanExpiresAt
	}
	return s
}
