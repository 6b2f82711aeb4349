package session_test

import (
	"context"
	"testing"
	"time"

	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/session"
)

// Reads do not write: the idle expiry moves once per step, by exactly one of
// several parallel requests.
func TestSlideWritesOncePerStep(t *testing.T) {
	t.Parallel()
	e := session.NewStoreEnv(t)
	ctx := context.Background()
	deadline := time.Now().Add(24 * time.Hour)
	e.Start(t, "h5", deadline)
	exp, _ := e.Durable(t, "h5")
	if wrote, err := e.Store().Slide(ctx, "h5", exp, deadline); err != nil || wrote {
		t.Fatalf("a fresh session slid (%v, %v)", wrote, err)
	}
	// The session was last used one step and a bit ago.
	behind := exp.Add(-session.SlideStep - time.Minute)
	if _, err := e.Pool().Exec(ctx, "UPDATE auth_session SET expires_at = $1 WHERE token_hash = 'h5'", behind); err != nil {
		t.Fatal(err)
	}
	e.Redis().PExpireAt(ctx, e.Key("h5"), behind)
	errs := make([]error, 10)
	wrote := apitest.TogetherV(len(errs), func(i int) bool {
		var wrote bool
		wrote, errs[i] = e.Store().Slide(ctx, "h5", behind, deadline)
		return wrote
	})
	writes := 0
	for i, w := range wrote {
		if errs[i] != nil {
			t.Errorf("slide %d: %v", i, errs[i])
		}
		if w {
			writes++
		}
	}
	if writes != 1 {
		t.Fatalf("%d parallel slides wrote, want exactly 1", writes)
	}
	if now, _ := e.Durable(t, "h5"); !now.After(behind.Add(session.SlideStep)) {
		t.Fatalf("durable expiry %v did not slide from %v", now, behind)
	}
	if ttl := e.Redis().PTTL(ctx, e.Key("h5")).Val(); ttl < 59*time.Minute {
		t.Fatalf("Redis TTL %v did not slide", ttl)
	}
	// Never past the absolute deadline.
	near := time.Now().Add(10 * time.Minute)
	if _, err := e.Pool().Exec(ctx, "UPDATE auth_session SET expires_at = now() WHERE token_hash = 'h5'"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Store().Slide(ctx, "h5", time.Now(), near); err != nil {
		t.Fatal(err)
	}
	if now, _ := e.Durable(t, "h5"); now.After(near) {
		t.Fatalf("slid to %v, past the deadline %v", now, near)
	}
}
