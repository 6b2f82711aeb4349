package ledger

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/etag"
	"github.com/nestegg/nestegg/internal/idempotency"
)

// UseKeys sets the store of Idempotency-Keys the creates answer retries
// from.
func (h *LedgerHandler) UseKeys(keys *idempotency.Store) { h.keys = keys }

// createOnce runs a ledger create (write) once under the Idempotency-Key
// its request carries (key, of operation op asking req): in one
// transaction that holds the member's ledger lock in shared mode from its
// first statement (locks.go), the answer stored in it. It answers the
// created record with its ETag, and the Idempotent-Replayed header of a
// replayed answer (no write of this request was kept then).
func createOnce[B any](ctx context.Context, h *LedgerHandler, op string, key *string, req any,
	write func(q *db.Queries) (etag.Tagged[B], error)) (etag.Tagged[B], *string, error) {
	p := caller(ctx)
	k, err := idempotency.KeyFor(p, key, op, req)
	if err != nil {
		return etag.Tagged[B]{}, nil, err
	}
	out, replayed, err := idempotency.Once(ctx, h.keys, k, func(tx pgx.Tx) (etag.Tagged[B], error) {
		q := db.New(tx)
		if err := LockLedgerSharedTx(ctx, q, p.MemberID); err != nil {
			return etag.Tagged[B]{}, err
		}
		return write(q)
	})
	return out, idempotency.Replayed(replayed), err
}

// errMissed ends a write whose If-Match names a version the record no
// longer has: its transaction rolls back, and the handler answers 412 with
// the record's current ETag (etag.Failed), read after the rollback.
var errMissed = errors.New("If-Match names another version")
