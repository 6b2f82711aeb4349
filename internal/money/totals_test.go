package money_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	lt "github.com/nestegg/nestegg/internal/apitest/ledgertest"
)

// bound is the contract's largest amount.
const bound = 1_000_000_000_000_000

// ledgerOfHugeMonth gives the member n income entries of the bound into a
// bank wallet and n expense entries of the bound, in a budgeted category,
// out of a cash wallet, all on 2 November 2026 (inserted directly: issue
// 18's probe restored them), and answers the reads that total them.
func ledgerOfHugeMonth(t *testing.T, env *apitest.Env, m *apitest.Member, n int) []string {
	t.Helper()
	bank := lt.Wallet(m.Client, "Bank", api.WalletTypeBank, 0)
	cash := lt.Wallet(m.Client, "Cash", api.WalletTypeCash, 0)
	food := lt.Category(m.Client, "Food", api.EntryTypeExpense, nil)
	m.Do(http.MethodPost, "/api/account/budgets", api.CreateBudgetJSONRequestBody{CategoryID: food.ID, Year: 2026, Month: 11, Amount: bound}).
		Want(http.StatusCreated)
	m.Do(http.MethodPost, "/api/account/budgets/onetime", api.CreateOnetimeBudgetJSONRequestBody{
		Name: "November", Amount: bound, StartDate: lt.Date(2026, 11, 1), EndDate: lt.Date(2026, 11, 30),
	}).Want(http.StatusCreated)
	m.Do(http.MethodPut, "/api/account/budgets/income", api.PutBudgetIncomeJSONRequestBody{Year: 2026, Month: 11, Amount: bound}).
		Want(http.StatusOK)
	env.Exec(`INSERT INTO account_entry (member_id, wallet_id, type, amount, entry_date)
		SELECT $1, $2, 'income', $3, '2026-11-02' FROM generate_series(1, $4)`, m.ID, bank.ID, int64(bound), n)
	env.Exec(`INSERT INTO account_entry (member_id, wallet_id, category_id, type, amount, entry_date)
		SELECT $1, $2, $3, 'expense', $4, '2026-11-02' FROM generate_series(1, $5)`, m.ID, cash.ID, food.ID, int64(bound), n)
	return []string{
		"/api/account/wallets",
		fmt.Sprintf("/api/account/wallets/%d", bank.ID),
		fmt.Sprintf("/api/account/wallets/%d", cash.ID),
		"/api/account/entries?year=2026&month=11",
		"/api/account/stats/monthly?year=2026&month=11",
		"/api/account/stats/yearly?year=2026",
		"/api/account/stats/categories?from=2026-11-01&to=2026-11-30",
		"/api/account/budgets/status?year=2026&month=11",
		"/api/account/budgets/chart?year=2026&month=11",
		"/api/account/budgets/income?year=2026&month=11",
		"/api/account/budgets/onetime",
		"/api/account/networth/trend?months=3",
	}
}

// TestTotalsBeyondInt64AnswerTheStableProblem is issue 18's probe: 10,000
// restored entries of 10^15 made wallets, the month list, statistics, the
// budgets and the trend answer 500 ("bigint out of range"). Each total is
// 10^19 now answers 422 TOTAL_OUT_OF_RANGE, never 500, never wrapped;
// since issue 42 wallets and the month list answer, the total held and flagged.
func TestTotalsBeyondInt64AnswerTheStableProblem(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	for _, path := range ledgerOfHugeMonth(t, env, m, 10_000) {
		if answered[path[:strings.IndexAny(path+"?", "?")]] || strings.HasPrefix(path, "/api/account/wallets/") {
			// Issue 42: wallets and the month list answer whatever their
			// totals, held at the bound and flagged (lockout_test.go).
			m.Do(http.MethodGet, path, nil).Want(http.StatusOK)
			continue
		}
		m.Do(http.MethodGet, path, nil).WantProblem(http.StatusUnprocessableEntity, "TOTAL_OUT_OF_RANGE")
	}
	// A write whose answer carries such a total is not applied.
	m.Do(http.MethodPut, "/api/account/budgets/income", api.PutBudgetIncomeJSONRequestBody{Year: 2026, Month: 11, Amount: 5}).
		WantProblem(http.StatusUnprocessableEntity, "TOTAL_OUT_OF_RANGE")
	var stored int64
	if err := env.Pool.QueryRow(t.Context(), `SELECT amount FROM budget_income WHERE member_id = $1`, m.ID).Scan(&stored); err != nil || stored != bound {
		t.Fatalf("expected income after the refused write: %d, %v; want %d", stored, err, int64(bound))
	}
}

// answered are the reads that answer whatever the totals they carry (issue
// 42), the totals held at the bound and flagged.
var answered = map[string]bool{"/api/account/wallets": true, "/api/account/entries": true}

// TestTotalsJustWithinInt64AreExact: 9,000 entries of 10^15 each way total
// 9×10^18, which int64 holds: every read answers the exact value.
func TestTotalsJustWithinInt64AreExact(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	const n = 9_000
	const total = int64(n) * bound
	for _, path := range ledgerOfHugeMonth(t, env, m, n) {
		m.Do(http.MethodGet, path, nil).Want(http.StatusOK)
	}
	var wallets api.WalletList
	m.Do(http.MethodGet, "/api/account/wallets", nil).Want(http.StatusOK).JSON(&wallets)
	if len(wallets.Items) != 2 || wallets.Items[0].Balance != total || wallets.Items[1].Balance != -total {
		t.Fatalf("wallets %+v", wallets.Items)
	}
	var month api.MonthlyStats
	m.Do(http.MethodGet, "/api/account/stats/monthly?year=2026&month=11", nil).Want(http.StatusOK).JSON(&month)
	if month.Income != total || month.Expense != total || month.Net != 0 {
		t.Fatalf("monthly income %d, expense %d, net %d", month.Income, month.Expense, month.Net)
	}
	var status api.BudgetStatus
	m.Do(http.MethodGet, "/api/account/budgets/status?year=2026&month=11", nil).Want(http.StatusOK).JSON(&status)
	if status.Spent != total || len(status.Items) != 1 || status.Items[0].Remaining != bound-total || *status.IncomeLeft != bound-total {
		t.Fatalf("budget status %+v", status)
	}
	var trend api.NetWorthTrend
	m.Do(http.MethodGet, "/api/account/networth/trend?months=1", nil).Want(http.StatusOK).JSON(&trend)
	if p := trend.Points[0]; p.Assets != total || p.Liabilities != total || p.NetWorth != 0 {
		t.Fatalf("net worth %+v", p)
	}
}
