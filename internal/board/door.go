package board

import (
	"context"
	"time"

	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/etag"
)

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
