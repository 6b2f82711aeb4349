package invest_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
)

func TestTradeCRUDAndItsListFilter(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	a, b := newStock(t, m, "005930", nil), newStock(t, m, "000660", nil)
	buy := newTrade(t, m, tradeReq(a.ID, api.TradeSideBuy, 2, "10.5", "70000", "150"))
	if buy.Quantity != "10.500000" || buy.Price != "70000.000000" || buy.Fee != "150.000000" || buy.Side != "BUY" {
		t.Fatalf("trade %+v", buy)
	}
	newTrade(t, m, tradeReq(b.ID, api.TradeSideBuy, 3, "1", "100", ""))
	var page api.TradePage
	m.Do(http.MethodGet, fmt.Sprintf("/api/account/invest/trades?stockId=%d", a.ID), nil).Want(http.StatusOK).JSON(&page)
	if page.Total != 1 || page.Items[0].ID != buy.ID {
		t.Fatalf("page %+v", page)
	}
	m.Do(http.MethodGet, "/api/account/invest/trades?size=1", nil).Want(http.StatusOK).JSON(&page)
	if page.Total != 2 || len(page.Items) != 1 || page.Items[0].StockID != b.ID {
		t.Fatalf("newest first: %+v", page)
	}
	var up api.Trade
	m.Do(http.MethodPut, fmt.Sprintf("/api/account/invest/trades/%d", buy.ID), tradeReq(b.ID, api.TradeSideBuy, 4, "2", "1", "")).Want(http.StatusOK).JSON(&up)
	if up.StockID != b.ID || up.Fee != "0.000000" {
		t.Fatalf("updated %+v", up)
	}
	m.Do(http.MethodDelete, fmt.Sprintf("/api/account/invest/trades/%d", buy.ID), nil).Want(http.StatusNoContent)
	m.Do(http.MethodDelete, fmt.Sprintf("/api/account/invest/trades/%d", buy.ID), nil).WantProblem(http.StatusNotFound, "NOT_FOUND")
}

// TestHoldingNeverGoesNegativeOnReplay: creations, updates and deletions are
// checked against the replay in date order, then creation order.
func TestHoldingNeverGoesNegativeOnReplay(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	s := newStock(t, m, "005930", nil)
	buy := newTrade(t, m, tradeReq(s.ID, api.TradeSideBuy, 10, "10", "100", ""))
	// A sell dated before the buy has nothing to sell.
	m.Do(http.MethodPost, "/api/account/invest/trades", tradeReq(s.ID, api.TradeSideSell, 9, "1", "100", "")).
		WantProblem(http.StatusBadRequest, "NEGATIVE_HOLDING")
	sell := newTrade(t, m, tradeReq(s.ID, api.TradeSideSell, 10, "10", "120", ""))
	m.Do(http.MethodPost, "/api/account/invest/trades", tradeReq(s.ID, api.TradeSideSell, 11, "0.000001", "100", "")).
		WantProblem(http.StatusBadRequest, "NEGATIVE_HOLDING")
	// Moving the buy after the sell, shrinking it, or deleting it: refused.
	for _, r := range []api.TradeRequest{
		tradeReq(s.ID, api.TradeSideBuy, 11, "10", "100", ""),
		tradeReq(s.ID, api.TradeSideBuy, 10, "9.999999", "100", ""),
		tradeReq(s.ID, api.TradeSideSell, 10, "10", "100", ""),
	} {
		m.Do(http.MethodPut, fmt.Sprintf("/api/account/invest/trades/%d", buy.ID), r).WantProblem(http.StatusBadRequest, "NEGATIVE_HOLDING")
	}
	m.Do(http.MethodDelete, fmt.Sprintf("/api/account/invest/trades/%d", buy.ID), nil).WantProblem(http.StatusBadRequest, "NEGATIVE_HOLDING")
	// Moving the sell to another stock leaves that stock negative.
	other := newStock(t, m, "000660", nil)
	m.Do(http.MethodPut, fmt.Sprintf("/api/account/invest/trades/%d", sell.ID), tradeReq(other.ID, api.TradeSideSell, 10, "10", "120", "")).
		WantProblem(http.StatusBadRequest, "NEGATIVE_HOLDING")
	m.Do(http.MethodDelete, fmt.Sprintf("/api/account/invest/trades/%d", sell.ID), nil).Want(http.StatusNoContent)
	m.Do(http.MethodDelete, fmt.Sprintf("/api/account/invest/trades/%d", buy.ID), nil).Want(http.StatusNoContent)
}

// TestRacingSellsCannotBothPass: ten parallel sells of the whole holding, and
// parallel edits that each alone would be fine, leave it at zero, never below.
func TestRacingSellsCannotBothPass(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	s := newStock(t, m, "005930", nil)
	newTrade(t, m, tradeReq(s.ID, api.TradeSideBuy, 2, "10", "100", ""))
	answers := apitest.TogetherV(10, func(int) *apitest.Response {
		return m.Do(http.MethodPost, "/api/account/invest/trades", tradeReq(s.ID, api.TradeSideSell, 3, "10", "100", ""))
	})
	created := 0
	for _, res := range answers {
		switch res.Status {
		case http.StatusCreated:
			created++
		case http.StatusBadRequest:
			// Refused because the first sell emptied the holding.
			res.WantProblem(http.StatusBadRequest, "NEGATIVE_HOLDING")
		default:
			t.Fatalf("status %d: %s", res.Status, res.Body)
		}
	}
	if created != 1 {
		t.Fatalf("%d sells of the whole holding passed, want 1", created)
	}
	var sells api.TradePage
	m.Do(http.MethodGet, fmt.Sprintf("/api/account/invest/trades?stockId=%d", s.ID), nil).Want(http.StatusOK).JSON(&sells)
	if sells.Total != 2 {
		t.Fatalf("%d trades stored, want the buy and one sell", sells.Total)
	}

	// Two buys of 5 and a sell of 10: deleting either buy alone is refused
	// only once the other is gone, so two racing deletions cannot both pass.
	t2 := newStock(t, m, "000660", nil)
	b1 := newTrade(t, m, tradeReq(t2.ID, api.TradeSideBuy, 2, "5", "100", ""))
	b2 := newTrade(t, m, tradeReq(t2.ID, api.TradeSideBuy, 2, "5", "100", ""))
	newTrade(t, m, tradeReq(t2.ID, api.TradeSideSell, 3, "5", "100", ""))
	deleted := apitest.TogetherV(2, func(i int) *apitest.Response {
		return m.Do(http.MethodDelete, fmt.Sprintf("/api/account/invest/trades/%d", []int64{b1.ID, b2.ID}[i]), nil)
	})
	// One deletion passed, the other was refused: the refusal is the
	// contested path, the second deletion seeing the first's result.
	refused := deleted[1]
	if deleted[0].Status != http.StatusNoContent {
		refused = deleted[0]
		deleted[1].Want(http.StatusNoContent)
	}
	refused.WantProblem(http.StatusBadRequest, "NEGATIVE_HOLDING")
	var page api.TradePage
	m.Do(http.MethodGet, fmt.Sprintf("/api/account/invest/trades?stockId=%d", t2.ID), nil).Want(http.StatusOK).JSON(&page)
	if page.Total != 2 {
		t.Fatalf("%d trades left, want a buy and the sell", page.Total)
	}
}
