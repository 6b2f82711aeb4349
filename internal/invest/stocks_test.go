package invest_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	lt "github.com/nestegg/nestegg/internal/apitest/ledgertest"
)

func TestStockCRUDWithAnInvestWallet(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	broker := lt.Wallet(m.Client, "Broker", api.WalletTypeInvest, 0)
	bank := lt.Wallet(m.Client, "Bank", api.WalletTypeBank, 0)

	s := newStock(t, m, "005930", &broker.ID)
	if s.Currency != "KRW" || s.WalletID == nil || *s.WalletID != broker.ID || s.Market != nil {
		t.Fatalf("stock %+v", s)
	}
	m.Do(http.MethodPost, "/api/account/invest/stocks", api.StockRequest{Code: "AAPL", Name: "Apple", WalletID: &bank.ID}).
		WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")

	market, usd := "NASDAQ", "USD"
	var up api.Stock
	m.Do(http.MethodPut, fmt.Sprintf("/api/account/invest/stocks/%d", s.ID), api.StockRequest{Code: "aapl", Name: "Apple", Market: &market, Currency: &usd}).
		Want(http.StatusOK).JSON(&up)
	if up.Code != "AAPL" || up.WalletID != nil || *up.Market != "NASDAQ" || up.Currency != "USD" {
		t.Fatalf("updated %+v", up)
	}
	var list api.StockList
	m.Do(http.MethodGet, "/api/account/invest/stocks", nil).Want(http.StatusOK).JSON(&list)
	if len(list.Items) != 1 {
		t.Fatalf("list %+v", list)
	}

	// Deleting the wallet unlinks its stocks; deleting a stock takes its trades.
	linked := newStock(t, m, "000660", &broker.ID)
	newTrade(t, m, tradeReq(linked.ID, api.TradeSideBuy, 2, "1", "100", ""))
	m.Do(http.MethodDelete, fmt.Sprintf("/api/account/wallets/%d", broker.ID), nil).Want(http.StatusNoContent)
	m.Do(http.MethodGet, "/api/account/invest/stocks", nil).Want(http.StatusOK).JSON(&list)
	for _, it := range list.Items {
		if it.WalletID != nil {
			t.Fatalf("stock %d still names the deleted wallet", it.ID)
		}
	}
	m.Do(http.MethodDelete, fmt.Sprintf("/api/account/invest/stocks/%d", linked.ID), nil).Want(http.StatusNoContent)
	m.Do(http.MethodDelete, fmt.Sprintf("/api/account/invest/stocks/%d", linked.ID), nil).WantProblem(http.StatusNotFound, "NOT_FOUND")
	var trades api.TradePage
	m.Do(http.MethodGet, "/api/account/invest/trades", nil).Want(http.StatusOK).JSON(&trades)
	if trades.Total != 0 {
		t.Fatalf("trades of the deleted stock remain: %+v", trades)
	}
}

func TestStocksAndTradesArePremium(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	free := env.NewMember()
	free.Do(http.MethodGet, "/api/account/invest/stocks", nil).WantProblem(http.StatusForbidden, "PREMIUM_REQUIRED")
	free.Do(http.MethodGet, "/api/account/invest/portfolio", nil).WantProblem(http.StatusForbidden, "PREMIUM_REQUIRED")
	free.Do(http.MethodGet, "/api/account/networth/trend", nil).Want(http.StatusOK)
}

func TestBadStockAndTradeInputIsRefusedNamingTheField(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	s := newStock(t, m, "005930", nil)
	for _, body := range []string{
		`{"code":"","name":"x"}`, `{"code":"00 59","name":"x"}`, `{"code":"` + strings.Repeat("1", 21) + `","name":"x"}`,
		`{"code":"1","name":""}`, `{"code":"1","name":"   "}`, `{"code":"1","name":"a\u0007b"}`, `{"code":"1","name":"a\u202eb"}`,
		`{"code":"1","name":"` + strings.Repeat("x", 101) + `"}`, `{"code":"1","name":"x","currency":"krw"}`,
		`{"code":"1","name":"x","walletId":0}`, `{"code":"1","name":"x","market":""}`,
	} {
		if res := m.Raw().Send(http.MethodPost, "/api/account/invest/stocks", "application/json", []byte(body)); res.Status != http.StatusBadRequest {
			t.Errorf("%s: %d %s", body, res.Status, res.Body)
		}
	}
	for _, tc := range []struct{ field, value string }{
		{"quantity", `"0"`}, {"quantity", `"-1"`}, {"quantity", `"1.1234567"`}, {"quantity", `"1234567890123"`}, {"quantity", `1`},
		{"price", `"abc"`}, {"price", `"1e5"`}, {"fee", `"-0.5"`}, {"side", `"HOLD"`}, {"date", `"2026-13-01"`}, {"stockId", `0`},
	} {
		body := fmt.Sprintf(`{"stockId":%d,"side":"BUY","date":"2026-11-16","quantity":"1","price":"1"}`, s.ID)
		body = strings.Replace(body, `}`, fmt.Sprintf(`,"%s":%s}`, tc.field, tc.value), 1)
		// A repeated key: the later one wins in JSON decoding and in the validator.
		if res := m.Raw().Send(http.MethodPost, "/api/account/invest/trades", "application/json", []byte(body)); res.Status != http.StatusBadRequest {
			t.Errorf("%s=%s: %d %s", tc.field, tc.value, res.Status, res.Body)
		}
	}
}
