// Package account serves the signed-in member's own account: profile,
// profile image, password, points and self-deletion.
package account

import (
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nestegg/nestegg/internal/clock"
	"github.com/nestegg/nestegg/internal/session"
	"github.com/nestegg/nestegg/internal/throttle"
)

// AccountHandler implements the account operations of the contract.
type AccountHandler struct {
	pool     *pgxpool.Pool
	sessions *session.Manager
	clock    clock.Clock
	throttle *throttle.Throttle
}

// NewHandler returns the account handler.
func NewHandler(pool *pgxpool.Pool, sessions *session.Manager, c clock.Clock, t *throttle.Throttle) *AccountHandler {
	return &AccountHandler{pool: pool, sessions: sessions, clock: c, throttle: t}
}
