package fx_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/nestegg/nestegg/internal/external/fx"
	"github.com/nestegg/nestegg/internal/external/fx/fxtest"
)

func TestRateAgainstTheFake(t *testing.T) {
	t.Parallel()
	fake := fxtest.New(t)
	c := fx.New(fake.URL+"/", nil)
	ctx := context.Background()
	day := time.Date(2026, 11, 10, 0, 0, 0, 0, time.UTC)
	q, err := c.Rate(ctx, "USD", "KRW", day, false)
	if err != nil || q.Rate.String() != "1391.25" || q.Date != day {
		t.Fatalf("%+v %v", q, err)
	}
	if p := fake.Paths(); p[0] != "/2026-11-10" {
		t.Fatalf("asked %v", p)
	}
	if _, err := c.Rate(ctx, "USD", "XXX", day, true); !errors.Is(err, fx.ErrUnavailable) {
		t.Errorf("unknown pair: %v", err)
	}
	for _, mode := range []fxtest.Mode{fxtest.Fail, fxtest.Garbage} {
		fake.SetMode(mode)
		if _, err := c.Rate(ctx, "USD", "KRW", day, true); !errors.Is(err, fx.ErrUnavailable) {
			t.Errorf("mode %d: %v", mode, err)
		}
	}
	fake.SetMode(fxtest.Hang)
	short, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	if _, err := c.Rate(short, "USD", "KRW", day, true); !errors.Is(err, fx.ErrUnavailable) {
		t.Errorf("hang: %v", err)
	}
	if _, err := fx.New("", nil).Rate(ctx, "USD", "KRW", day, true); !errors.Is(err, fx.ErrNotConfigured) {
		t.Errorf("unconfigured: %v", err)
	}
}
