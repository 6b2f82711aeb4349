// Package storetest is a fake of the store's subscription-purchase API for
// tests: it speaks the wire format of purchases.subscriptionsv2.get,
// including its failures (unknown token 404, 500, a garbled body, a store
// that does not answer in time).
package storetest

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nestegg/nestegg/internal/external/fake"
	"github.com/nestegg/nestegg/internal/external/store"
)

// PackageName and Credential are what the fake expects in every call.
const (
	PackageName = "com.nestegg.test"
	Credential  = "store-test-credential"
)

// Failure makes the fake answer every call badly.
type Failure int

const (
	// Healthy answers from the registered purchases.
	Healthy Failure = iota
	// Fail500 answers 500 with a Google-style error body.
	Fail500
	// Garbage answers 200 with a body that is not JSON.
	Garbage
	// Hang answers nothing until the caller gives up.
	Hang
)

// Purchase is one registered subscription purchase.
type Purchase struct {
	State     string
	ProductID string
	Expiry    time.Time
	AutoRenew bool
}

// Fake is a running fake store. Besides its own methods it counts calls
// (Calls): see package fake.
type Fake struct {
	*fake.Server
	failure fake.Switch[Failure]

	mu        sync.Mutex
	purchases map[string]Purchase
}

// New starts a fake store, closed when t ends.
func New(t testing.TB) *Fake {
	f := &Fake{purchases: map[string]Purchase{}}
	f.Server = fake.Start(t, f.serve)
	return f
}

// URL is the fake's base address (STORE_API_URL).
func (f *Fake) URL() string { return f.Server.URL }

// Config is a client configuration that reaches the fake.
func (f *Fake) Config(timeout time.Duration) store.Config {
	return store.Config{BaseURL: f.URL(), PackageName: PackageName, Credential: Credential, Timeout: timeout}
}

// Add registers a purchase under a new token and returns the token.
func (f *Fake) Add(p Purchase) string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	token := "gp-token." + hex.EncodeToString(b)
	f.mu.Lock()
	defer f.mu.Unlock()
	f.purchases[token] = p
	return token
}

// Set changes what the store says about token: a renewal, a cancellation,
// an expiry.
func (f *Fake) Set(token string, p Purchase) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.purchases[token] = p
}

// Forget makes the store answer token with 404, as it does for a revoked
// purchase it no longer keeps.
func (f *Fake) Forget(token string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.purchases, token)
}

// Active registers an active, auto-renewing purchase of productID.
func (f *Fake) Active(productID string, expiry time.Time) string {
	return f.Add(Purchase{State: store.StateActive, ProductID: productID, Expiry: expiry, AutoRenew: true})
}

// SetFailure makes every later call fail as given (Healthy ends it).
func (f *Fake) SetFailure(failure Failure) { f.failure.SetMode(failure) }

const pathPrefix = "/androidpublisher/v3/applications/"

func (f *Fake) serve(w http.ResponseWriter, r *http.Request) {
	switch f.failure.Mode() {
	case Fail500:
		writeError(w, http.StatusInternalServerError, "INTERNAL", "Internal error encountered.")
		return
	case Garbage:
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte("<html>upstream connect error</html>"))
		return
	case Hang:
		fake.Hang(r)
		return
	}
	if r.Method != http.MethodGet {
		writeError(w, http.StatusMethodNotAllowed, "METHOD_NOT_ALLOWED", "only GET")
		return
	}
	if r.Header.Get("Authorization") != "Bearer "+Credential {
		writeError(w, http.StatusUnauthorized, "UNAUTHENTICATED", "Request had invalid authentication credentials.")
		return
	}
	rest, ok := strings.CutPrefix(r.URL.Path, pathPrefix+PackageName+"/purchases/subscriptionsv2/tokens/")
	if !ok || rest == "" || strings.Contains(rest, "/") {
		writeError(w, http.StatusNotFound, "NOT_FOUND", "No such application or method.")
		return
	}
	f.mu.Lock()
	p, ok := f.purchases[rest]
	f.mu.Unlock()
	if !ok {
		writeError(w, http.StatusNotFound, "NOT_FOUND", "The purchase token was not found.")
		return
	}
	item := map[string]any{
		"productId":  p.ProductID,
		"expiryTime": p.Expiry.UTC().Format(time.RFC3339Nano),
		"offerDetails": map[string]any{
			"basePlanId": "base",
		},
	}
	if p.AutoRenew || p.State == store.StateActive || p.State == store.StateCanceled {
		item["autoRenewingPlan"] = map[string]any{"autoRenewEnabled": p.AutoRenew}
	}
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	_ = json.NewEncoder(w).Encode(map[string]any{
		"kind":                 "androidpublisher#subscriptionPurchaseV2",
		"regionCode":           "KR",
		"startTime":            p.Expiry.Add(-30 * 24 * time.Hour).UTC().Format(time.RFC3339Nano),
		"subscriptionState":    p.State,
		"latestOrderId":        "GPA.3301-0000-0000-00000",
		"acknowledgementState": "ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED",
		"lineItems":            []any{item},
	})
}

func writeError(w http.ResponseWriter, status int, code, message string) {
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{
		"error": map[string]any{"code": status, "message": message, "status": code},
	})
}
