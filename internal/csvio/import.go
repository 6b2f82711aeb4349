package csvio

import (
	"context"
	"net/http"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/problem"
)

// ImportEntries creates entries from a CSV file.
func (h *CSVHandler) ImportEntries(ctx context.Context, req api.ImportEntriesRequestObject) (api.ImportEntriesResponseObject, error) {
	return nil, problem.New(http.StatusServiceUnavailable, problem.CodeServiceUnavailable, "not yet")
}
