package ledger

import (
	"context"
	"errors"
	"fmt"

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
	memberID := caller(ctx).MemberID
	return once(ctx, h, op, key, req, func(q *db.Queries) (etag.Tagged[B], error) {
		if err := LockLedgerSharedTx(ctx, q, memberID); err != nil {
			return etag.Tagged[B]{}, err
		}
		return write(q)
	})
}

// once is createOnce for a write whose first statement takes the ledger
// lock itself (an entry's create: CreateEntryChecked).
func once[B any](ctx context.Context, h *LedgerHandler, op string, key *string, req any,
	write func(q *db.Queries) (etag.Tagged[B], error)) (etag.Tagged[B], *string, error) {
	k, err := idempotency.KeyFor(caller(ctx), key, op, req)
	if err != nil {
		return etag.Tagged[B]{}, nil, err
	}
	out, replayed, err := idempotency.Once(ctx, h.keys, k, func(tx pgx.Tx) (etag.Tagged[B], error) {
		return write(db.New(tx))
	})
	return out, idempotency.Replayed(replayed), err
}

// errMissed ends a write whose If-Match names a version the record no
// longer has: its transaction rolls back, and the handler answers 412 with
// the record's current ETag (etag.Failed), read after the rollback.
var errMissed = errors.New("If-Match names another version")

// missed answers a write of a record no GET answers that found no row to
// change: notFound when the record is not the caller's (or is gone), else
// 412 with its current version (version reads it; pgx.ErrNoRows: gone).
func missed(match etag.Match, notFound error, version func() (int64, error)) error {
	return etag.Missed(match, notFound, func() (string, bool, error) {
		v, err := version()
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			return "", false, nil
		case err != nil:
			return "", false, fmt.Errorf("current version: %w", err)
		}
		return etag.Version(v), true, nil
	})
}
