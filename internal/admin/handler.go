// Package admin serves the administration of members, users and service
// settings.
package admin

import (
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nestegg/nestegg/internal/session"
)

// AdminHandler implements the administration operations of the contract.
type AdminHandler struct {
	pool     *pgxpool.Pool
	sessions *session.Manager
}

// NewHandler returns the administration handler.
func NewHandler(pool *pgxpool.Pool, sessions *session.Manager) *AdminHandler {
	return &AdminHandler{pool: pool, sessions: sessions}
}
