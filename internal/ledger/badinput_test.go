package ledger_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/nestegg/nestegg/internal/apitest"
)

// TestHostileStringsAreRefused sends every text field of the ledger's
// create operations a NUL, a control character, a line separator and a huge
// value (invalid UTF-8 arrives as U+FFFD through JSON): each is a 400 problem
// and nothing is written.
func TestHostileStringsAreRefused(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	admin := env.NewMember(apitest.AsAdmin())
	// The default categories' seed is there before the first request.
	rows := func() int {
		t.Helper()
		var n int
		if err := env.Pool.QueryRow(t.Context(), `SELECT (SELECT count(*) FROM wallet) + (SELECT count(*) FROM account_category) + (SELECT count(*) FROM account_tag) + (SELECT count(*) FROM account_entry) + (SELECT count(*) FROM recurring) + (SELECT count(*) FROM quick_entry) + (SELECT count(*) FROM default_category)`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	before := rows()
	hostile := map[string]string{
		"NUL":            "a\x00b",
		"bell":           "a\x07b",
		"escape":         "\x1b[31mred",
		"line separator": "a\u2028b",
		"huge":           strings.Repeat("x", 100_000),
	}
	cases := []struct {
		who   *apitest.Member
		path  string
		base  map[string]any
		field string
	}{
		{m, "/api/account/wallets", map[string]any{"name": "W", "type": "CASH"}, "name"},
		{m, "/api/account/wallets", map[string]any{"name": "W", "type": "BANK"}, "accountNumber"},
		{m, "/api/account/categories", map[string]any{"name": "C", "type": "expense"}, "name"},
		{admin, "/api/admin/default-categories", map[string]any{"name": "C", "type": "expense"}, "name"},
		{m, "/api/account/tags", map[string]any{"name": "t"}, "name"},
		{m, "/api/account/entries", map[string]any{"date": "2026-11-16", "type": "expense", "amount": 1}, "memo"},
		{m, "/api/account/recurrings", map[string]any{"name": "R", "type": "expense", "amount": 1, "day": 1}, "name"},
		{m, "/api/account/recurrings", map[string]any{"name": "R", "type": "expense", "amount": 1, "day": 1}, "memo"},
		{m, "/api/account/quick-entries", map[string]any{"name": "Q", "type": "expense", "amount": 1}, "name"},
	}
	for _, c := range cases {
		for what, value := range hostile {
			body := map[string]any{}
			for k, v := range c.base {
				body[k] = v
			}
			body[c.field] = value
			raw, _ := json.Marshal(body)
			res := c.who.Raw().Do(http.MethodPost, c.path, raw)
			if res.Status != http.StatusBadRequest || res.Header.Get("Content-Type") != "application/problem+json" {
				t.Errorf("POST %s with %s %s: %d %s", c.path, what, c.field, res.Status, res.Body)
			}
		}
	}
	// Tags inside an entry too.
	for what, value := range hostile {
		raw, _ := json.Marshal(map[string]any{"date": "2026-11-16", "type": "expense", "amount": 1, "tags": []string{value}})
		if res := m.Raw().Do(http.MethodPost, "/api/account/entries", raw); res.Status != http.StatusBadRequest {
			t.Errorf("entry tag %s: %d %s", what, res.Status, res.Body)
		}
	}
	if n := rows() - before; n != 0 {
		t.Fatalf("%d rows were written from refused requests", n)
	}
}
