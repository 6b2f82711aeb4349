package invest

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/calendar"
	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/internal/external/quote"
	"github.com/nestegg/nestegg/internal/problem"
)

// MaxConcurrentQuotes bounds the calls to the provider one refresh makes at
// once.
const MaxConcurrentQuotes = 4

// refreshDeadline bounds a whole refresh: codes not answered by then fail.
const refreshDeadline = 10 * time.Second

// errQuotesNotConfigured: no retry helps, so no Retry-After (issue 43).
var errQuotesNotConfigured = problem.Unavailable(problem.CodeQuotesNotConfigured,
	"stock quotes are not configured on this service (QUOTE_API_URL)", nil)

// RefreshQuotes asks the provider for each of the member's codes, then
// stores the answers; the provider is never called inside a transaction.
func (h *InvestHandler) RefreshQuotes(ctx context.Context, _ api.RefreshQuotesRequestObject) (api.RefreshQuotesResponseObject, error) {
	memberID := memberOf(ctx)
	codes, err := db.New(h.pool).ListStockCodes(ctx, memberID)
	if err != nil {
		return nil, fmt.Errorf("stock codes of member %d: %w", memberID, err)
	}
	if len(codes) == 0 {
		return api.RefreshQuotes200JSONResponse{Refreshed: []api.StockQuote{}, Failed: []string{}}, nil
	}
	if !h.quotes.Configured() {
		return nil, errQuotesNotConfigured
	}
	got, failed := h.fetchQuotes(ctx, codes)
	if len(got) > 0 {
		err := database.InTx(ctx, h.pool, func(q *db.Queries) error {
			for _, g := range got {
				err := q.UpsertStockQuote(ctx, db.UpsertStockQuoteParams{
					Code: g.Code, QuoteDay: calendar.Day(g.Time, h.loc), Price: g.Price, Currency: g.Currency, QuotedAt: g.Time,
				})
				if err != nil {
					return fmt.Errorf("store quote of %s: %w", g.Code, err)
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	out := api.QuoteRefresh{Refreshed: make([]api.StockQuote, len(got)), Failed: failed}
	for i, g := range got {
		out.Refreshed[i] = api.StockQuote{Code: g.Code, Price: g.Price.String(), Currency: g.Currency, Time: g.Time.UTC()}
	}
	return api.RefreshQuotes200JSONResponse(out), nil
}

// fetchQuotes calls the provider once per code, at most MaxConcurrentQuotes
// at once, and answers the quotes in the order of codes and the codes that
// failed.
func (h *InvestHandler) fetchQuotes(ctx context.Context, codes []string) ([]quote.Quote, []string) {
	ctx, cancel := context.WithTimeout(ctx, refreshDeadline)
	defer cancel()
	results := make([]quote.Quote, len(codes))
	errs := make([]error, len(codes))
	slots := make(chan struct{}, MaxConcurrentQuotes)
	var wg sync.WaitGroup
	for i, code := range codes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			select {
			case slots <- struct{}{}:
			case <-ctx.Done():
				errs[i] = ctx.Err()
				return
			}
			defer func() { <-slots }()
			results[i], errs[i] = h.quotes.Get(ctx, code)
		}()
	}
	wg.Wait()
	var got []quote.Quote
	failed := []string{}
	for i, code := range codes {
		if errs[i] != nil {
			if !errors.Is(errs[i], quote.ErrUnknownCode) {
				slog.WarnContext(ctx, "stock quote failed", "code", code, "error", errs[i])
			}
			failed = append(failed, code)
			continue
		}
		got = append(got, results[i])
	}
	return got, failed
}
