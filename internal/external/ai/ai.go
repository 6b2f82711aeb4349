// Package ai is the client of an OpenAI-compatible chat-completions API
// (AI_API_URL, AI_API_KEY, AI_MODEL) that reads entry drafts out of text.
// It asks for an answer that follows a JSON schema (response_format
// json_schema) and checks the answer as untrusted input: a model can answer
// anything.
package ai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode"

	"github.com/nestegg/nestegg/internal/calendar"
	"github.com/nestegg/nestegg/internal/external/httpcall"
)

var (
	// ErrNotConfigured means AI_API_URL, AI_API_KEY or AI_MODEL is unset.
	ErrNotConfigured = errors.New("ai: not configured")
	// ErrUnavailable wraps transport failures, error statuses (429 and 5xx
	// included) and the deadline.
	ErrUnavailable = errors.New("ai: unavailable")
	// ErrGarbage means the answer did not follow the schema or held
	// impossible values.
	ErrGarbage = errors.New("ai: unusable answer")
	// ErrNothingFound means the model found no entry in the text.
	ErrNothingFound = errors.New("ai: no entry in the text")
)

// Timeout bounds one call: the member is waiting for the draft, and the rule
// parser is the answer when the model is slower.
const Timeout = 4 * time.Second

const (
	maxAnswer   = 256 << 10
	maxMerchant = 200
	maxAmount   = 1_000_000_000_000_000
)

// Client calls the chat-completions API.
type Client struct {
	api        httpcall.Endpoint
	key, model string
}

// New returns a client. baseURL is the API's base ("https://api.openai.com/v1")
// or its chat-completions address; an empty url, key or model leaves the
// client unconfigured.
func New(baseURL, key, model string, httpClient *http.Client) *Client {
	endpoint := strings.TrimRight(baseURL, "/")
	if endpoint != "" && !strings.HasSuffix(endpoint, "/chat/completions") {
		endpoint += "/chat/completions"
	}
	return &Client{
		api: httpcall.Endpoint{URL: endpoint, HTTP: httpClient, Timeout: Timeout, MaxAnswer: maxAnswer},
		key: key, model: model,
	}
}

// Configured reports whether address, key and model are all set.
func (c *Client) Configured() bool {
	return c != nil && c.api.URL != "" && c.key != "" && c.model != ""
}

// Draft is the entry the model read. Type is income or expense; Date is a
// calendar day (midnight UTC).
type Draft struct {
	Type     string
	Amount   int64
	Merchant string
	Date     time.Time
}

// answer is the schema the model must follow.
type answer struct {
	Found    *bool   `json:"found"`
	Type     *string `json:"type"`
	Amount   *int64  `json:"amount"`
	Merchant *string `json:"merchant"`
	Date     *string `json:"date"`
}

var answerSchema = map[string]any{
	"type":                 "object",
	"additionalProperties": false,
	"required":             []string{"found", "type", "amount", "merchant", "date"},
	"properties": map[string]any{
		"found":    map[string]any{"type": "boolean", "description": "false when the text describes no payment or income"},
		"type":     map[string]any{"type": "string", "enum": []string{"income", "expense"}},
		"amount":   map[string]any{"type": "integer", "description": "amount in whole Korean won, positive"},
		"merchant": map[string]any{"type": "string", "description": "merchant, payee or short memo; empty if none"},
		"date":     map[string]any{"type": "string", "description": "YYYY-MM-DD"},
	},
}

const instructions = `You read household ledger entries out of short texts in Korean or English: ` +
	`typed notes ("어제 점심 12,000원", "coffee 4.5k yesterday") or pasted card notifications. ` +
	`Answer only with the JSON object of the schema. amount is in whole won (만 = 10,000, k = 1,000). ` +
	`type is income for money received (입금, 월급, refund, a cancelled card payment), else expense. ` +
	`merchant is the shop, payee or what the money was for, without the amount or date words. ` +
	`Resolve relative dates against today, %s (%s); a month and day without a year that would be in the ` +
	`future belong to last year. found is false when the text states no amount.`

// ParseEntry asks the model for the entry in text; today is the member's
// current time in the app time zone.
func (c *Client) ParseEntry(ctx context.Context, text string, today time.Time) (Draft, error) {
	if !c.Configured() {
		return Draft{}, ErrNotConfigured
	}
	body, err := json.Marshal(map[string]any{
		"model":       c.model,
		"temperature": 0,
		"messages": []map[string]string{
			{"role": "system", "content": fmt.Sprintf(instructions, today.Format(time.DateOnly), today.Weekday())},
			{"role": "user", "content": text},
		},
		"response_format": map[string]any{
			"type": "json_schema",
			"json_schema": map[string]any{
				"name": "entry_draft", "strict": true, "schema": answerSchema,
			},
		},
	})
	if err != nil {
		return Draft{}, fmt.Errorf("ai: encode request: %w", err)
	}
	raw, err := c.api.Post(ctx, "", http.Header{
		"Content-Type":  {"application/json"},
		"Authorization": {"Bearer " + c.key},
	}, body)
	if err != nil {
		return Draft{}, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	var completion struct {
		Choices []struct {
			Message struct {
				Content *string `json:"content"`
				Refusal *string `json:"refusal"`
			} `json:"message"`
		} `json:"choices"`
	}
	if err := json.Unmarshal(raw, &completion); err != nil {
		return Draft{}, fmt.Errorf("%w: not a chat completion: %v", ErrGarbage, err)
	}
	if len(completion.Choices) == 0 || completion.Choices[0].Message.Content == nil {
		return Draft{}, fmt.Errorf("%w: no message content", ErrGarbage)
	}
	return readAnswer(*completion.Choices[0].Message.Content, today)
}

// readAnswer checks the model's JSON against the schema and common sense.
func readAnswer(content string, today time.Time) (Draft, error) {
	var a answer
	dec := json.NewDecoder(strings.NewReader(content))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&a); err != nil {
		return Draft{}, fmt.Errorf("%w: %v", ErrGarbage, err)
	}
	if a.Found == nil || a.Type == nil || a.Amount == nil || a.Merchant == nil || a.Date == nil {
		if a.Found != nil && !*a.Found {
			return Draft{}, ErrNothingFound
		}
		return Draft{}, fmt.Errorf("%w: a field is missing", ErrGarbage)
	}
	if !*a.Found {
		return Draft{}, ErrNothingFound
	}
	// The schema asks for lower case; a model that answers in capitals still
	// means the same type.
	typ := strings.ToLower(*a.Type)
	if typ != "income" && typ != "expense" {
		return Draft{}, fmt.Errorf("%w: type %q", ErrGarbage, *a.Type)
	}
	if *a.Amount <= 0 || *a.Amount > maxAmount {
		return Draft{}, fmt.Errorf("%w: amount %d", ErrGarbage, *a.Amount)
	}
	date, err := time.Parse(time.DateOnly, *a.Date)
	if err != nil {
		return Draft{}, fmt.Errorf("%w: date %q", ErrGarbage, *a.Date)
	}
	todayUTC := calendar.Day(today, today.Location())
	if date.After(todayUTC.AddDate(0, 0, 1)) || date.Before(todayUTC.AddDate(-10, 0, 0)) {
		return Draft{}, fmt.Errorf("%w: date %s is far from today", ErrGarbage, *a.Date)
	}
	return Draft{Type: typ, Amount: *a.Amount, Merchant: cleanText(*a.Merchant), Date: date}, nil
}

// cleanText drops control characters and bounds the length of a string the
// model made up.
func cleanText(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return -1
		}
		return r
	}, strings.ToValidUTF8(s, ""))
	s = strings.TrimSpace(s)
	if r := []rune(s); len(r) > maxMerchant {
		s = string(r[:maxMerchant])
	}
	return s
}
