package invest

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"

	"github.com/jackc/pgx/v5"
	"github.com/oapi-codegen/runtime/types"
	"github.com/shopspring/decimal"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/internal/etag"
	"github.com/nestegg/nestegg/internal/idempotency"
	"github.com/nestegg/nestegg/internal/money"
	"github.com/nestegg/nestegg/internal/problem"
)

// Trade sides, as stored.
const (
	SideBuy  = "BUY"
	SideSell = "SELL"
)

// ErrTradeNotFound answers a trade that is not the member's.
var ErrTradeNotFound = problem.NotFound("trade")

// maxDecimal is the largest DECIMAL(18,6) value.
var maxDecimal = decimal.RequireFromString("999999999999.999999")

func errNegativeHolding(code string) error {
	return problem.New(http.StatusBadRequest, problem.CodeNegativeHolding,
		fmt.Sprintf("the holding of %s would go below zero when its trades are replayed in date order", code))
}

// tradeParams checks a trade request.
func tradeParams(memberID int64, in api.TradeRequest) (db.CreateTradeParams, error) {
	p := db.CreateTradeParams{MemberID: memberID, StockID: in.StockID, TradeDate: in.Date.Time}
	switch in.Side {
	case api.TradeSideBuy, api.TradeSideSell:
		p.Side = string(in.Side)
	default:
		return p, problem.Invalid("/side", "must be BUY or SELL")
	}
	if in.Date.Year() < 1900 || in.Date.Year() > 2999 {
		return p, problem.Invalid("/date", "must be a date between 1900 and 2999")
	}
	var err error
	if p.Quantity, err = decimalField("/quantity", string(in.Quantity)); err != nil {
		return p, err
	}
	if !p.Quantity.IsPositive() {
		return p, problem.Invalid("/quantity", "must be more than zero")
	}
	if p.Price, err = decimalField("/price", string(in.Price)); err != nil {
		return p, err
	}
	if in.Fee != nil {
		if p.Fee, err = decimalField("/fee", string(*in.Fee)); err != nil {
			return p, err
		}
	}
	// A trade's value is an amount like any other: within the bound, so the
	// portfolio and net worth it feeds stay representable (DECISIONS 9).
	if p.Quantity.Mul(p.Price).GreaterThan(money.BoundDecimal) {
		return p, problem.Invalid("/price", "quantity × price must be at most 10^15")
	}
	if p.Quantity.Mul(p.Price).Add(p.Fee).GreaterThan(money.BoundDecimal) {
		return p, problem.Invalid("/fee", "quantity × price + fee must be at most 10^15")
	}
	return p, nil
}

// decimalField parses a non-negative decimal that fits DECIMAL(18,6).
func decimalField(field, s string) (decimal.Decimal, error) {
	d, err := decimal.NewFromString(s)
	if err != nil || d.IsNegative() || d.GreaterThan(maxDecimal) || d.Exponent() < -6 {
		return decimal.Decimal{}, problem.Invalid(field, "must be a decimal string from 0 with up to 12 digits and 6 decimals")
	}
	return d, nil
}

// ListTrades answers a page of the member's trades.
func (h *InvestHandler) ListTrades(ctx context.Context, req api.ListTradesRequestObject) (api.ListTradesResponseObject, error) {
	memberID := memberOf(ctx)
	page, size := int32(1), int32(20)
	if req.Params.Page != nil {
		page = *req.Params.Page
	}
	if req.Params.Size != nil {
		size = *req.Params.Size
	}
	q := db.New(h.pool)
	if req.Params.StockID != nil {
		if _, err := getStock(ctx, q, memberID, *req.Params.StockID); err != nil {
			return nil, err
		}
	}
	total, err := q.CountTrades(ctx, db.CountTradesParams{MemberID: memberID, StockID: req.Params.StockID})
	if err != nil {
		return nil, fmt.Errorf("count trades: %w", err)
	}
	rows, err := q.ListTrades(ctx, db.ListTradesParams{MemberID: memberID, StockID: req.Params.StockID, Size: size, Skip: (page - 1) * size})
	if err != nil {
		return nil, fmt.Errorf("list trades: %w", err)
	}
	out := api.ListTrades200JSONResponse{Items: make([]api.Trade, len(rows)), Page: page, Size: size, Total: total}
	for i, t := range rows {
		out.Items[i] = toAPITrade(t)
	}
	return out, nil
}

// CreateTrade records a trade unless it makes the holding negative.
func (h *InvestHandler) CreateTrade(ctx context.Context, req api.CreateTradeRequestObject) (api.CreateTradeResponseObject, error) {
	memberID := memberOf(ctx)
	p, err := tradeParams(memberID, *req.Body)
	if err != nil {
		return nil, err
	}
	out, replayed, err := idempotency.Create(ctx, h.keys, "createTrade", req.Params.IdempotencyKey, req, func(q *db.Queries) (etag.Tagged[api.Trade], error) {
		if err := lockStocks(ctx, q, memberID, p.StockID); err != nil {
			return etag.Tagged[api.Trade]{}, err
		}
		t, err := q.CreateTrade(ctx, p)
		if err != nil {
			return etag.Tagged[api.Trade]{}, fmt.Errorf("create trade: %w", err)
		}
		if err := checkHoldings(ctx, q, memberID, p.StockID); err != nil {
			return etag.Tagged[api.Trade]{}, err
		}
		return etag.Versioned(t.Version, toAPITrade(t)), nil
	})
	if err != nil {
		return nil, err
	}
	return api.CreateTrade201JSONResponse{Body: out.Body, Headers: api.CreateTrade201ResponseHeaders{
		ETag: etag.Ptr(out.ETag), IdempotentReplayed: replayed,
	}}, nil
}

// UpdateTrade replaces a trade's fields unless a holding goes negative, at
// the version If-Match names (none: any).
func (h *InvestHandler) UpdateTrade(ctx context.Context, req api.UpdateTradeRequestObject) (api.UpdateTradeResponseObject, error) {
	memberID := memberOf(ctx)
	match := etag.Parse(req.Params.IfMatch)
	// A missing trade is told before a bad body: an intruder learns nothing
	// from the body.
	p, badBody := tradeParams(memberID, *req.Body)
	t, err := database.InTxV(ctx, h.pool, func(q *db.Queries) (db.InvestTrade, error) {
		var more []int64
		if badBody == nil {
			more = append(more, p.StockID)
		}
		old, err := lockTrade(ctx, q, memberID, req.ID, more...)
		if err != nil {
			return db.InvestTrade{}, err
		}
		// The trade is locked: its version is the one the UPDATE meets.
		if !match.Hits(old.Version) {
			return db.InvestTrade{}, errMissed
		}
		if badBody != nil {
			return db.InvestTrade{}, badBody
		}
		t, err := q.UpdateTrade(ctx, db.UpdateTradeParams{
			MemberID: memberID, ID: req.ID, StockID: p.StockID, Side: p.Side, TradeDate: p.TradeDate,
			Quantity: p.Quantity, Price: p.Price, Fee: p.Fee, IfVersions: match.Versions(),
		})
		if err := database.NoRows(err, errMissed, fmt.Sprintf("update trade %d", req.ID)); err != nil {
			return db.InvestTrade{}, err
		}
		return t, checkHoldings(ctx, q, memberID, old.StockID, p.StockID)
	})
	if errors.Is(err, errMissed) {
		return nil, etag.Missed(match, ErrTradeNotFound, func() (string, bool, error) { return h.currentTradeTag(ctx, memberID, req.ID) })
	}
	if err != nil {
		return nil, err
	}
	out := etag.Versioned(t.Version, toAPITrade(t))
	return api.UpdateTrade200JSONResponse{Body: out.Body, Headers: api.UpdateTrade200ResponseHeaders{ETag: etag.Ptr(out.ETag)}}, nil
}

// DeleteTrade deletes a trade unless a later sell needs it, at the version
// If-Match names (none: any).
func (h *InvestHandler) DeleteTrade(ctx context.Context, req api.DeleteTradeRequestObject) (api.DeleteTradeResponseObject, error) {
	memberID := memberOf(ctx)
	match := etag.Parse(req.Params.IfMatch)
	err := database.InTx(ctx, h.pool, func(q *db.Queries) error {
		old, err := lockTrade(ctx, q, memberID, req.ID)
		if err != nil {
			return err
		}
		n, err := q.DeleteTrade(ctx, db.DeleteTradeParams{MemberID: memberID, ID: req.ID, IfVersions: match.Versions()})
		if err != nil {
			return fmt.Errorf("delete trade %d: %w", req.ID, err)
		}
		if n == 0 {
			return errMissed
		}
		return checkHoldings(ctx, q, memberID, old.StockID)
	})
	if errors.Is(err, errMissed) {
		return nil, etag.Missed(match, ErrTradeNotFound, func() (string, bool, error) { return h.currentTradeTag(ctx, memberID, req.ID) })
	}
	if err != nil {
		return nil, err
	}
	return api.DeleteTrade204Response{}, nil
}

// currentTradeTag is a trade's ETag now, for a 412.
func (h *InvestHandler) currentTradeTag(ctx context.Context, memberID, id int64) (string, bool, error) {
	return h.currentTag(func(q *db.Queries) (int64, error) {
		t, err := q.GetTrade(ctx, db.GetTradeParams{MemberID: memberID, ID: id})
		return t.Version, err
	})
}

// lockTrade locks the stock of a trade (and the stocks in more, a trade's
// new stock), then the trade, and answers the locked trade. database.LockOrder
// puts a stock before its trades, because a stock's deletion locks the stock
// and then, through the cascade, its trades; locking the trade first
// deadlocked UpdateTrade against DeleteStock. The trade is read without a
// lock to learn its stock; if a parallel edit moved it to another stock
// before that stock was locked, the new stock is locked too and the trade
// read again (every edit of a trade holds the lock of its current stock, so
// this settles at once).
func lockTrade(ctx context.Context, q *db.Queries, memberID, id int64, more ...int64) (db.InvestTrade, error) {
	t, err := q.GetTrade(ctx, db.GetTradeParams{MemberID: memberID, ID: id})
	if err := database.NoRows(err, ErrTradeNotFound, fmt.Sprintf("trade %d", id)); err != nil {
		return db.InvestTrade{}, err
	}
	for {
		if err := lockStocks(ctx, q, memberID, append([]int64{t.StockID}, more...)...); err != nil {
			if errors.Is(err, ErrStockNotFound) {
				// The trade's own stock gone means the trade went with it.
				if _, err := q.GetTrade(ctx, db.GetTradeParams{MemberID: memberID, ID: id}); errors.Is(err, pgx.ErrNoRows) {
					return db.InvestTrade{}, ErrTradeNotFound
				}
			}
			return db.InvestTrade{}, err
		}
		locked, err := q.GetTradeForUpdate(ctx, db.GetTradeForUpdateParams{MemberID: memberID, ID: id})
		if err := database.NoRows(err, ErrTradeNotFound, fmt.Sprintf("lock trade %d", id)); err != nil {
			return db.InvestTrade{}, err
		}
		if locked.StockID == t.StockID {
			return locked, nil
		}
		t = locked
	}
}

// lockStocks takes the row locks of the stocks whose trades are about to
// change, so that two edits of one stock replay one after the other: the
// second sees the first's trades. A stock that is not the member's is a 404.
// Stocks come before trades in database.LockOrder, in ascending id.
func lockStocks(ctx context.Context, q *db.Queries, memberID int64, ids ...int64) error {
	slices.Sort(ids)
	ids = slices.Compact(ids)
	locked, err := q.LockStocks(ctx, db.LockStocksParams{MemberID: memberID, Ids: ids})
	if err != nil {
		return fmt.Errorf("lock stocks %v: %w", ids, err)
	}
	if len(locked) != len(ids) {
		return ErrStockNotFound
	}
	return nil
}

// checkHoldings replays the trades of the stocks (their locks held) and
// refuses a state where a holding goes below zero at any point.
func checkHoldings(ctx context.Context, q *db.Queries, memberID int64, stockIDs ...int64) error {
	trades, err := q.ListStockTradesInOrder(ctx, db.ListStockTradesInOrderParams{MemberID: memberID, StockIds: stockIDs})
	if err != nil {
		return fmt.Errorf("replay trades: %w", err)
	}
	held := map[int64]decimal.Decimal{}
	for _, t := range trades {
		if t.Side == SideBuy {
			held[t.StockID] = held[t.StockID].Add(t.Quantity)
			continue
		}
		held[t.StockID] = held[t.StockID].Sub(t.Quantity)
		if held[t.StockID].IsNegative() {
			s, err := q.GetStock(ctx, db.GetStockParams{MemberID: memberID, ID: t.StockID})
			if err != nil {
				return fmt.Errorf("stock %d: %w", t.StockID, err)
			}
			return errNegativeHolding(s.Code)
		}
	}
	return nil
}

func toAPITrade(t db.InvestTrade) api.Trade {
	return api.Trade{
		ID: t.ID, StockID: t.StockID, Side: api.TradeSideValue(t.Side), Date: types.Date{Time: t.TradeDate},
		Quantity: t.Quantity.StringFixed(6), Price: t.Price.StringFixed(6), Fee: t.Fee.StringFixed(6), CreatedAt: t.CreatedAt,
	}
}
