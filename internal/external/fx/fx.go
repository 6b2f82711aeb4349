// Package fx is the client of the foreign exchange rate provider at
// FX_API_URL. The provider speaks a Frankfurter-style wire format:
//
//	GET {FX_API_URL}/latest?base=USD&symbols=KRW
//	GET {FX_API_URL}/2026-11-20?base=USD&symbols=KRW
//	200 {"base":"USD","date":"2026-11-20","rates":{"KRW":1391.25}}
//
// The date in the answer is the provider's (a weekend asks for a Saturday and
// gets Friday's rate).
package fx

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/nestegg/nestegg/internal/external/httpcall"
)

var (
	// ErrNotConfigured means FX_API_URL is unset.
	ErrNotConfigured = errors.New("fx: FX_API_URL is not set")
	// ErrUnavailable wraps every failure of the provider: unreachable,
	// too slow, an error status, an answer without the rate.
	ErrUnavailable = errors.New("fx: provider unavailable")
)

// Timeout bounds one call to the provider.
const Timeout = 3 * time.Second

// maxAnswer bounds what is read of an answer: a rate is a few hundred bytes.
const maxAnswer = 64 << 10

// Client asks the provider for rates.
type Client struct {
	api httpcall.Endpoint
}

// New returns a client of the provider at baseURL ("" leaves it unconfigured).
func New(baseURL string, httpClient *http.Client) *Client {
	return &Client{api: httpcall.Endpoint{
		URL: strings.TrimRight(baseURL, "/"), HTTP: httpClient, Timeout: Timeout, MaxAnswer: maxAnswer,
	}}
}

// Configured reports whether a provider address is set.
func (c *Client) Configured() bool { return c != nil && c.api.URL != "" }

// Quote is one rate: 1 From is Rate To, as of Date.
type Quote struct {
	From, To string
	Rate     decimal.Decimal
	Date     time.Time
}

// Rate asks for the rate from → to on day (a calendar day; today's rate is
// asked for as "latest" when latest is true).
func (c *Client) Rate(ctx context.Context, from, to string, day time.Time, latest bool) (Quote, error) {
	if !c.Configured() {
		return Quote{}, ErrNotConfigured
	}
	path := "/latest"
	if !latest {
		path = "/" + day.Format(time.DateOnly)
	}
	q := url.Values{"base": {from}, "symbols": {to}}
	body, err := c.api.Get(ctx, path+"?"+q.Encode(), http.Header{"Accept": {"application/json"}})
	if err != nil {
		return Quote{}, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	var answer struct {
		Base  string                 `json:"base"`
		Date  string                 `json:"date"`
		Rates map[string]json.Number `json:"rates"`
	}
	if err := json.Unmarshal(body, &answer); err != nil {
		return Quote{}, fmt.Errorf("%w: malformed answer: %v", ErrUnavailable, err)
	}
	raw, ok := answer.Rates[to]
	if !ok || !strings.EqualFold(answer.Base, from) {
		return Quote{}, fmt.Errorf("%w: answer has no %s→%s rate", ErrUnavailable, from, to)
	}
	rate, err := decimal.NewFromString(raw.String())
	if err != nil || !rate.IsPositive() {
		return Quote{}, fmt.Errorf("%w: rate %q is not a positive number", ErrUnavailable, raw)
	}
	date, err := time.Parse(time.DateOnly, answer.Date)
	if err != nil {
		date = day
	}
	return Quote{From: from, To: to, Rate: rate, Date: date}, nil
}
