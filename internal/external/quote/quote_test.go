package quote_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/nestegg/nestegg/internal/external/quote"
	"github.com/nestegg/nestegg/internal/external/quote/quotetest"
)

func TestGetSpeaksTheWireFormatAndItsFailures(t *testing.T) {
	t.Parallel()
	fake := quotetest.New(t)
	fake.SetPrice("005930", "71200.5")
	fake.SetPrice("FAIL", "1")
	fake.SetMode("FAIL", quotetest.Fail)
	fake.SetPrice("JUNK", "1")
	fake.SetMode("JUNK", quotetest.Garbage)
	fake.SetPrice("SLOW", "1")
	fake.SetMode("SLOW", quotetest.Slow)
	c := quote.New(fake.URL, nil).WithTimeout(200 * time.Millisecond)
	ctx := context.Background()

	q, err := c.Get(ctx, "005930")
	if err != nil {
		t.Fatal(err)
	}
	if q.Price.String() != "71200.5" || q.Currency != "KRW" || q.Time.IsZero() {
		t.Fatalf("quote %+v", q)
	}
	if _, err := c.Get(ctx, "NOPE"); !errors.Is(err, quote.ErrUnknownCode) {
		t.Fatalf("unknown code: %v", err)
	}
	for _, code := range []string{"FAIL", "JUNK", "SLOW"} {
		start := time.Now()
		if _, err := c.Get(ctx, code); !errors.Is(err, quote.ErrUnavailable) {
			t.Fatalf("%s: %v", code, err)
		}
		if time.Since(start) > 2*time.Second {
			t.Fatalf("%s: the deadline did not hold", code)
		}
	}
	if _, err := quote.New("", nil).Get(ctx, "005930"); !errors.Is(err, quote.ErrNotConfigured) {
		t.Fatalf("unconfigured: %v", err)
	}
}
