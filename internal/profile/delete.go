package profile

import (
	"context"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/book"
	"github.com/nestegg/nestegg/internal/session"
)

// DeleteMe deletes the member and everything that is theirs, and signs them
// out everywhere.
func (h *ProfileHandler) DeleteMe(ctx context.Context, _ api.DeleteMeRequestObject) (api.DeleteMeResponseObject, error) {
	id := session.PrincipalFrom(ctx).MemberID
	if err := book.DeleteAccount(ctx, h.pool, h.sessions, id); err != nil {
		return nil, err
	}
	// Ends this request's session too, so a cookie client's cookie is cleared.
	if err := h.sessions.End(ctx); err != nil {
		return nil, err
	}
	return api.DeleteMe204Response{}, nil
}
