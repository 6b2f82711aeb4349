package billing

import (
	"context"
	"slices"
	"strings"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/config"
	"github.com/nestegg/nestegg/internal/problem"
)

// ListProducts answers the subscription products, monthly first.
func (h *BillingHandler) ListProducts(_ context.Context, _ api.ListProductsRequestObject) (api.ListProductsResponseObject, error) {
	items := make([]api.Product, len(h.products))
	for i, p := range h.products {
		items[i] = api.Product{ProductID: p.ID, Price: p.Price, Currency: h.currency, Period: p.Period.String()}
	}
	return api.ListProducts200JSONResponse{Items: items}, nil
}

// product returns the product with id, or a 400 naming the field.
func (h *BillingHandler) product(field, id string) (config.Product, error) {
	i := slices.IndexFunc(h.products, func(p config.Product) bool { return p.ID == id })
	if i < 0 {
		ids := make([]string, len(h.products))
		for j, p := range h.products {
			ids[j] = p.ID
		}
		return config.Product{}, problem.Invalid(field, "must be one of the products: "+strings.Join(ids, ", "))
	}
	return h.products[i], nil
}
