package profile_test

import (
	"net/http"
	"testing"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	lt "github.com/nestegg/nestegg/internal/apitest/ledgertest"
)

func init() {
	memberFillers = append(memberFillers, memberFiller{order: 10, area: "ledger", fill: func(t *testing.T, env *apitest.Env, m *apitest.Member) {
		// Tags are PREMIUM; the session sees the plan from its next request.
		env.Exec(`UPDATE member SET plan = 'PREMIUM' WHERE id = $1`, m.ID)
		wallet := lt.Wallet(m.Client, "Bank", api.WalletTypeBank, 1000)
		food := lt.Category(m.Client, "Food", api.EntryTypeExpense, nil)
		lunch := lt.Category(m.Client, "Lunch", api.EntryTypeExpense, &food.ID)
		m.Do(http.MethodPost, "/api/account/tags", api.TagRequest{Name: "work"}).Want(http.StatusCreated)
		entry := lt.Expense(lt.Date(2026, 11, 16), 9000, wallet.ID)
		entry.CategoryID = &lunch.ID
		entry.Tags = &[]string{"work", "lunch"}
		lt.Entry(m.Client, entry)
		m.Do(http.MethodPost, "/api/account/recurrings", api.RecurringRequest{
			Name: "Rent", Type: api.EntryTypeExpense, Amount: 650000, Day: 25, WalletID: &wallet.ID, CategoryID: &food.ID,
		}).Want(http.StatusCreated)
		m.Do(http.MethodPost, "/api/account/quick-entries", api.QuickEntryRequest{
			Name: "Coffee", Type: api.EntryTypeExpense, Amount: 4500, WalletID: &wallet.ID, Tags: &[]string{"work"},
		}).Want(http.StatusCreated)
	}})
}
