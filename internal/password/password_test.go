package password

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestHashAndVerify(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h, err := Hash(ctx, "correct horse battery")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(h, "$argon2id$") {
		t.Fatalf("hash %q is not argon2id", h)
	}
	if ok, err := Verify(ctx, "correct horse battery", &h); err != nil || !ok {
		t.Fatalf("right password: %v %v", ok, err)
	}
	if ok, _ := Verify(ctx, "correct horse batterY", &h); ok {
		t.Fatal("wrong password accepted")
	}
	if ok, _ := Verify(ctx, "anything", nil); ok {
		t.Fatal("member without a password matched")
	}
	// Not truncated: a long password differs from its prefix.
	long := strings.Repeat("a", 128)
	hl, _ := Hash(ctx, long)
	if ok, _ := Verify(ctx, long[:127], &hl); ok {
		t.Fatal("password truncated")
	}
}

func TestValidLength(t *testing.T) {
	t.Parallel()
	for pw, want := range map[string]bool{
		"1234567":                false,
		"12345678":               true,
		strings.Repeat("가", 8):   true, // characters, not bytes
		strings.Repeat("x", 128): true,
		strings.Repeat("x", 129): false,
	} {
		if got := ValidLength(pw); got != want {
			t.Errorf("ValidLength(%d chars) = %v", len([]rune(pw)), got)
		}
	}
}

// TestHashingIsBounded fills every slot and checks that a further check waits
// with its caller's context and, past the wait, answers ErrBusy (503) instead
// of running: argon2 work never exceeds the CPUs.
func TestHashingIsBounded(t *testing.T) {
	// Not parallel: it takes every slot.
	for i := 0; i < cap(slots); i++ {
		slots <- struct{}{}
	}
	defer func() {
		for i := 0; i < cap(slots); i++ {
			<-slots
		}
	}()
	h := dummyHash()

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Verify(ctx, "x", &h); !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled caller got %v, want context.Canceled", err)
	}

	old := maxWait
	maxWait = 20 * time.Millisecond
	defer func() { maxWait = old }()
	if _, err := Verify(context.Background(), "x", &h); !IsBusy(err) {
		t.Fatalf("over the bound: %v, want ErrBusy", err)
	}
	if _, err := Hash(context.Background(), "x"); !IsBusy(err) {
		t.Fatalf("hash over the bound: %v, want ErrBusy", err)
	}
}
