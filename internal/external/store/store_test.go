package store_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/nestegg/nestegg/internal/external/store"
	"github.com/nestegg/nestegg/internal/external/store/storetest"
)

var expiry = time.Date(2026, 12, 16, 1, 0, 0, 0, time.UTC)

func TestSubscriptionStates(t *testing.T) {
	t.Parallel()
	fake := storetest.New(t)
	c := store.New(fake.Config(2*time.Second), nil)
	cases := []storetest.Purchase{
		{State: store.StateActive, ProductID: "premium_monthly", Expiry: expiry, AutoRenew: true},
		{State: store.StateCanceled, ProductID: "premium_monthly", Expiry: expiry, AutoRenew: false},
		{State: store.StateExpired, ProductID: "premium_yearly", Expiry: expiry.AddDate(-1, 0, 0)},
	}
	for _, want := range cases {
		token := fake.Add(want)
		got, err := c.Subscription(context.Background(), token)
		if err != nil {
			t.Fatalf("%s: %v", want.State, err)
		}
		item, ok := got.Item(want.ProductID)
		if got.State != want.State || !ok || !item.ExpiryTime.Equal(want.Expiry) || item.AutoRenew != want.AutoRenew {
			t.Errorf("%s: got %+v", want.State, got)
		}
		if _, ok := got.Item("premium_other"); ok {
			t.Errorf("%s: a line item of another product", want.State)
		}
	}
}

func TestUnknownTokenIsNotFound(t *testing.T) {
	t.Parallel()
	fake := storetest.New(t)
	c := store.New(fake.Config(2*time.Second), nil)
	for _, token := range []string{"no-such-token", "a/b", "..", "x?y#z"} {
		_, err := c.Subscription(context.Background(), token)
		if !errors.Is(err, store.ErrNotFound) {
			t.Errorf("%q: %v, want ErrNotFound", token, err)
		}
	}
}

func TestFailuresAreUnavailable(t *testing.T) {
	t.Parallel()
	for name, failure := range map[string]storetest.Failure{"500": storetest.Fail500, "garbage": storetest.Garbage, "timeout": storetest.Hang} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			fake := storetest.New(t)
			token := fake.Active("premium_monthly", expiry)
			fake.SetFailure(failure)
			c := store.New(fake.Config(200*time.Millisecond), nil)
			start := time.Now()
			_, err := c.Subscription(context.Background(), token)
			if !errors.Is(err, store.ErrUnavailable) {
				t.Fatalf("%v, want ErrUnavailable", err)
			}
			if took := time.Since(start); took > 5*time.Second {
				t.Fatalf("the call took %s despite a 200ms deadline", took)
			}
			if strings.Contains(err.Error(), token) {
				t.Fatalf("the error names the purchase token: %v", err)
			}
		})
	}
}

func TestCredentialIsSent(t *testing.T) {
	t.Parallel()
	fake := storetest.New(t)
	token := fake.Active("premium_monthly", expiry)
	cfg := fake.Config(2 * time.Second)
	cfg.Credential = "wrong"
	if _, err := store.New(cfg, nil).Subscription(context.Background(), token); !errors.Is(err, store.ErrUnavailable) {
		t.Fatalf("a refused credential: %v, want ErrUnavailable", err)
	}
	cfg.Credential = storetest.Credential
	if _, err := store.New(cfg, nil).Subscription(context.Background(), token); err != nil {
		t.Fatalf("the right credential: %v", err)
	}
}

func TestUnconfigured(t *testing.T) {
	t.Parallel()
	c := store.New(store.Config{}, nil)
	if c.Configured() {
		t.Fatal("configured without an address")
	}
	if _, err := c.Subscription(context.Background(), "t"); !errors.Is(err, store.ErrNotConfigured) {
		t.Fatalf("%v, want ErrNotConfigured", err)
	}
}

func TestUnreachableIsUnavailable(t *testing.T) {
	t.Parallel()
	fake := storetest.New(t)
	cfg := fake.Config(time.Second)
	fake.Server.Close()
	if _, err := store.New(cfg, nil).Subscription(context.Background(), "t"); !errors.Is(err, store.ErrUnavailable) {
		t.Fatalf("%v, want ErrUnavailable", err)
	}
}
