package board

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/etag"
	"github.com/nestegg/nestegg/internal/idempotency"
	"github.com/nestegg/nestegg/internal/session"
)

// createOnce runs a create (write) once under the Idempotency-Key its
// request carries (key, of operation op asking req: what the request asks,
// fingerprinted), in one transaction that stores the answer
// (idempotency.Once). It answers the created record (with its ETag, when it
// has one), and the Idempotent-Replayed header of a replayed answer.
func createOnce[B any](ctx context.Context, h *BoardHandler, op string, key *string, req any,
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

// postFailed is the 412 of a write of post p (locked, in the write's
// transaction, which then rolls back) whose If-Match names another
// version: with the ETag a GET of the post answers the viewer now.
func postFailed(ctx context.Context, q *db.Queries, v viewer, p db.Post, now time.Time) error {
	body, err := GetPost(ctx, q, v, p.ID, now)
	if err != nil {
		return err
	}
	tag, err := etag.Of(p.Version, body)
	if err != nil {
		return err
	}
	return etag.Failed(tag)
}
