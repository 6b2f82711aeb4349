package invest_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/apitest"
	lt "github.com/nestegg/nestegg/internal/apitest/ledgertest"
	"github.com/nestegg/nestegg/internal/invest"
)

// netWorthOfEveryWalletKind gives the member one wallet of each kind the
// net worth treats differently, and stocks in and outside an INVEST wallet.
func netWorthOfEveryWalletKind(t *testing.T, env *apitest.Env, m *apitest.Member) {
	t.Helper()
	bank := lt.Wallet(m.Client, "Bank", api.WalletTypeBank, 1_000_000)
	card := lt.Wallet(m.Client, "Card", api.WalletTypeCard, 0)
	lt.Wallet(m.Client, "Overdraft", api.WalletTypeMinus, -400_000)
	var pension, loan api.Wallet
	m.Do(http.MethodPost, "/api/account/wallets", api.WalletRequest{Name: "Pension", Type: api.WalletTypePension,
		ManualValuation: lt.Ptr(true), CurrentValue: lt.Ptr[int64](2_000_000)}).Want(http.StatusCreated).JSON(&pension)
	// 1,200,000 over 12 months without interest from 16 May: 100,000 a month.
	m.Do(http.MethodPost, "/api/account/wallets", api.WalletRequest{Name: "Loan", Type: api.WalletTypeLoan,
		LoanAmount: lt.Ptr[int64](1_200_000), LoanRate: lt.Ptr("0"), LoanMethod: lt.Ptr(api.LoanMethodEqualPrincipal),
		LoanMonths: lt.Ptr[int32](12), LoanStart: lt.Ptr(lt.Date(2026, 5, 16))}).Want(http.StatusCreated).JSON(&loan)
	broker := lt.Wallet(m.Client, "Broker", api.WalletTypeInvest, 777) // its balance is not its value

	lt.Entry(m.Client, lt.Income(lt.Date(2026, 10, 5), 500_000, bank.ID))
	lt.Entry(m.Client, lt.Expense(lt.Date(2026, 11, 10), 200_000, bank.ID))
	lt.Entry(m.Client, lt.Expense(lt.Date(2026, 10, 20), 300_000, card.ID))
	// A pending entry counts nowhere; a card payment is a transfer pair.
	env.Exec(`INSERT INTO account_entry (member_id, wallet_id, type, amount, entry_date, pending) VALUES ($1, $2, 'expense', 100000, '2026-11-01', true)`, m.ID, bank.ID)
	m.Do(http.MethodPost, "/api/account/transfers", api.TransferRequest{
		Date: lt.Date(2026, 11, 12), Amount: 50000, FromWalletID: bank.ID, ToWalletID: card.ID,
	}).Want(http.StatusCreated)

	held := newStock(t, m, "005930", &broker.ID)
	newTrade(t, m, api.TradeRequest{StockID: held.ID, Side: api.TradeSideBuy, Date: lt.Date(2026, 10, 10), Quantity: "10", Price: "1000"})
	loose := newStock(t, m, "000660", nil)
	newTrade(t, m, api.TradeRequest{StockID: loose.ID, Side: api.TradeSideBuy, Date: lt.Date(2026, 9, 1), Quantity: "1", Price: "5000"})
	env.Exec(`INSERT INTO stock_quote (code, quote_day, price, currency, quoted_at) VALUES ('005930', '2026-11-13', 1200, 'KRW', '2026-11-13T06:30:00Z')`)
}

// TestNetWorthOfEachWalletKindByMonth. The clock is Monday 16 November 2026.
//
//	30 Sep: bank 1,000,000 + pension 2,000,000 + loose stock at cost 5,000;
//	        owed: overdraft 400,000 + loan 800,000 (4 instalments paid).
//	31 Oct: bank 1,500,000 + pension + held stock at cost 10,000 (no quote yet) + 5,000;
//	        owed: card 300,000 + overdraft + loan 700,000.
//	16 Nov: bank 1,250,000 + pension + 10 × 1,200 + 5,000;
//	        owed: card 250,000 (50,000 paid) + overdraft + loan 600,000 (halfway: 6 of 12 paid).
func TestNetWorthOfEachWalletKindByMonth(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	netWorthOfEveryWalletKind(t, env, m)

	var trend api.NetWorthTrend
	m.Do(http.MethodGet, "/api/account/networth/trend?months=3", nil).Want(http.StatusOK).JSON(&trend)
	want := []api.NetWorthPoint{
		{Date: lt.Date(2026, 9, 30), Assets: 3_005_000, Liabilities: 1_200_000, NetWorth: 1_805_000},
		{Date: lt.Date(2026, 10, 31), Assets: 3_515_000, Liabilities: 1_400_000, NetWorth: 2_115_000},
		{Date: lt.Date(2026, 11, 16), Assets: 3_267_000, Liabilities: 1_250_000, NetWorth: 2_017_000},
	}
	if trend.Unit != "MONTH" || len(trend.Points) != len(want) {
		t.Fatalf("trend %+v", trend)
	}
	for i, w := range want {
		if got := trend.Points[i]; got.Date.Time.Format(time.DateOnly) != w.Date.Time.Format(time.DateOnly) ||
			got.Assets != w.Assets || got.Liabilities != w.Liabilities || got.NetWorth != w.NetWorth {
			t.Errorf("point %d: %+v, want %+v", i, got, w)
		}
	}
	m.Do(http.MethodGet, "/api/account/networth/trend", nil).Want(http.StatusOK).JSON(&trend)
	if len(trend.Points) != 12 || trend.Points[0].Date.Time.Format(time.DateOnly) != "2025-12-31" {
		t.Fatalf("default trend: %d points from %v", len(trend.Points), trend.Points[0].Date)
	}
	for _, q := range []string{"unit=DAY", "months=0", "months=121", "weeks=261", "unit=WEEK&weeks=0"} {
		if res := m.Raw().Do(http.MethodGet, "/api/account/networth/trend?"+q, nil); res.Status != http.StatusBadRequest {
			t.Errorf("%s: %d", q, res.Status)
		}
	}
}

// TestNetWorthWeekAcrossAMonthEnd: on Wednesday 4 November the week before
// runs from Monday 26 October to Sunday 1 November.
func TestNetWorthWeekAcrossAMonthEnd(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	env.Clock.Set(time.Date(2026, 11, 4, 9, 0, 0, 0, apitest.Start.Location()))
	m := env.NewMember()
	bank := lt.Wallet(m.Client, "Bank", api.WalletTypeBank, 0)
	for day, amount := range map[monthDay]int64{{10, 25}: 1, {10, 26}: 10, {10, 31}: 100, {11, 1}: 1000, {11, 2}: 10000} {
		lt.Entry(m.Client, lt.Income(lt.Date(2026, time.Month(day.month), day.day), amount, bank.ID))
	}
	var trend api.NetWorthTrend
	m.Do(http.MethodGet, "/api/account/networth/trend?unit=WEEK&weeks=3", nil).Want(http.StatusOK).JSON(&trend)
	want := map[string]int64{"2026-10-25": 1, "2026-11-01": 1111, "2026-11-04": 11111}
	if trend.Unit != "WEEK" || len(trend.Points) != 3 {
		t.Fatalf("trend %+v", trend)
	}
	for _, p := range trend.Points {
		if want[p.Date.Time.Format(time.DateOnly)] != p.NetWorth || p.Assets != p.NetWorth {
			t.Errorf("point %+v, want %v", p, want)
		}
	}
	m.Do(http.MethodGet, "/api/account/networth/trend?unit=WEEK", nil).Want(http.StatusOK).JSON(&trend)
	if len(trend.Points) != 13 {
		t.Fatalf("default weeks: %d points", len(trend.Points))
	}
}

type monthDay struct{ month, day int }

// TestNetWorthIsAFixedNumberOfQueries: 3 or 120 points, 7 or 27 wallets,
// always the same five queries.
func TestNetWorthIsAFixedNumberOfQueries(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	netWorthOfEveryWalletKind(t, env, m)
	ctx := context.Background()
	count := func(n int) int {
		c := &apitest.RecordingDB{DBTX: env.Pool}
		days := invest.PointDays(env.Clock.Now(), apitest.Start.Location(), "MONTH", n)
		if _, err := invest.NetWorthOn(ctx, db.New(c), m.ID, days, "KRW"); err != nil {
			t.Fatal(err)
		}
		return len(c.Sent)
	}
	few := count(3)
	env.Exec(`INSERT INTO wallet (member_id, name, type, opening_balance, sort_order) SELECT $1, 'W' || g, 'BANK', g, 100 + g FROM generate_series(1, 20) g`, m.ID)
	many := count(120)
	if few != 5 || many != 5 {
		t.Fatalf("%d queries for 3 points, %d for 120 points and 20 more wallets, want 5", few, many)
	}
}
