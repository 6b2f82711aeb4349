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
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/shopspring/decimal"
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
	baseURL string
	http    *http.Client
	timeout time.Duration
}

// New returns a client of the provider at baseURL ("" leaves it unconfigured).
func New(baseURL string, httpClient *http.Client) *Client {
	if httpClient == nil {
		httpClient = &http.Client{}
	}
	return &Client{baseURL: strings.TrimRight(baseURL, "/"), http: httpClient, timeout: Timeout}
}

// WithTimeout returns a copy of the client whose calls give up after d.
func (c *Client) WithTimeout(d time.Duration) *Client {
	cp := *c
	cp.timeout = d
	return &cp
}

// Configured reports whether a provider address is set.
func (c *Client) Configured() bool { return c != nil && c.baseURL != "" }

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
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.baseURL+"/quote?"+url.Values{"symbol": {code}}.Encode(), nil)
	if err != nil {
		return Quote{}, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	req.Header.Set("Accept", "application/json")
	res, err := c.http.Do(req)
	if err != nil {
		return Quote{}, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, maxAnswer))
	if err != nil {
		return Quote{}, fmt.Errorf("%w: read answer: %v", ErrUnavailable, err)
	}
	switch {
	case res.StatusCode == http.StatusNotFound:
		return Quote{}, fmt.Errorf("%w: %s", ErrUnknownCode, code)
	case res.StatusCode != http.StatusOK:
		return Quote{}, fmt.Errorf("%w: status %d", ErrUnavailable, res.StatusCode)
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
