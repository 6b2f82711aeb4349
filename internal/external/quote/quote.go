// Package quote is the client of the stock quote provider at QUOTE_API_URL.
// The wire format:
//
//	GET {QUOTE_API_URL}/quote?symbol=005930
//	200 {"symbol":"005930","price":"71200","currency":"KRW","time":"2026-11-16T15:30:00+09:00"}
//	404 the provider does not know the code
//
// price is a decimal string (a JSON number is accepted too); time is RFC 3339,
// when the price was current.
package quote

import (
	"bytes"
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
	// ErrNotConfigured means QUOTE_API_URL is unset.
	ErrNotConfigured = errors.New("quote: QUOTE_API_URL is not set")
	// ErrUnknownCode means the provider does not know the code.
	ErrUnknownCode = errors.New("quote: unknown code")
	// ErrUnavailable wraps every other failure: unreachable, too slow, an
	// error status, an answer that is not the format.
	ErrUnavailable = errors.New("quote: provider unavailable")
)

// Timeout bounds one call to the provider.
const Timeout = 3 * time.Second

// maxAnswer bounds what is read of an answer: a quote is a hundred bytes.
const maxAnswer = 64 << 10

// Client asks the provider for quotes.
type Client struct {
	api httpcall.Endpoint
}

// New returns a client of the provider at baseURL ("" leaves it unconfigured).
func New(baseURL string, httpClient *http.Client) *Client {
	return &Client{api: httpcall.Endpoint{
		URL: strings.TrimRight(baseURL, "/"), HTTP: httpClient, Timeout: Timeout, MaxAnswer: maxAnswer,
	}}
}

// WithTimeout returns a copy of the client whose calls give up after d.
func (c *Client) WithTimeout(d time.Duration) *Client {
	cp := *c
	cp.api.Timeout = d
	return &cp
}

// Configured reports whether a provider address is set.
func (c *Client) Configured() bool { return c != nil && c.api.URL != "" }

// Quote is one price of a code.
type Quote struct {
	Code     string
	Price    decimal.Decimal
	Currency string
	Time     time.Time
}

// Get asks for the latest price of code.
func (c *Client) Get(ctx context.Context, code string) (Quote, error) {
	if !c.Configured() {
		return Quote{}, ErrNotConfigured
	}
	body, err := c.api.Get(ctx, "/quote?"+url.Values{"symbol": {code}}.Encode(), http.Header{"Accept": {"application/json"}})
	if refused, ok := errors.AsType[*httpcall.StatusError](err); ok && refused.Status == http.StatusNotFound {
		return Quote{}, fmt.Errorf("%w: %s", ErrUnknownCode, code)
	}
	if err != nil {
		return Quote{}, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	var answer struct {
		Symbol   string          `json:"symbol"`
		Price    json.RawMessage `json:"price"`
		Currency string          `json:"currency"`
		Time     string          `json:"time"`
	}
	if err := json.Unmarshal(body, &answer); err != nil {
		return Quote{}, fmt.Errorf("%w: malformed answer: %v", ErrUnavailable, err)
	}
	if !strings.EqualFold(answer.Symbol, code) {
		return Quote{}, fmt.Errorf("%w: answer is for %q, not %q", ErrUnavailable, answer.Symbol, code)
	}
	price, err := decimal.NewFromString(string(bytes.Trim(answer.Price, `"`)))
	if err != nil || price.IsNegative() || len(answer.Price) == 0 {
		return Quote{}, fmt.Errorf("%w: price %q is not a decimal", ErrUnavailable, answer.Price)
	}
	at, err := time.Parse(time.RFC3339, answer.Time)
	if err != nil {
		return Quote{}, fmt.Errorf("%w: time %q is not RFC 3339", ErrUnavailable, answer.Time)
	}
	if len(answer.Currency) != 3 {
		return Quote{}, fmt.Errorf("%w: currency %q", ErrUnavailable, answer.Currency)
	}
	return Quote{Code: code, Price: price, Currency: strings.ToUpper(answer.Currency), Time: at}, nil
}
