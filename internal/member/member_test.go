package member_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/dbtest"
	"github.com/nestegg/nestegg/internal/member"
	"github.com/nestegg/nestegg/internal/password"
	"github.com/nestegg/nestegg/internal/problem"
)

func TestNormalizeEmail(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		" Kim@Example.COM ": "kim@example.com",
		"a.b+tag@x.io":      "a.b+tag@x.io",
	} {
		if got, err := member.NormalizeEmail("/email", in); err != nil || got != want {
			t.Errorf("NormalizeEmail(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "no-at", "Kim <kim@example.com>", "a@", "@b.c", "a b@c.d"} {
		if _, err := member.NormalizeEmail("/email", bad); err == nil {
			t.Errorf("NormalizeEmail(%q) accepted", bad)
		}
	}
}

func TestMissingMemberIsNotFoundButOnesOwnIsUnauthenticated(t *testing.T) {
	t.Parallel()
	q := db.New(dbtest.NewPool(t))
	ctx := context.Background()
	_, err := member.Get(ctx, q, 4242)
	if pe, ok := problem.As(err); !ok || pe.Status != http.StatusNotFound {
		t.Fatalf("Get of a missing member: %v", err)
	}
	_, err = member.GetSelf(ctx, q, 4242)
	if pe, ok := problem.As(err); !ok || pe.Status != http.StatusUnauthorized {
		t.Fatalf("GetSelf of a missing member: %v", err)
	}
}

func TestBootstrapAdminCreatesOrPromotesOnce(t *testing.T) {
	t.Parallel()
	pool := dbtest.NewPool(t)
	ctx := context.Background()
	q := db.New(pool)
	existing, err := member.CreateLocal(ctx, q, member.NewLocal{Email: "lead@nestegg.test", Password: "members own password", Name: "Lead"})
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := member.BootstrapAdmin(ctx, pool, "LEAD@nestegg.test", "bootstrap password"); err != nil {
			t.Fatal(err)
		}
	}
	m, err := member.Get(ctx, q, existing.ID)
	if err != nil {
		t.Fatal(err)
	}
	if m.Role != "ADMIN" || m.Name != "Lead" {
		t.Fatalf("promoted member %+v", m)
	}
	// Promotion keeps the member's own password.
	if ok, _ := password.Verify("members own password", m.PasswordHash); !ok {
		t.Fatal("bootstrap replaced an existing member's password")
	}
	if err := member.BootstrapAdmin(ctx, pool, "new-admin@nestegg.test", "bootstrap password"); err != nil {
		t.Fatal(err)
	}
	created, err := q.GetMemberByEmail(ctx, "new-admin@nestegg.test")
	if err != nil || created.Role != "ADMIN" {
		t.Fatalf("created administrator %+v (%v)", created, err)
	}
	if ok, _ := password.Verify("bootstrap password", created.PasswordHash); !ok {
		t.Fatal("created administrator cannot use ADMIN_PASSWORD")
	}
}
