package invest_test

import (
	"net/http"
	"testing"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
)

// TestPortfolioOfAHandComputedCase: buy 10 @100 fee 10, buy 10 @120 fee 10,
// sell 5 @130 fee 5 (realised 645 − 555 = 90), sell 15 @100 (realised
// 1500 − 1665 = −165), re-buy 2 @50: average 50, quote 60.
func TestPortfolioOfAHandComputedCase(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	s := newStock(t, m, "005930", nil)
	for _, r := range []api.TradeRequest{
		tradeReq(s.ID, api.TradeSideBuy, 2, "10", "100", "10"),
		tradeReq(s.ID, api.TradeSideBuy, 3, "10", "120", "10"),
		tradeReq(s.ID, api.TradeSideSell, 4, "5", "130", "5"),
		tradeReq(s.ID, api.TradeSideSell, 5, "15", "100", ""),
		tradeReq(s.ID, api.TradeSideBuy, 6, "2", "50", ""),
	} {
		newTrade(t, m, r)
	}
	unquoted := newStock(t, m, "000660", nil)
	newTrade(t, m, tradeReq(unquoted.ID, api.TradeSideBuy, 2, "0.5", "1000.5", "0.25"))
	usd := "USD"
	var foreign api.Stock
	m.Do(http.MethodPost, "/api/account/invest/stocks", api.StockRequest{Code: "AAPL", Name: "Apple", Currency: &usd}).Want(http.StatusCreated).JSON(&foreign)
	newTrade(t, m, tradeReq(foreign.ID, api.TradeSideBuy, 2, "1", "200", ""))
	env.Exec(`INSERT INTO stock_quote (code, quote_day, price, currency, quoted_at) VALUES
		('005930', '2026-11-15', 55, 'KRW', '2026-11-15T06:30:00Z'), ('005930', '2026-11-16', 60, 'KRW', '2026-11-16T06:30:00Z')`)

	var p api.Portfolio
	m.Do(http.MethodGet, "/api/account/invest/portfolio", nil).Want(http.StatusOK).JSON(&p)
	if len(p.Items) != 3 {
		t.Fatalf("items %+v", p.Items)
	}
	h := p.Items[0]
	if h.Quantity != "2" || h.AverageCost != "50.000000" || h.InvestedAmount != 100 || h.RealisedProfit != -75 ||
		h.QuotePrice == nil || *h.QuotePrice != "60" || h.ValuedAtCost || h.Valuation != 120 || h.ValuationProfit != 20 ||
		h.ValuationRate == nil || *h.ValuationRate != "20.00" {
		t.Fatalf("holding %+v", h)
	}
	u := p.Items[1]
	if !u.ValuedAtCost || u.QuotePrice != nil || u.QuoteTime != nil || u.InvestedAmount != 501 || u.Valuation != 501 || u.AverageCost != "1001.000000" {
		t.Fatalf("unquoted holding %+v", u)
	}
	// The dollar stock is listed in dollars and left out of the won totals.
	if p.Items[2].InvestedAmount != 200 || p.Totals.InvestedAmount != 601 || p.Totals.Valuation != 621 ||
		p.Totals.ValuationProfit != 20 || p.Totals.RealisedProfit != -75 || *p.Totals.ValuationRate != "3.33" {
		t.Fatalf("totals %+v", p.Totals)
	}
}
