// Package heavy admits the operations whose work grows with a member's data
// (backup, restore, CSV import and export, account deletion: the contract
// marks them `x-heavy: true`) one at a time per member, and at most a few at
// once per replica (DECISIONS section 10).
//
// A member's second heavy request answers 429 BUSY with Retry-After while the
// first runs. The member's turn is a lease row in PostgreSQL (heavy_work), so
// it holds across replicas; it is given back when the request ends, and ends
// by itself at the request's deadline if its replica dies. Past the
// replica's cap (HEAVY_PER_REPLICA) a heavy request answers 503 with
// Retry-After: the cap bounds one process's memory and CPU, which is a
// replica's own business, so it is counted in memory.
package heavy

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/problem"
)

// CodeBusy answers a member's heavy request while another of theirs runs.
const CodeBusy = "BUSY"

// replicaRetryAfter is what a heavy request turned away by the replica's cap
// is told to wait: heavy work takes seconds.
const replicaRetryAfter = "10"

// Gate admits heavy requests.
type Gate struct {
	pool  *pgxpool.Pool
	slots chan struct{}
}

// NewGate admits at most perReplica heavy requests at once in this process.
func NewGate(pool *pgxpool.Pool, perReplica int) *Gate {
	return &Gate{pool: pool, slots: make(chan struct{}, perReplica)}
}

// Admit takes one of the replica's slots and the member's lease for
// operation, for at most lease; release gives both back. It answers a
// problem when either is taken.
func (g *Gate) Admit(ctx context.Context, memberID int64, operation string, lease time.Duration) (release func(), err error) {
	freeSlot := g.admitSlot()
	if freeSlot == nil {
		return nil, &problem.Error{
			Status: http.StatusServiceUnavailable, Code: problem.CodeServiceUnavailable,
			Detail:  "this server is running as much heavy work (backups, restores, imports, exports, deletions) as it takes at once; try again shortly",
			Headers: map[string]string{"Retry-After": replicaRetryAfter},
		}
	}
	token := make([]byte, 16)
	_, _ = rand.Read(token)
	q := db.New(g.pool)
	_, err = q.TakeHeavyWork(ctx, db.TakeHeavyWorkParams{
		MemberID: memberID, Operation: operation, Token: token, LeaseSeconds: lease.Seconds(),
	})
	if errors.Is(err, pgx.ErrNoRows) {
		freeSlot()
		return nil, busy(ctx, q, memberID)
	}
	if err != nil {
		freeSlot()
		return nil, fmt.Errorf("take heavy work lease of member %d: %w", memberID, err)
	}
	return func() {
		// Given back even when the request's own context has ended (a
		// deadline, a client that hung up): the lease would else hold the
		// member's next heavy request off until it expires.
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		_ = q.GiveBackHeavyWork(ctx, db.GiveBackHeavyWorkParams{MemberID: memberID, Token: token})
		freeSlot()
	}, nil
}

// admitSlot takes one of the replica's slots, counted as running for the
// process's pacers, and answers what gives it back (nil: none was free).
func (g *Gate) admitSlot() (free func()) {
	select {
	case g.slots <- struct{}{}:
	default:
		return nil
	}
	running.Add(1)
	return func() { running.Add(-1); <-g.slots }
}

func busy(ctx context.Context, q *db.Queries, memberID int64) error {
	retry, what := 5, "heavy work"
	if row, err := q.HeavyWorkEndsIn(ctx, memberID); err == nil {
		retry, what = int(row.Seconds), row.Operation
	}
	return &problem.Error{
		Status: http.StatusTooManyRequests, Code: CodeBusy,
		Detail:  fmt.Sprintf("another heavy request of this account (%s) is still running; one runs at a time", what),
		Headers: map[string]string{"Retry-After": strconv.Itoa(retry)},
	}
}
