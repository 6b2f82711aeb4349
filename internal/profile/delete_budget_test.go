package profile_test

import (
	"net/http"
	"testing"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	lt "github.com/nestegg/nestegg/internal/apitest/ledgertest"
)

func init() {
	memberFillers = append(memberFillers, memberFiller{order: 20, area: "budget", fill: func(t *testing.T, env *apitest.Env, m *apitest.Member) {
		// Budgets are PREMIUM; the session sees the plan from its next request.
		env.Exec(`UPDATE member SET plan = 'PREMIUM' WHERE id = $1`, m.ID)
		food := lt.Category(m.Client, "Groceries", api.EntryTypeExpense, nil)
		m.Do(http.MethodPost, "/api/account/budgets", api.BudgetRequest{CategoryID: food.ID, Year: 2026, Month: 11, Amount: 300000}).
			Want(http.StatusCreated)
		m.Do(http.MethodPut, "/api/account/budgets/income", api.BudgetIncomeRequest{Year: 2026, Month: 11, Amount: 3000000}).
			Want(http.StatusOK)
		m.Do(http.MethodPost, "/api/account/budgets/onetime", api.OnetimeBudgetRequest{
			Name: "Trip", Amount: 500000, StartDate: lt.Date(2026, 12, 1), EndDate: lt.Date(2026, 12, 10), CategoryID: &food.ID,
		}).Want(http.StatusCreated)
	}})
}
