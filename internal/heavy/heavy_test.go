package heavy_test

import (
	"context"
	"net/http"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/dbtest"
	"github.com/nestegg/nestegg/internal/heavy"
	"github.com/nestegg/nestegg/internal/problem"
)

func wantProblem(t *testing.T, err error, status int, code string) {
	t.Helper()
	pe, ok := problem.As(err)
	if !ok || pe.Status != status || pe.Code != code {
		t.Fatalf("got %v, want %d %s", err, status, code)
	}
	if ra, _ := strconv.Atoi(pe.Headers["Retry-After"]); ra < 1 {
		t.Fatalf("%d %s without a Retry-After: %v", status, code, pe.Headers)
	}
}

// One heavy request per member at a time, whatever replica runs it (two
// gates on one database stand for two replicas); given back, the next is
// admitted; a lease whose replica died ends at its deadline.
func TestOneHeavyRequestPerMemberAcrossReplicas(t *testing.T) {
	t.Parallel()
	pool := dbtest.NewPool(t)
	ctx := context.Background()
	a, b := heavy.NewGate(pool, 4), heavy.NewGate(pool, 4)
	release, err := a.Admit(ctx, 7, "getBackup", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	_, err = b.Admit(ctx, 7, "restoreBackup", time.Minute)
	wantProblem(t, err, http.StatusTooManyRequests, heavy.CodeBusy)
	if pe, _ := problem.As(err); func() bool { ra, _ := strconv.Atoi(pe.Headers["Retry-After"]); return ra < 1 || ra > 60 }() {
		t.Fatalf("Retry-After %q: not the running lease's time left", pe.Headers["Retry-After"])
	}
	other, err := b.Admit(ctx, 8, "getBackup", time.Minute)
	if err != nil {
		t.Fatalf("another member was turned away: %v", err)
	}
	other()
	release()
	again, err := b.Admit(ctx, 7, "restoreBackup", 50*time.Millisecond)
	if err != nil {
		t.Fatalf("the member's next heavy request after the first ended: %v", err)
	}
	// Not given back (its replica died): it ends at its lease's end.
	_ = again
	dbtest.Eventually(t, "the dead replica's lease to end", func() bool {
		r, err := a.Admit(ctx, 7, "getBackup", time.Minute)
		if err != nil {
			return false
		}
		r()
		return true
	})
}

// Parallel heavy requests of one member: exactly one is admitted.
func TestParallelHeavyRequestsOfOneMemberAdmitOne(t *testing.T) {
	t.Parallel()
	pool := dbtest.NewPool(t)
	gates := []*heavy.Gate{heavy.NewGate(pool, 8), heavy.NewGate(pool, 8)}
	for round := range 10 {
		var admitted, busy atomic.Int32
		releases := make(chan func(), 16)
		apitest.Together(16, func(i int) {
			release, err := gates[i%2].Admit(context.Background(), int64(100+round), "importEntries", time.Minute)
			if err == nil {
				admitted.Add(1)
				releases <- release
				return
			}
			if pe, ok := problem.As(err); ok && pe.Code == heavy.CodeBusy {
				busy.Add(1)
				return
			}
			t.Errorf("round %d: %v", round, err)
		})
		if admitted.Load() != 1 || busy.Load() != 15 {
			t.Fatalf("round %d: %d admitted, %d busy", round, admitted.Load(), busy.Load())
		}
		(<-releases)()
	}
}

// A replica runs at most its cap of heavy requests at once: past it, 503
// with Retry-After; a slot given back admits the next.
func TestReplicaCapOfHeavyWork(t *testing.T) {
	t.Parallel()
	pool := dbtest.NewPool(t)
	g := heavy.NewGate(pool, 2)
	ctx := context.Background()
	r1, err := g.Admit(ctx, 1, "getBackup", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	r2, err := g.Admit(ctx, 2, "getBackup", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	_, err = g.Admit(ctx, 3, "getBackup", time.Minute)
	wantProblem(t, err, http.StatusServiceUnavailable, problem.CodeServiceUnavailable)
	r1()
	r3, err := g.Admit(ctx, 3, "getBackup", time.Minute)
	if err != nil {
		t.Fatalf("after a slot was given back: %v", err)
	}
	r2()
	r3()
}

// Through the API: while another replica runs the member's heavy request
// (its lease row), the member's backup, restore, CSV export and import and
// account deletion answer 429 BUSY with Retry-After, as the contract says;
// other operations and other members are not held up; once it ends, the
// backup answers.
func TestHeavyOperationsAnswerBusyWhileOneRuns(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	other := env.NewMember(apitest.AsPremium())
	env.Exec(`INSERT INTO heavy_work (member_id, operation, token, started_at, until)
		VALUES ($1, 'restoreBackup', '\x01', now(), now() + interval '40 seconds')`, m.ID)
	for _, req := range []struct{ method, path string }{
		{http.MethodGet, "/api/account/backup"},
		{http.MethodGet, "/api/account/entries/export"},
		{http.MethodDelete, "/api/auth/me"},
	} {
		res := m.Raw().Do(req.method, req.path, nil)
		res.WantProblem(http.StatusTooManyRequests, heavy.CodeBusy)
		if ra, _ := strconv.Atoi(res.Header.Get("Retry-After")); ra < 1 || ra > 40 {
			t.Fatalf("%s %s: Retry-After %q, want the running request's time left", req.method, req.path, res.Header.Get("Retry-After"))
		}
	}
	m.Do(http.MethodGet, "/api/account/wallets", nil).Want(http.StatusOK)
	other.Do(http.MethodGet, "/api/account/backup", nil).Want(http.StatusOK)
	env.Exec(`DELETE FROM heavy_work WHERE member_id = $1`, m.ID)
	m.Do(http.MethodGet, "/api/account/backup", nil).Want(http.StatusOK)
	// Given back when it ends: the next heavy request is admitted at once.
	m.Do(http.MethodGet, "/api/account/backup", nil).Want(http.StatusOK)
}
