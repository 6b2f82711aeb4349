package budget

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/etag"
	"github.com/nestegg/nestegg/internal/idempotency"
	"github.com/nestegg/nestegg/internal/session"
)

// createOnce runs a create (write) once under the Idempotency-Key its
// request carries (key, of operation op asking req), in one transaction
// that stores the answer (idempotency.Once). It answers the created record
// with its ETag, and the Idempotent-Replayed header of a replayed answer.
func createOnce[B any](ctx context.Context, h *BudgetHandler, op string, key *string, req any,
	write func(q *db.Queries) (etag.Tagged[B], error)) (etag.Tagged[B], *string, error) {
	k, err := idempotency.KeyFor(session.PrincipalFrom(ctx), key, op, req)
	if err != nil {
		return etag.Tagged[B]{}, nil, err
	}
	out, replayed, err := idempotency.Once(ctx, h.keys, k, func(tx pgx.Tx) (etag.Tagged[B], error) {
		return write(db.New(tx))
	})
	return out, idempotency.Replayed(replayed), err
}

// errMissed ends a write whose If-Match names a version the record no
// longer has (or a record gone): its transaction rolls back, and the
// handler answers 412 with the record's current ETag, or 404 (etag.Missed).
var errMissed = errors.New("If-Match names another version")

// currentTag is the ETag of a record no GET answers, its version read now
// with read (for a 412): found false when it is not there.
func (h *BudgetHandler) currentTag(ctx context.Context, read func(q *db.Queries) (int64, error)) (string, bool, error) {
	v, err := read(db.New(h.pool))
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return "", false, nil
	case err != nil:
		return "", false, fmt.Errorf("read version: %w", err)
	}
	return etag.Version(v), true, nil
}
