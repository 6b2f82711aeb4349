package invest_test

import (
	"net/http"
	"testing"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	lt "github.com/nestegg/nestegg/internal/apitest/ledgertest"
)

func newStock(t *testing.T, m *apitest.Member, code string, walletID *int64) api.Stock {
	t.Helper()
	var s api.Stock
	m.Do(http.MethodPost, "/api/account/invest/stocks", api.CreateStockJSONRequestBody{Code: code, Name: "Stock " + code, WalletID: walletID}).
		Want(http.StatusCreated).JSON(&s)
	return s
}

func tradeReq(stockID int64, side api.TradeSide, day int, qty, price, fee string) api.TradeRequest {
	r := api.TradeRequest{StockID: stockID, Side: side, Date: lt.Date(2026, 11, day), Quantity: api.DecimalAmount(qty), Price: api.DecimalAmount(price)}
	if fee != "" {
		f := api.DecimalAmount(fee)
		r.Fee = &f
	}
	return r
}

func newTrade(t *testing.T, m *apitest.Member, r api.TradeRequest) api.Trade {
	t.Helper()
	var out api.Trade
	m.Do(http.MethodPost, "/api/account/invest/trades", r).Want(http.StatusCreated).JSON(&out)
	return out
}
