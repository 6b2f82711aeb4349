// Package auth serves sign-up, sign-in, sessions and the signed-in member's
// own account.
package auth

import (
	"context"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/settings"
)

// Handler implements the auth operations of the contract.
type Handler struct {
	pool *pgxpool.Pool
}

// NewHandler returns the auth handler.
func NewHandler(pool *pgxpool.Pool) *Handler {
	return &Handler{pool: pool}
}

// GetSignupEnabled answers whether sign-up is open.
func (h *Handler) GetSignupEnabled(ctx context.Context, _ api.GetSignupEnabledRequestObject) (api.GetSignupEnabledResponseObject, error) {
	enabled, err := settings.SignupEnabled(ctx, db.New(h.pool))
	if err != nil {
		return nil, err
	}
	return api.GetSignupEnabled200JSONResponse{Enabled: enabled}, nil
}
