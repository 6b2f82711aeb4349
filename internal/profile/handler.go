// Package profile serves the signed-in member's own account: profile,
// profile image, password and self-deletion.
package profile

import (
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nestegg/nestegg/internal/board"
	"github.com/nestegg/nestegg/internal/session"
	"github.com/nestegg/nestegg/internal/throttle"
)

// ProfileHandler implements the operations on the signed-in member's own account.
type ProfileHandler struct {
	pool     *pgxpool.Pool
	sessions *session.Manager
	throttle *throttle.Throttle
	// images stores profile images as images the service serves, as the
	// board's are: board answers carry their address, not their bytes.
	images *board.ImageStore
}

// NewHandler returns the profile handler.
func NewHandler(pool *pgxpool.Pool, sessions *session.Manager, t *throttle.Throttle, images *board.ImageStore) *ProfileHandler {
	return &ProfileHandler{pool: pool, sessions: sessions, throttle: t, images: images}
}
