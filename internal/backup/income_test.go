package backup_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	lt "github.com/nestegg/nestegg/internal/apitest/ledgertest"
)

func expectedIncome(t *testing.T, m *apitest.Member, month int) *int64 {
	t.Helper()
	var out api.BudgetIncome
	m.Do(http.MethodGet, fmt.Sprintf("/api/account/budgets/income?year=2026&month=%d", month), nil).
		Want(http.StatusOK).JSON(&out)
	return out.Amount
}

func setExpectedIncome(m *apitest.Member, month int32, amount int64) {
	m.Do(http.MethodPut, "/api/account/budgets/income", api.BudgetIncomeRequest{Year: 2026, Month: month, Amount: amount}).Want(http.StatusOK)
}

// Expected income is budget data, and restore replaces all of the member's
// data: the backup carries every month's, a restore puts back the backed-up
// amounts and leaves none the document lacks (issue 42: October's 4,000,000
// survived a restore of a backup without it).
func TestRestoreReplacesExpectedIncomes(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	lt.Wallet(m.Client, "현금", api.WalletTypeCash, 0)
	setExpectedIncome(m, 10, 4000000)
	doc := backupOf(t, m)
	mustEqual(t, "expected incomes", &[]api.BackupExpectedIncome{{Year: 2026, Month: 10, Amount: 4000000}}, doc.ExpectedIncomes)

	setExpectedIncome(m, 10, 5000000)
	setExpectedIncome(m, 9, 1000000)
	if c := restore(t, m, doc); c.ExpectedIncomes != 1 {
		t.Fatalf("restored %+v", c)
	}
	if got := expectedIncome(t, m, 10); got == nil || *got != 4000000 {
		t.Fatalf("October's expected income after the restore: %v, want 4000000", got)
	}
	if got := expectedIncome(t, m, 9); got != nil {
		t.Fatalf("September's expected income survived the restore: %d", *got)
	}

	// A document written before backups carried expected incomes: none left.
	doc.ExpectedIncomes = nil
	restore(t, m, doc)
	if got := expectedIncome(t, m, 10); got != nil {
		t.Fatalf("October's expected income survived a restore without any: %d", *got)
	}

	// A month given twice is refused, naming the second.
	doc.ExpectedIncomes = &[]api.BackupExpectedIncome{{Year: 2026, Month: 10, Amount: 1}, {Year: 2026, Month: 10, Amount: 2}}
	p := m.Do(http.MethodPost, "/api/account/restore", doc).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
	if len(p.Errors) != 1 || p.Errors[0].Field != "/expectedIncomes/1/month" {
		t.Fatalf("problem %+v", p)
	}
	// A document of expected incomes alone is not empty.
	only := api.Backup{
		Version: 1, Wallets: []api.BackupWallet{}, Tags: []string{}, Categories: []api.BackupCategory{},
		Entries: []api.BackupEntry{}, Recurring: []api.BackupRecurring{}, QuickEntries: []api.BackupQuickEntry{},
		Budgets: []api.BackupBudget{}, Transfers: []api.BackupTransfer{},
		ExpectedIncomes: &[]api.BackupExpectedIncome{{Year: 2026, Month: 11, Amount: 7}},
	}
	restore(t, m, only)
	if got := expectedIncome(t, m, 11); got == nil || *got != 7 {
		t.Fatalf("November's expected income: %v, want 7", got)
	}
}
