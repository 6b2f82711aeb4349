package session

import (
	"context"

	"github.com/nestegg/nestegg/generated/db"
)

// EndMemberSessionsTx deletes auth_session rows of a member (all, or all but one) and answers their token hashes, so their Redis entries can go too.
func EndMemberSessionsTx(ctx context.Context, q *db.Queries, arg db.DeleteMemberAuthSessionsParams) ([]string, error) {
	return q.DeleteMemberAuthSessions(ctx, arg)
}
