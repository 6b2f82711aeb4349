package budget

import (
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/etag"
)

// errMissed ends a write whose If-Match missed (etag.ErrMissed).
var errMissed = etag.ErrMissed

// currentTag is the ETag of a record no GET answers, its version read now
// with read (for a 412): found false when it is not there.
func (h *BudgetHandler) currentTag(read func(q *db.Queries) (int64, error)) (string, bool, error) {
	return etag.CurrentVersion(read(db.New(h.pool)))
}
