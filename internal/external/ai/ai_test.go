package ai_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/nestegg/nestegg/internal/external/ai"
	"github.com/nestegg/nestegg/internal/external/ai/aitest"
)

var today = time.Date(2026, 11, 16, 10, 0, 0, 0, time.FixedZone("KST", 9*3600))

func TestParseEntryAgainstTheFake(t *testing.T) {
	t.Parallel()
	fake := aitest.New(t)
	c := ai.New(fake.URL+"/v1", aitest.Key, "m", nil)
	d, err := c.ParseEntry(context.Background(), "어제 점심 12,000원", today)
	if err != nil || d.Type != "expense" || d.Amount != 12000 || d.Merchant != "AI 점심" || d.Date.Format(time.DateOnly) != "2026-11-15" {
		t.Fatalf("%+v %v", d, err)
	}
	// A model answering the type in capitals means the same type.
	fake.SetAnswer(map[string]any{"found": true, "type": "INCOME", "amount": 5000, "merchant": "환불", "date": "2026-11-15"})
	if d, err := c.ParseEntry(context.Background(), "환불 5,000원", today); err != nil || d.Type != "income" {
		t.Fatalf("upper-case type: %+v %v", d, err)
	}
	fake.SetAnswer(map[string]any{"found": true, "type": "expense", "amount": 12000, "merchant": "AI 점심", "date": "2026-11-15"})
	// The full chat-completions address works as well as the base.
	if _, err := ai.New(fake.URL+"/v1/chat/completions", aitest.Key, "m", nil).ParseEntry(context.Background(), "x", today); err != nil {
		t.Fatal(err)
	}
	for mode, want := range map[aitest.Mode]error{
		aitest.Garbage: ai.ErrGarbage, aitest.Fail: ai.ErrUnavailable, aitest.RateLimited: ai.ErrUnavailable,
		aitest.NothingFound: ai.ErrNothingFound,
	} {
		fake.SetMode(mode)
		if _, err := c.ParseEntry(context.Background(), "x", today); !errors.Is(err, want) {
			t.Errorf("mode %d: %v, want %v", mode, err, want)
		}
	}
	fake.SetMode(aitest.Hang)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := c.ParseEntry(ctx, "x", today); !errors.Is(err, ai.ErrUnavailable) {
		t.Errorf("hang: %v", err)
	}
	if _, err := ai.New(fake.URL+"/v1", "wrong", "m", nil).ParseEntry(context.Background(), "x", today); !errors.Is(err, ai.ErrUnavailable) {
		t.Errorf("wrong key: %v", err)
	}
	if ai.New(fake.URL, aitest.Key, "", nil).Configured() || ai.New("", aitest.Key, "m", nil).Configured() {
		t.Error("configured without a model or address")
	}
	if _, err := ai.New("", "", "", nil).ParseEntry(context.Background(), "x", today); !errors.Is(err, ai.ErrNotConfigured) {
		t.Errorf("unconfigured: %v", err)
	}
}
