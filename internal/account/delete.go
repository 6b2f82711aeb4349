package account

import (
	"context"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/internal/member"
	"github.com/nestegg/nestegg/internal/session"
)

// DeleteMe deletes the member and everything that is theirs, and signs them
// out everywhere.
func (h *AccountHandler) DeleteMe(ctx context.Context, _ api.DeleteMeRequestObject) (api.DeleteMeResponseObject, error) {
	id := session.PrincipalFrom(ctx).MemberID
	// Sessions first: EndMemberSessions finds the Redis copies through the
	// member's auth_session rows, which the deletion's cascade would remove
	// without telling Redis. A session started in between loses its
	// auth_session row to the cascade, and its Redis copy ends on its next
	// request because the member is gone.
	if err := h.sessions.EndMemberSessions(ctx, id, ""); err != nil {
		return nil, err
	}
	err := database.InTx(ctx, h.pool, func(q *db.Queries) error {
		return member.Delete(ctx, q, id)
	})
	if err != nil {
		return nil, err
	}
	// Ends this request's session too, so a cookie client's cookie is cleared.
	if err := h.sessions.End(ctx); err != nil {
		return nil, err
	}
	return api.DeleteMe204Response{}, nil
}
