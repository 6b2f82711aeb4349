package money_test

import (
	"net/http"
	"strconv"
	"testing"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	lt "github.com/nestegg/nestegg/internal/apitest/ledgertest"
)

// wantField fails unless the problem names field.
func wantField(t *testing.T, p apitest.Problem, field string) {
	t.Helper()
	for _, e := range p.Errors {
		if e.Field == field {
			return
		}
	}
	t.Fatalf("problem %q names %+v, want %s", p.Detail, p.Errors, field)
}

// TestProbeTradeWhoseValuePassesTheBound: one BUY of 999999999999 ×
// 999999999999 showed a portfolio value of 2003762205206896641.
func TestProbeTradeWhoseValuePassesTheBound(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	var s api.Stock
	m.Do(http.MethodPost, "/api/account/invest/stocks", api.CreateStockJSONRequestBody{Code: "005930", Name: "Samsung"}).
		Want(http.StatusCreated).JSON(&s)
	buy := func(qty, price, fee string) *apitest.Response {
		r := api.CreateTradeJSONRequestBody{StockID: s.ID, Side: api.TradeSideBuy, Date: lt.Date(2026, 11, 2),
			Quantity: api.DecimalAmount(qty), Price: api.DecimalAmount(price)}
		if fee != "" {
			f := api.DecimalAmount(fee)
			r.Fee = &f
		}
		return m.Do(http.MethodPost, "/api/account/invest/trades", r)
	}
	wantField(t, buy("999999999999", "999999999999", "").WantProblem(http.StatusBadRequest, "VALIDATION_FAILED"), "/price")
	wantField(t, buy("10000", "100000000000.000001", "").WantProblem(http.StatusBadRequest, "VALIDATION_FAILED"), "/price")
	wantField(t, buy("10000", "100000000000", "1").WantProblem(http.StatusBadRequest, "VALIDATION_FAILED"), "/fee")
	// Exactly the bound is an amount like any other.
	buy("10000", "100000000000", "").Want(http.StatusCreated)
	var p api.Portfolio
	m.Do(http.MethodGet, "/api/account/invest/portfolio", nil).Want(http.StatusOK).JSON(&p)
	if p.Totals.InvestedAmount != bound || p.Totals.Valuation != bound {
		t.Fatalf("portfolio totals %+v", p.Totals)
	}
}

// TestPortfolioOfManyTradesBeyondInt64: each trade is within the bound, but
// 10,000 of them hold 10^19: the portfolio answers the stable problem.
func TestPortfolioOfManyTradesBeyondInt64(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	var s api.Stock
	m.Do(http.MethodPost, "/api/account/invest/stocks", api.CreateStockJSONRequestBody{Code: "005930", Name: "Samsung"}).
		Want(http.StatusCreated).JSON(&s)
	env.Exec(`INSERT INTO invest_trade (member_id, stock_id, side, trade_date, quantity, price, fee)
		SELECT $1, $2, 'BUY', '2026-11-02', 10000, 100000000000, 0 FROM generate_series(1, 10000)`, m.ID, s.ID)
	m.Do(http.MethodGet, "/api/account/invest/portfolio", nil).WantProblem(http.StatusUnprocessableEntity, "TOTAL_OUT_OF_RANGE")
	m.Do(http.MethodGet, "/api/account/networth/trend?months=1", nil).WantProblem(http.StatusUnprocessableEntity, "TOTAL_OUT_OF_RANGE")
}

// TestProbeLoanPaymentBelowTheInterest: a loan of 10^15 at 100 % with
// loanPayment 1 showed a liability of 7×10^17 and negative total interest.
func TestProbeLoanPaymentBelowTheInterest(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	loan := func(payment int64) api.WalletRequest {
		return api.WalletRequest{Name: "Loan", Type: api.WalletTypeLoan,
			LoanAmount: lt.Ptr[int64](bound), LoanRate: lt.Ptr("100"), LoanMethod: lt.Ptr(api.LoanMethodEqualPayment),
			LoanMonths: lt.Ptr[int32](600), LoanStart: lt.Ptr(lt.Date(2026, 1, 15)), LoanPayment: lt.Ptr(payment)}
	}
	p := m.Do(http.MethodPost, "/api/account/wallets", loan(1)).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
	wantField(t, p, "/loanPayment")
	// The first month's interest is 10^15 / 12 = 83,333,333,333,333.33:
	// one won less is refused, the interest itself is accepted.
	m.Do(http.MethodPost, "/api/account/wallets", loan(83_333_333_333_332)).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
	var w api.Wallet
	m.Do(http.MethodPost, "/api/account/wallets", loan(83_333_333_333_333)).Want(http.StatusCreated).JSON(&w)
	// The update path checks the same.
	wantField(t, m.Do(http.MethodPut, "/api/account/wallets/"+itoa(w.ID), loan(1)).
		WantProblem(http.StatusBadRequest, "VALIDATION_FAILED"), "/loanPayment")

	var s api.LoanSchedule
	m.Do(http.MethodGet, "/api/account/wallets/"+itoa(w.ID)+"/loan-schedule", nil).Want(http.StatusOK).JSON(&s)
	if s.TotalInterest < 0 || len(s.Items) != 600 {
		t.Fatalf("schedule: total interest %d, %d items", s.TotalInterest, len(s.Items))
	}
	for _, it := range s.Items {
		if it.Remaining > bound || it.Remaining < 0 || it.Interest < 0 {
			t.Fatalf("instalment %+v", it)
		}
	}
	var trend api.NetWorthTrend
	m.Do(http.MethodGet, "/api/account/networth/trend?months=1", nil).Want(http.StatusOK).JSON(&trend)
	if l := trend.Points[0].Liabilities; l != bound {
		t.Fatalf("liabilities %d, want the loan's %d (interest-only so far)", l, int64(bound))
	}

	// A loan stored before the rule (payment 1) answers the stable problem,
	// not a wrapped schedule.
	env.Exec(`UPDATE wallet SET loan_payment = 1 WHERE id = $1`, w.ID)
	m.Do(http.MethodGet, "/api/account/wallets/"+itoa(w.ID)+"/loan-schedule", nil).WantProblem(http.StatusUnprocessableEntity, "TOTAL_OUT_OF_RANGE")
	m.Do(http.MethodGet, "/api/account/networth/trend?months=1", nil).WantProblem(http.StatusUnprocessableEntity, "TOTAL_OUT_OF_RANGE")
}

// TestProbeOpeningBalancesPastTheBound: two wallets of 4.612×10^18 made the
// net worth -9222744073709551616; each is refused where it enters.
func TestProbeOpeningBalancesPastTheBound(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	for _, field := range []string{"openingBalance", "currentValue"} {
		body := `{"name":"Huge","type":"BANK","` + field + `":4612000000000000000` + map[string]string{"currentValue": `,"manualValuation":true`}[field] + `}`
		p := m.Client.Raw().Send(http.MethodPost, "/api/account/wallets", "application/json", []byte(body)).
			WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
		wantField(t, p, "/"+field)
	}
	m.Do(http.MethodPost, "/api/account/wallets", api.WalletRequest{Name: "A", Type: api.WalletTypeBank, OpeningBalance: lt.Ptr[int64](bound)}).Want(http.StatusCreated)
	m.Do(http.MethodPost, "/api/account/wallets", api.WalletRequest{Name: "B", Type: api.WalletTypeBank, OpeningBalance: lt.Ptr[int64](bound)}).Want(http.StatusCreated)
	var trend api.NetWorthTrend
	m.Do(http.MethodGet, "/api/account/networth/trend?months=1", nil).Want(http.StatusOK).JSON(&trend)
	if p := trend.Points[0]; p.Assets != 2*bound || p.NetWorth != 2*bound {
		t.Fatalf("net worth %+v", p)
	}
}

func itoa(id int64) string { return strconv.FormatInt(id, 10) }
