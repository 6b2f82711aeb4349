// Package store is a client of the app store's subscription-purchase API,
// shaped after the Google Play Developer API's purchases.subscriptionsv2.get:
//
//	GET {base}/androidpublisher/v3/applications/{packageName}/purchases/subscriptionsv2/tokens/{token}
//	Authorization: Bearer {credential}
//
// answered with a SubscriptionPurchaseV2 (subscriptionState, lineItems with
// productId, expiryTime and autoRenewingPlan.autoRenewEnabled). Every call
// has a deadline; errors wrap exactly one of ErrNotConfigured, ErrNotFound or
// ErrUnavailable.
package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/nestegg/nestegg/internal/external/httpcall"
)

// Subscription states of the store (SubscriptionPurchaseV2.subscriptionState).
const (
	StateActive        = "SUBSCRIPTION_STATE_ACTIVE"
	StateCanceled      = "SUBSCRIPTION_STATE_CANCELED"
	StateInGracePeriod = "SUBSCRIPTION_STATE_IN_GRACE_PERIOD"
	StateOnHold        = "SUBSCRIPTION_STATE_ON_HOLD"
	StatePaused        = "SUBSCRIPTION_STATE_PAUSED"
	StateExpired       = "SUBSCRIPTION_STATE_EXPIRED"
	StatePending       = "SUBSCRIPTION_STATE_PENDING"
)

var (
	// ErrNotConfigured means no API address is set.
	ErrNotConfigured = errors.New("store: API not configured")
	// ErrNotFound means the store does not know the purchase token (or no
	// longer does): the purchase cannot be verified.
	ErrNotFound = errors.New("store: purchase token not found")
	// ErrUnavailable means the store did not answer usefully (network
	// failure, deadline, 5xx, 429, a refused credential, a body that is not
	// a subscription purchase): the purchase is neither verified nor refused.
	ErrUnavailable = errors.New("store: API unavailable")
)

// Config is where the store API is and how to call it.
type Config struct {
	// BaseURL is the API's address (https://androidpublisher.googleapis.com
	// for the real store); empty leaves the client unconfigured.
	BaseURL     string
	PackageName string
	// Credential is sent as a bearer token.
	Credential string
	// Timeout bounds each call.
	Timeout time.Duration
}

// Purchase is what the store says about a subscription purchase.
type Purchase struct {
	State         string
	LatestOrderID string
	LineItems     []LineItem
	// Test is true for a purchase made with a store test account.
	Test bool
}

// LineItem is one product of a subscription purchase.
type LineItem struct {
	ProductID  string
	ExpiryTime time.Time
	AutoRenew  bool
}

// Item returns the line item of productID, if the purchase has one.
func (p Purchase) Item(productID string) (LineItem, bool) {
	for _, it := range p.LineItems {
		if it.ProductID == productID {
			return it, true
		}
	}
	return LineItem{}, false
}

// Client calls the store API. It is safe for concurrent use.
type Client struct {
	cfg Config
	api httpcall.Endpoint
}

// maxResponse bounds how much of an answer is read: a subscription purchase
// is a few kilobytes.
const maxResponse = 1 << 20

// New returns a client; hc nil uses a plain http.Client (the deadline comes
// from cfg.Timeout either way).
func New(cfg Config, hc *http.Client) *Client {
	if cfg.Timeout <= 0 {
		cfg.Timeout = 5 * time.Second
	}
	cfg.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	return &Client{cfg: cfg, api: httpcall.Endpoint{URL: cfg.BaseURL, HTTP: hc, Timeout: cfg.Timeout, MaxAnswer: maxResponse}}
}

// Configured reports whether the client has an address to call.
func (c *Client) Configured() bool { return c.cfg.BaseURL != "" }

// wirePurchase is SubscriptionPurchaseV2 as the store sends it (the fields
// this service reads).
type wirePurchase struct {
	Kind              string `json:"kind"`
	SubscriptionState string `json:"subscriptionState"`
	LatestOrderID     string `json:"latestOrderId"`
	LineItems         []struct {
		ProductID        string `json:"productId"`
		ExpiryTime       string `json:"expiryTime"`
		AutoRenewingPlan *struct {
			AutoRenewEnabled bool `json:"autoRenewEnabled"`
		} `json:"autoRenewingPlan"`
	} `json:"lineItems"`
	TestPurchase *struct{} `json:"testPurchase"`
}

// Subscription looks a subscription purchase up by its token.
func (c *Client) Subscription(ctx context.Context, token string) (Purchase, error) {
	if !c.Configured() {
		return Purchase{}, ErrNotConfigured
	}
	path := "/androidpublisher/v3/applications/" + url.PathEscape(c.cfg.PackageName) +
		"/purchases/subscriptionsv2/tokens/" + url.PathEscape(token)
	header := http.Header{"Accept": {"application/json"}}
	if c.cfg.Credential != "" {
		header.Set("Authorization", "Bearer "+c.cfg.Credential)
	}
	body, err := c.api.Get(ctx, path, header)
	if refused, ok := errors.AsType[*httpcall.StatusError](err); ok {
		switch refused.Status {
		case http.StatusNotFound, http.StatusGone, http.StatusBadRequest:
			// 404 unknown token, 410 a purchase too old to keep, 400 a token
			// the store cannot read: all say this token is no purchase.
			return Purchase{}, fmt.Errorf("%w (%d%s)", ErrNotFound, refused.Status, apiMessage(refused.Body))
		}
		return Purchase{}, fmt.Errorf("%w: status %d%s", ErrUnavailable, refused.Status, apiMessage(refused.Body))
	}
	if err != nil {
		// The URL holds the purchase token: keep it out of the error text.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return Purchase{}, fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	return decode(body)
}

func decode(body []byte) (Purchase, error) {
	var w wirePurchase
	if err := json.Unmarshal(body, &w); err != nil {
		return Purchase{}, fmt.Errorf("%w: answer is not a subscription purchase: %w", ErrUnavailable, err)
	}
	if w.SubscriptionState == "" {
		return Purchase{}, fmt.Errorf("%w: answer has no subscriptionState", ErrUnavailable)
	}
	p := Purchase{State: w.SubscriptionState, LatestOrderID: w.LatestOrderID, Test: w.TestPurchase != nil}
	for _, it := range w.LineItems {
		li := LineItem{ProductID: it.ProductID, AutoRenew: it.AutoRenewingPlan != nil && it.AutoRenewingPlan.AutoRenewEnabled}
		if it.ExpiryTime != "" {
			t, err := time.Parse(time.RFC3339Nano, it.ExpiryTime)
			if err != nil {
				return Purchase{}, fmt.Errorf("%w: line item expiryTime %q: %w", ErrUnavailable, it.ExpiryTime, err)
			}
			li.ExpiryTime = t
		}
		p.LineItems = append(p.LineItems, li)
	}
	return p, nil
}

// apiMessage quotes the message of a Google-style error body
// ({"error": {"code", "message", "status"}}), if there is one.
func apiMessage(body []byte) string {
	var e struct {
		Error struct {
			Message string `json:"message"`
			Status  string `json:"status"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &e) != nil || (e.Error.Message == "" && e.Error.Status == "") {
		return ""
	}
	msg := e.Error.Message
	if len(msg) > 200 {
		msg = msg[:200]
	}
	return ": " + strings.TrimSpace(e.Error.Status+" "+msg)
}
