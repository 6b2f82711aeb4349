package admin

import (
	"context"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/settings"
)

// GetAdminSignupEnabled answers whether sign-up is open.
func (h *AdminHandler) GetAdminSignupEnabled(ctx context.Context, _ api.GetAdminSignupEnabledRequestObject) (api.GetAdminSignupEnabledResponseObject, error) {
	enabled, err := settings.SignupEnabled(ctx, db.New(h.pool))
	if err != nil {
		return nil, err
	}
	return api.GetAdminSignupEnabled200JSONResponse{Enabled: enabled}, nil
}

// SetAdminSignupEnabled opens or closes sign-up.
func (h *AdminHandler) SetAdminSignupEnabled(ctx context.Context, req api.SetAdminSignupEnabledRequestObject) (api.SetAdminSignupEnabledResponseObject, error) {
	if err := settings.SetSignupEnabled(ctx, db.New(h.pool), req.Body.Enabled); err != nil {
		return nil, err
	}
	return api.SetAdminSignupEnabled200JSONResponse{Enabled: req.Body.Enabled}, nil
}
