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

func TestBootstrapAdminPromotesOnlyTheHolderOfItsPassword(t *testing.T) {
	t.Parallel()
	pool := dbtest.NewPool(t)
	ctx := context.Background()
	q := db.New(pool)
	// The real administrator signed up with ADMIN_EMAIL and ADMIN_PASSWORD.
	owner, err := member.CreateLocal(ctx, q, member.NewLocal{Email: "lead@nestegg.test", Password: "bootstrap password", Name: "Lead"})
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := member.BootstrapAdmin(ctx, pool, "LEAD@nestegg.test", "bootstrap password"); err != nil {
			t.Fatal(err)
		}
	}
	m, err := member.Get(ctx, q, owner.ID)
	if err != nil {
		t.Fatal(err)
	}
	if m.Role != "ADMIN" || m.Name != "Lead" || m.SessionEpoch != owner.SessionEpoch {
		t.Fatalf("promoted member %+v", m)
	}

	if err := member.BootstrapAdmin(ctx, pool, "new-admin@nestegg.test", "bootstrap password"); err != nil {
		t.Fatal(err)
	}
	created, err := q.GetMemberCredentials(ctx, "new-admin@nestegg.test")
	if err != nil || created.Role != "ADMIN" {
		t.Fatalf("created admin %+v: %v", created, err)
	}
	if ok, _ := password.Verify(ctx, "bootstrap password", created.PasswordHash); !ok {
		t.Fatal("the created administrator does not have ADMIN_PASSWORD")
	}
}

// TestBootstrapAdminDoesNotPromoteAStranger: whoever signed up first with
// ADMIN_EMAIL does not become administrator with their own password; the
// account gets ADMIN_PASSWORD and loses its sessions.
func TestBootstrapAdminDoesNotPromoteAStranger(t *testing.T) {
	t.Parallel()
	pool := dbtest.NewPool(t)
	ctx := context.Background()
	q := db.New(pool)
	squatter, err := member.CreateLocal(ctx, q, member.NewLocal{Email: "lead@nestegg.test", Password: "the squatter's password", Name: "Squatter"})
	if err != nil {
		t.Fatal(err)
	}
	if err := member.BootstrapAdmin(ctx, pool, "lead@nestegg.test", "bootstrap password"); err != nil {
		t.Fatal(err)
	}
	m, err := q.GetMemberCredentials(ctx, "lead@nestegg.test")
	if err != nil {
		t.Fatal(err)
	}
	if ok, _ := password.Verify(ctx, "the squatter's password", m.PasswordHash); ok {
		t.Fatal("the squatter's password still signs in to the administrator account")
	}
	if ok, _ := password.Verify(ctx, "bootstrap password", m.PasswordHash); !ok || m.Role != "ADMIN" {
		t.Fatalf("the account does not hold ADMIN_PASSWORD as administrator: role %s", m.Role)
	}
	if m.SessionEpoch <= squatter.SessionEpoch {
		t.Fatal("the squatter's sessions were not revoked")
	}
}

// An administrator suspended by another stays suspended across restarts,
// and one who changed their password keeps it and their sessions.
func TestBootstrapAdminLeavesAnAdministratorAsItIs(t *testing.T) {
	t.Parallel()
	pool := dbtest.NewPool(t)
	ctx := context.Background()
	q := db.New(pool)
	if err := member.BootstrapAdmin(ctx, pool, "lead@nestegg.test", "bootstrap password"); err != nil {
		t.Fatal(err)
	}
	admin, err := q.GetMemberCredentials(ctx, "lead@nestegg.test")
	if err != nil {
		t.Fatal(err)
	}
	own, err := password.Hash(ctx, "the lead's own password")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, `UPDATE member SET status = 'SUSPENDED', password_hash = $2 WHERE id = $1`, admin.ID, own); err != nil {
		t.Fatal(err)
	}
	if err := member.BootstrapAdmin(ctx, pool, "lead@nestegg.test", "bootstrap password"); err != nil {
		t.Fatal(err)
	}
	m, err := q.GetMemberCredentials(ctx, "lead@nestegg.test")
	if err != nil {
		t.Fatal(err)
	}
	if m.Status != member.StatusSuspended {
		t.Fatalf("status %s after a restart: the suspension was undone", m.Status)
	}
	if ok, _ := password.Verify(ctx, "the lead's own password", m.PasswordHash); !ok || m.SessionEpoch != admin.SessionEpoch {
		t.Fatal("a restart reset the administrator's own password or ended their sessions")
	}
}
