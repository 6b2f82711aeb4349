package profile_test

import (
	"net/http"
	"testing"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	lt "github.com/nestegg/nestegg/internal/apitest/ledgertest"
)

func init() {
	memberFillers = append(memberFillers, memberFiller{order: 40, area: "invest", fill: func(t *testing.T, env *apitest.Env, m *apitest.Member) {
		// Investments are PREMIUM; the session sees the plan from its next request.
		env.Exec(`UPDATE member SET plan = 'PREMIUM' WHERE id = $1`, m.ID)
		broker := lt.Wallet(m.Client, "Broker", api.WalletTypeInvest, 0)
		var s api.Stock
		m.Do(http.MethodPost, "/api/account/invest/stocks", api.StockRequest{Code: "005930", Name: "Samsung", WalletID: &broker.ID}).
			Want(http.StatusCreated).JSON(&s)
		m.Do(http.MethodPost, "/api/account/invest/trades", api.TradeRequest{
			StockID: s.ID, Side: api.TradeSideBuy, Date: lt.Date(2026, 11, 16), Quantity: "1.5", Price: "71200",
		}).Want(http.StatusCreated)
	}})
}
