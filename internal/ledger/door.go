package ledger

import (
	"context"

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
	memberID := caller(ctx).MemberID
	return idempotency.Create(ctx, h.keys, op, key, req, func(q *db.Queries) (etag.Tagged[B], error) {
		if err := LockLedgerSharedTx(ctx, q, memberID); err != nil {
			return etag.Tagged[B]{}, err
		}
		return write(q)
	})
}

// errMissed ends a write whose If-Match missed (etag.ErrMissed).
var errMissed = etag.ErrMissed

// missed answers a write of a record no GET answers that found no row to
// change: notFound when the record is not the caller's (or is gone), else
// 412 with its current version (version reads it; pgx.ErrNoRows: gone).
func missed(match etag.Match, notFound error, version func() (int64, error)) error {
	return etag.Missed(match, notFound, func() (string, bool, error) { return etag.CurrentVersion(version()) })
}
