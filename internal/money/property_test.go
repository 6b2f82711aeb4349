package money_test

import (
	"math"
	"math/big"
	"math/rand/v2"
	"net/http"
	"testing"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	lt "github.com/nestegg/nestegg/internal/apitest/ledgertest"
)

// fits answers whether i is an int64, and its value.
func fits(i *big.Int) (int64, bool) {
	if !i.IsInt64() {
		return 0, false
	}
	return i.Int64(), true
}

// TestTotalsMatchBigIntOrAnswerTheProblem is a property test over random
// large ledgers, each amount within the bound: wallet balances, the month's
// statistics, the net worth and the portfolio answer what a big.Int
// recomputation gives, or 422 TOTAL_OUT_OF_RANGE exactly when that value
// does not fit an int64. Groups of identical rows are inserted directly, so
// a case reaches 10^19 in one statement.
func TestTotalsMatchBigIntOrAnswerTheProblem(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	walletIDs := make([]int64, 3)
	for i, name := range []string{"A", "B", "C"} {
		walletIDs[i] = lt.Wallet(m.Client, name, api.WalletTypeBank, 0).ID
	}
	var stock api.Stock
	m.Do(http.MethodPost, "/api/account/invest/stocks", api.CreateStockJSONRequestBody{Code: "005930", Name: "Samsung"}).
		Want(http.StatusCreated).JSON(&stock)

	r := rand.New(rand.NewPCG(18, 1015))
	amount := func() int64 {
		if r.IntN(2) == 0 {
			return bound - r.Int64N(1000)
		}
		return 1 + r.Int64N(bound)
	}
	outcomes := map[string]int{}
	const cases = 40
	for c := range cases {
		env.Exec(`DELETE FROM account_entry WHERE member_id = $1`, m.ID)
		env.Exec(`DELETE FROM invest_trade WHERE member_id = $1`, m.ID)
		balance := make([]*big.Int, len(walletIDs))
		for i, id := range walletIDs {
			opening := r.Int64N(2*bound+1) - bound
			env.Exec(`UPDATE wallet SET opening_balance = $1 WHERE id = $2`, opening, id)
			balance[i] = big.NewInt(opening)
		}
		income, expense := new(big.Int), new(big.Int)
		// Half the cases stay small; the other half put one group of rows
		// near the bound around where int64 ends (9,223 × 10^15).
		huge := r.IntN(2) == 0
		for g := range 1 + r.IntN(4) {
			n := 1 + r.IntN(20)
			a, w, typ := amount(), r.IntN(len(walletIDs)), "income"
			if huge && g == 0 {
				n, a = 8800+r.IntN(900), bound-r.Int64N(1000)
			}
			total := new(big.Int).Mul(big.NewInt(a), big.NewInt(int64(n)))
			if r.IntN(2) == 0 {
				typ = "expense"
				expense.Add(expense, total)
				balance[w].Sub(balance[w], total)
			} else {
				income.Add(income, total)
				balance[w].Add(balance[w], total)
			}
			env.Exec(`INSERT INTO account_entry (member_id, wallet_id, type, amount, entry_date)
				SELECT $1, $2, $3, $4, '2026-11-02' FROM generate_series(1, $5)`, m.ID, walletIDs[w], typ, a, n)
		}
		// Trades: whole quantities and prices, each trade's value within the bound.
		invested := new(big.Int)
		hugeTrades := huge && r.IntN(3) == 0
		for g := range r.IntN(3) {
			n := 1 + r.IntN(10)
			qty := 1001 + r.Int64N(9000) // so that price stays below 10^12 (DECIMAL(18,6))
			price := 1 + r.Int64N(bound/qty)
			if hugeTrades && g == 0 {
				n, price = 8800+r.IntN(900), bound/qty
			}
			invested.Add(invested, new(big.Int).Mul(big.NewInt(qty*price), big.NewInt(int64(n))))
			env.Exec(`INSERT INTO invest_trade (member_id, stock_id, side, trade_date, quantity, price)
				SELECT $1, $2, 'BUY', '2026-11-02', $3, $4 FROM generate_series(1, $5)`, m.ID, stock.ID, qty, price, n)
		}

		// Wallet balances: exact, or (issue 42) held at the nearest end of
		// int64's range and flagged, the wallet answered all the same.
		allFit := true
		for _, b := range balance {
			if _, ok := fits(b); !ok {
				allFit = false
			}
		}
		var list api.WalletList
		m.Do(http.MethodGet, "/api/account/wallets", nil).Want(http.StatusOK).JSON(&list)
		for i, w := range list.Items {
			want, ok := fits(balance[i])
			if !ok {
				want = math.MaxInt64
				if balance[i].Sign() < 0 {
					want = math.MinInt64
				}
			}
			if w.Balance != want || (w.BalanceOutOfRange != nil) == ok || (w.BalanceOutOfRange != nil && !*w.BalanceOutOfRange) {
				t.Fatalf("case %d: wallet %s balance %d (out of range %v), want %s", c, w.Name, w.Balance, w.BalanceOutOfRange, balance[i])
			}
		}
		if allFit {
			outcomes["wallets exact"]++
		} else {
			outcomes["wallets out of range"]++
		}

		// The month's statistics: income, expense and their difference.
		net := new(big.Int).Sub(income, expense)
		in, okIn := fits(income)
		out, okOut := fits(expense)
		n, okNet := fits(net)
		res := m.Do(http.MethodGet, "/api/account/stats/monthly?year=2026&month=11", nil)
		if !okIn || !okOut || !okNet {
			res.WantProblem(http.StatusUnprocessableEntity, "TOTAL_OUT_OF_RANGE")
		} else {
			var s api.MonthlyStats
			res.Want(http.StatusOK).JSON(&s)
			if s.Income != in || s.Expense != out || s.Net != n {
				t.Fatalf("case %d: stats %d/%d/%d, want %s/%s/%s", c, s.Income, s.Expense, s.Net, income, expense, net)
			}
		}

		// The portfolio, valued at cost (no quote).
		inv, okInv := fits(invested)
		res = m.Do(http.MethodGet, "/api/account/invest/portfolio", nil)
		if !okInv {
			res.WantProblem(http.StatusUnprocessableEntity, "TOTAL_OUT_OF_RANGE")
			outcomes["portfolio out of range"]++
		} else {
			var p api.Portfolio
			res.Want(http.StatusOK).JSON(&p)
			if p.Totals.InvestedAmount != inv || p.Totals.Valuation != inv || p.Totals.ValuationProfit != 0 {
				t.Fatalf("case %d: portfolio totals %+v, want invested %s", c, p.Totals, invested)
			}
		}

		// Net worth: positive balances and the stock at cost are assets,
		// negative balances liabilities.
		assets, liabilities := new(big.Int).Set(invested), new(big.Int)
		for _, b := range balance {
			if b.Sign() >= 0 {
				assets.Add(assets, b)
			} else {
				liabilities.Sub(liabilities, b)
			}
		}
		worth := new(big.Int).Sub(assets, liabilities)
		as, okA := fits(assets)
		li, okL := fits(liabilities)
		nw, okW := fits(worth)
		res = m.Do(http.MethodGet, "/api/account/networth/trend?months=1", nil)
		// A wallet or the stock whose own value does not fit is refused
		// before it is added.
		if !okA || !okL || !okW || !allFit || !okInv {
			res.WantProblem(http.StatusUnprocessableEntity, "TOTAL_OUT_OF_RANGE")
			outcomes["net worth out of range"]++
		} else {
			var trend api.NetWorthTrend
			res.Want(http.StatusOK).JSON(&trend)
			if p := trend.Points[0]; p.Assets != as || p.Liabilities != li || p.NetWorth != nw {
				t.Fatalf("case %d: net worth %+v, want %s - %s = %s", c, p, assets, liabilities, worth)
			}
			outcomes["net worth exact"]++
		}
	}
	// Both sides of int64's end were reached, or the property says little.
	for _, k := range []string{"wallets exact", "wallets out of range", "net worth exact", "net worth out of range", "portfolio out of range"} {
		if outcomes[k] == 0 {
			t.Errorf("no case gave %q (outcomes %v)", k, outcomes)
		}
	}
}
