package invest

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/internal/etag"
	"github.com/nestegg/nestegg/internal/idempotency"
	"github.com/nestegg/nestegg/internal/ledger"
	"github.com/nestegg/nestegg/internal/problem"
)

// ErrStockNotFound answers a stock that is not the member's.
var ErrStockNotFound = problem.NotFound("stock")

var errWalletNotFound = problem.NotFound("wallet")

var (
	codePattern     = regexp.MustCompile(`^[A-Za-z0-9.-]{1,20}$`)
	currencyPattern = regexp.MustCompile(`^[A-Z]{3}$`)
)

// stockParams checks a stock request. The wallet is checked in the
// transaction (ownership first, so another member's wallet is a 404).
func stockParams(memberID int64, in api.StockRequest) (db.CreateStockParams, error) {
	p := db.CreateStockParams{MemberID: memberID, Currency: "KRW", WalletID: in.WalletID}
	code := strings.TrimSpace(in.Code)
	if !codePattern.MatchString(code) {
		return p, problem.Invalid("/code", "must be 1 to 20 letters, digits, '.' or '-'")
	}
	p.Code = strings.ToUpper(code)
	var err error
	if p.Name, err = cleanLine("/name", in.Name, 100); err != nil {
		return p, err
	}
	if in.Market != nil {
		m, err := cleanLine("/market", *in.Market, 30)
		if err != nil {
			return p, err
		}
		p.Market = &m
	}
	if in.Currency != nil {
		if !currencyPattern.MatchString(*in.Currency) {
			return p, problem.Invalid("/currency", "must be a three-letter upper-case currency code")
		}
		p.Currency = *in.Currency
	}
	return p, nil
}

// checkWallet makes sure a stock's wallet is one of the member's INVEST
// wallets.
func checkWallet(ctx context.Context, q *db.Queries, memberID int64, id *int64) error {
	if id == nil {
		return nil
	}
	w, err := ledger.GetWalletTx(ctx, q, db.GetWalletParams{MemberID: memberID, ID: *id})
	if err := database.NoRows(err, errWalletNotFound, fmt.Sprintf("wallet %d", *id)); err != nil {
		return err
	}
	if w.Type != "INVEST" {
		return problem.Invalid("/walletId", "must be an INVEST wallet")
	}
	return nil
}

// ListStocks answers the member's stocks.
func (h *InvestHandler) ListStocks(ctx context.Context, _ api.ListStocksRequestObject) (api.ListStocksResponseObject, error) {
	memberID := memberOf(ctx)
	rows, err := db.New(h.pool).ListStocks(ctx, memberID)
	if err != nil {
		return nil, fmt.Errorf("list stocks of member %d: %w", memberID, err)
	}
	out := api.ListStocks200JSONResponse{Items: make([]api.Stock, len(rows))}
	for i, s := range rows {
		out.Items[i] = toAPIStock(s)
	}
	return out, nil
}

// CreateStock adds a stock.
func (h *InvestHandler) CreateStock(ctx context.Context, req api.CreateStockRequestObject) (api.CreateStockResponseObject, error) {
	memberID := memberOf(ctx)
	p, err := stockParams(memberID, *req.Body)
	if err != nil {
		return nil, err
	}
	out, replayed, err := idempotency.Create(ctx, h.keys, "createStock", req.Params.IdempotencyKey, req, func(q *db.Queries) (etag.Tagged[api.Stock], error) {
		if err := checkWallet(ctx, q, memberID, p.WalletID); err != nil {
			return etag.Tagged[api.Stock]{}, err
		}
		s, err := q.CreateStock(ctx, p)
		if err != nil {
			return etag.Tagged[api.Stock]{}, walletGone(err, "create stock")
		}
		return etag.Versioned(s.Version, toAPIStock(s)), nil
	})
	if err != nil {
		return nil, err
	}
	return api.CreateStock201JSONResponse{Body: out.Body, Headers: api.CreateStock201ResponseHeaders{
		ETag: etag.Ptr(out.ETag), IdempotentReplayed: replayed,
	}}, nil
}

// UpdateStock replaces a stock's fields, at the version If-Match names
// (none: any).
func (h *InvestHandler) UpdateStock(ctx context.Context, req api.UpdateStockRequestObject) (api.UpdateStockResponseObject, error) {
	memberID := memberOf(ctx)
	match := etag.Parse(req.Params.IfMatch)
	s, err := database.InTxV(ctx, h.pool, func(q *db.Queries) (db.Stock, error) {
		// The stock first: an intruder learns nothing from the body.
		if _, err := getStock(ctx, q, memberID, req.ID); err != nil {
			return db.Stock{}, err
		}
		p, err := stockParams(memberID, *req.Body)
		if err != nil {
			return db.Stock{}, err
		}
		if err := checkWallet(ctx, q, memberID, p.WalletID); err != nil {
			return db.Stock{}, err
		}
		s, err := q.UpdateStock(ctx, db.UpdateStockParams{
			MemberID: memberID, ID: req.ID, Code: p.Code, Name: p.Name, Market: p.Market, Currency: p.Currency, WalletID: p.WalletID,
			IfVersions: match.Versions(),
		})
		if err := database.NoRows(err, errMissed, fmt.Sprintf("update stock %d", req.ID)); err != nil {
			return db.Stock{}, walletGone(err, "update stock")
		}
		return s, nil
	})
	if errors.Is(err, errMissed) {
		return nil, etag.Missed(match, ErrStockNotFound, func() (string, bool, error) { return h.currentStockTag(ctx, memberID, req.ID) })
	}
	if err != nil {
		return nil, err
	}
	out := etag.Versioned(s.Version, toAPIStock(s))
	return api.UpdateStock200JSONResponse{Body: out.Body, Headers: api.UpdateStock200ResponseHeaders{ETag: etag.Ptr(out.ETag)}}, nil
}

// DeleteStock deletes a stock and its trades, at the version If-Match names
// (none: any): one statement that locks the stock, then its trades (the
// cascade), the order of database.LockOrder that trade edits follow too.
func (h *InvestHandler) DeleteStock(ctx context.Context, req api.DeleteStockRequestObject) (api.DeleteStockResponseObject, error) {
	memberID := memberOf(ctx)
	match := etag.Parse(req.Params.IfMatch)
	n, err := database.InTxV(ctx, h.pool, func(q *db.Queries) (int64, error) {
		return q.DeleteStock(ctx, db.DeleteStockParams{MemberID: memberID, ID: req.ID, IfVersions: match.Versions()})
	})
	if err != nil {
		return nil, fmt.Errorf("delete stock %d: %w", req.ID, err)
	}
	if n == 0 {
		return nil, etag.Missed(match, ErrStockNotFound, func() (string, bool, error) { return h.currentStockTag(ctx, memberID, req.ID) })
	}
	return api.DeleteStock204Response{}, nil
}

// currentStockTag is a stock's ETag now, for a 412.
func (h *InvestHandler) currentStockTag(ctx context.Context, memberID, id int64) (string, bool, error) {
	return h.currentTag(func(q *db.Queries) (int64, error) {
		s, err := q.GetStock(ctx, db.GetStockParams{MemberID: memberID, ID: id})
		return s.Version, err
	})
}

func getStock(ctx context.Context, q *db.Queries, memberID, id int64) (db.Stock, error) {
	s, err := q.GetStock(ctx, db.GetStockParams{MemberID: memberID, ID: id})
	return s, database.NoRows(err, ErrStockNotFound, fmt.Sprintf("stock %d", id))
}

// walletGone maps the foreign key violation of a wallet deleted between the
// check and the write to the 404 the check would have answered.
func walletGone(err error, doing string) error {
	if err == nil {
		return nil
	}
	if database.IsForeignKeyViolation(err) {
		return errWalletNotFound
	}
	if _, ok := problem.As(err); ok {
		return err
	}
	return fmt.Errorf("%s: %w", doing, err)
}

func toAPIStock(s db.Stock) api.Stock {
	return api.Stock{ID: s.ID, Code: s.Code, Name: s.Name, Market: s.Market, Currency: s.Currency, WalletID: s.WalletID, CreatedAt: s.CreatedAt}
}
