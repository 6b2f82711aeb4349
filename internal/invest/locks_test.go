package invest_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/database"
)

// Trade edits and a stock's deletion lock the same rows (the stock, its
// trades). Released together, round after round, nothing answers 500 or
// deadlocks, the deleted stock leaves no trade behind, and a refused edit
// leaves its trade as it was.
func TestTradeEditsAgainstStockDeletion(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	ctx := context.Background()
	const rounds = 8
	refusedBeforeDeletion := 0
	for round := range rounds {
		a := newStock(t, m, fmt.Sprintf("A%05d", round), nil)
		b := newStock(t, m, fmt.Sprintf("B%05d", round), nil)
		newTrade(t, m, tradeReq(a.ID, api.TradeSideBuy, 2, "10", "100", ""))
		sellA := newTrade(t, m, tradeReq(a.ID, api.TradeSideSell, 3, "5", "100", ""))
		buyB := newTrade(t, m, tradeReq(b.ID, api.TradeSideBuy, 2, "1", "100", ""))
		moveB := newTrade(t, m, tradeReq(b.ID, api.TradeSideBuy, 2, "2", "100", ""))
		// More edits of A's trades widen the window in which an edit holds a
		// trade while the deletion holds the stock.
		var smallSells []api.Trade
		for range 4 {
			smallSells = append(smallSells, newTrade(t, m, tradeReq(a.ID, api.TradeSideSell, 4, "1", "100", "")))
		}

		trade := func(id int64) string { return fmt.Sprintf("/api/account/invest/trades/%d", id) }
		answers := apitest.TogetherV(8, func(i int) *apitest.Response {
			switch i {
			case 4, 5, 6, 7: // A's small sells grow a little: allowed, unless A is gone
				return m.Do(http.MethodPut, trade(smallSells[i-4].ID), tradeReq(a.ID, api.TradeSideSell, 4, "1.2", "100", ""))
			case 0: // a sell of more than A holds: refused, unless A is gone
				return m.Do(http.MethodPut, trade(sellA.ID), tradeReq(a.ID, api.TradeSideSell, 3, "50", "100", ""))
			case 1: // moves a buy from B to A, which is being deleted
				return m.Do(http.MethodPut, trade(moveB.ID), tradeReq(a.ID, api.TradeSideBuy, 2, "2", "100", ""))
			case 2: // B's only holding cannot cover a sell of 5: refused
				return m.Do(http.MethodPut, trade(buyB.ID), tradeReq(b.ID, api.TradeSideSell, 2, "5", "100", ""))
			default:
				return m.Do(http.MethodDelete, fmt.Sprintf("/api/account/invest/stocks/%d", a.ID), nil)
			}
		})
		allowedUnlessGone := map[int]bool{http.StatusOK: true, http.StatusNotFound: true}
		want := []map[int]bool{
			{http.StatusBadRequest: true, http.StatusNotFound: true},
			allowedUnlessGone,
			{http.StatusBadRequest: true},
			{http.StatusNoContent: true},
			allowedUnlessGone, allowedUnlessGone, allowedUnlessGone, allowedUnlessGone,
		}
		for i, r := range answers {
			if !want[i][r.Status] {
				t.Errorf("round %d: request %d answered %d: %s", round, i, r.Status, r.Body)
			}
		}
		if answers[0].Status == http.StatusBadRequest {
			refusedBeforeDeletion++
		}

		// No trade of the deleted stock is left, whichever went first.
		var left int
		if err := env.Pool.QueryRow(ctx, `SELECT count(*) FROM invest_trade WHERE stock_id = $1`, a.ID).Scan(&left); err != nil {
			t.Fatal(err)
		}
		if left != 0 {
			t.Errorf("round %d: %d trades of the deleted stock left", round, left)
		}
		// The refused edit left B's buy as it was.
		var page api.TradePage
		m.Do(http.MethodGet, fmt.Sprintf("/api/account/invest/trades?stockId=%d", b.ID), nil).Want(http.StatusOK).JSON(&page)
		found := false
		for _, tr := range page.Items {
			if tr.ID == buyB.ID {
				found = true
				if tr.Side != "BUY" || tr.Quantity != buyB.Quantity {
					t.Errorf("round %d: refused edit changed the trade: %+v", round, tr)
				}
			}
		}
		if !found {
			t.Errorf("round %d: the trade of a refused edit is gone", round)
		}
	}
	if n := database.Retried(env.Pool); n != 0 {
		t.Errorf("%d transactions deadlocked and were run again", n)
	}
	t.Logf("the refused sell ran before the deletion in %d of %d rounds", refusedBeforeDeletion, rounds)
}
