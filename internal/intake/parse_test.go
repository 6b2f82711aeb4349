package intake_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/config"
	"github.com/nestegg/nestegg/internal/external/ai/aitest"
	"github.com/nestegg/nestegg/internal/problem"
)

func withAI(fake *aitest.Server) apitest.Option {
	return apitest.WithConfig(func(cfg *config.Config) {
		cfg.AIAPIURL = fake.URL + "/v1"
		cfg.AIAPIKey = aitest.Key
		cfg.AIModel = "test-model"
	})
}

func parse(t *testing.T, m *apitest.Member, text string) api.ParsedEntry {
	t.Helper()
	var out api.ParsedEntry
	m.Do(http.MethodPost, "/api/account/entries/parse", api.ParseEntryTextJSONRequestBody{Text: text}).Want(http.StatusOK).JSON(&out)
	return out
}

func TestParseWithoutAIUsesTheRules(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	cases := []struct {
		text, typ, merchant, date string
		amount                    int64
	}{
		{"어제 점심 12,000원", "expense", "점심", "2026-11-15", 12000},
		{"coffee 4.5k yesterday", "expense", "coffee", "2026-11-15", 4500},
		{"만오천원 택시", "expense", "택시", "2026-11-16", 15000},
		{"3/14 월세 50만원 입금", "income", "월세", "2026-03-14", 500000},
	}
	for _, c := range cases {
		got := parse(t, m, c.text)
		if string(got.Type) != c.typ || got.Amount != c.amount || got.Merchant != c.merchant ||
			got.Date.Format(time.DateOnly) != c.date || got.Parser != "RULES" {
			t.Errorf("%s: got %+v", c.text, got)
		}
	}
	m.Do(http.MethodPost, "/api/account/entries/parse", api.ParseEntryTextJSONRequestBody{Text: "오늘 점심 김밥"}).
		WantProblem(http.StatusBadRequest, problem.CodeValidationFailed)
}

func TestParseAsksTheAIFirst(t *testing.T) {
	t.Parallel()
	fake := aitest.New(t)
	env := apitest.New(t, withAI(fake))
	got := parse(t, env.NewMember(), "어제 점심 12,000원")
	if got.Parser != "AI" || got.Merchant != "AI 점심" || got.Amount != 12000 || got.Date.Format(time.DateOnly) != "2026-11-15" {
		t.Fatalf("got %+v", got)
	}
	req := fake.LastRequest()
	format, _ := req["response_format"].(map[string]any)
	if req["model"] != "test-model" || format["type"] != "json_schema" || format["json_schema"] == nil {
		t.Fatalf("request %v", req)
	}
	if msgs, _ := req["messages"].([]any); len(msgs) != 2 || !strings.Contains(msgs[0].(map[string]any)["content"].(string), "2026-11-16") {
		t.Fatalf("messages %v", req["messages"])
	}
}

func TestParseFallsBackToTheRules(t *testing.T) {
	t.Parallel()
	modes := map[string]aitest.Mode{
		"garbage": aitest.Garbage, "500": aitest.Fail, "429": aitest.RateLimited,
		"timeout": aitest.Hang, "nothing found": aitest.NothingFound,
	}
	for name, mode := range modes {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			fake := aitest.New(t)
			fake.SetMode(mode)
			env := apitest.New(t, withAI(fake))
			got := parse(t, env.NewMember(), "어제 점심 12,000원")
			if got.Parser != "RULES" || got.Amount != 12000 || got.Merchant != "점심" {
				t.Fatalf("got %+v", got)
			}
			if fake.Calls() != 1 {
				t.Fatalf("%d AI calls", fake.Calls())
			}
		})
	}
}

func TestParseRefusesAnImpossibleAIAnswer(t *testing.T) {
	t.Parallel()
	fake := aitest.New(t)
	env := apitest.New(t, withAI(fake))
	m := env.NewMember()
	for _, answer := range []map[string]any{
		{"found": true, "type": "expense", "amount": -5, "merchant": "x", "date": "2026-11-15"},
		{"found": true, "type": "TRANSFER", "amount": 5, "merchant": "x", "date": "2026-11-15"},
		{"found": true, "type": "expense", "amount": 5, "merchant": "x", "date": "2099-01-01"},
		{"found": true, "type": "expense", "amount": 5, "merchant": "x", "date": "yesterday"},
		{"found": true, "type": "expense", "amount": 5, "merchant": "x"},
		{"found": true, "type": "expense", "amount": 5, "merchant": "x", "date": "2026-11-15", "extra": 1},
	} {
		fake.SetAnswer(answer)
		if got := parse(t, m, "만오천원 택시"); got.Parser != "RULES" || got.Amount != 15000 {
			t.Fatalf("answer %v: got %+v", answer, got)
		}
	}
	fake.SetAnswer(map[string]any{"found": true, "type": "income", "amount": 7, "merchant": "a\x00b\u202e" + strings.Repeat("가", 300), "date": "2026-11-16"})
	if got := parse(t, m, "만오천원 택시"); got.Parser != "AI" || len([]rune(got.Merchant)) != 200 || strings.ContainsRune(got.Merchant, 0) {
		t.Fatalf("cleaned merchant: %+v", got)
	}
}

func TestParseBadInput(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	for _, body := range []string{`{}`, `{"text": ""}`, `{"text": 5}`, `{"text": "` + strings.Repeat("가", 2001) + `"}`, `{`} {
		m.Raw().Do(http.MethodPost, "/api/account/entries/parse", body).WantProblem(http.StatusBadRequest, problem.CodeValidationFailed)
	}
	// NUL is refused at the request path, naming the field; other control
	// characters are read past, never a 500.
	m.Do(http.MethodPost, "/api/account/entries/parse", api.ParseEntryTextJSONRequestBody{Text: "택시\x00 12000원"}).
		WantProblem(http.StatusBadRequest, problem.CodeValidationFailed)
	if got := parse(t, m, "택시\x07 \x1b[31m 12000원"); got.Amount != 12000 {
		t.Fatalf("got %+v", got)
	}
	env.Client().Do(http.MethodPost, "/api/account/entries/parse", api.ParseEntryTextJSONRequestBody{Text: "x"}).
		WantProblem(http.StatusUnauthorized, problem.CodeUnauthenticated)
}
