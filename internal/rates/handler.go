package rates

import (
	"context"

	openapi_types "github.com/oapi-codegen/runtime/types"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/session"
)

// FXHandler implements the exchange rate operation of the contract.
type FXHandler struct {
	rates *Cache
}

// NewHandler returns the FX handler.
func NewHandler(rates *Cache) *FXHandler { return &FXHandler{rates: rates} }

// GetFXRate answers today's rate of a pair.
func (h *FXHandler) GetFXRate(ctx context.Context, req api.GetFXRateRequestObject) (api.GetFXRateResponseObject, error) {
	rate, err := h.rates.Today(ctx, session.PrincipalFrom(ctx).MemberID, req.Params.From, req.Params.To)
	if err != nil {
		return nil, err
	}
	return api.GetFXRate200JSONResponse{
		From: rate.From, To: rate.To, Rate: rate.Rate.String(),
		Date: openapi_types.Date{Time: rate.Day},
	}, nil
}
