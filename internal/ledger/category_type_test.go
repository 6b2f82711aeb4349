package ledger_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	lt "github.com/nestegg/nestegg/internal/apitest/ledgertest"
)

// A category's type cannot change while anything of the ledger uses it or
// one of its sub-categories: each kind of user alone is a 409 CONFLICT that
// names it, and the category keeps its type. Unused, the change goes through.
func TestCategoryTypeChangeRefusedWhileInUse(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	cash := lt.Wallet(m.Client, "Cash", api.WalletTypeCash, 0)

	uses := []struct {
		name string
		use  func(categoryID int64) // makes something use the category
		says string                 // what the 409's detail names
	}{
		{"entry", func(id int64) {
			e := lt.Expense(lt.Date(2026, 11, 3), 5_000, cash.ID)
			e.CategoryID = &id
			lt.Entry(m.Client, e)
		}, "1 entries"},
		{"budget", func(id int64) {
			m.Do(http.MethodPost, "/api/account/budgets", api.BudgetRequest{CategoryID: id, Year: 2026, Month: 11, Amount: 300_000}).Want(http.StatusCreated)
		}, "1 budgets"},
		{"recurring", func(id int64) {
			m.Do(http.MethodPost, "/api/account/recurrings", api.RecurringRequest{Name: "Rent", Type: api.EntryTypeExpense, Amount: 650_000, Day: 25, CategoryID: &id}).Want(http.StatusCreated)
		}, "1 recurring entries"},
		{"quick entry", func(id int64) {
			m.Do(http.MethodPost, "/api/account/quick-entries", api.QuickEntryRequest{Name: "Coffee", Type: api.EntryTypeExpense, Amount: 4_500, CategoryID: &id}).Want(http.StatusCreated)
		}, "1 quick entries"},
	}
	retype := func(c api.Category, typ api.EntryType) *apitest.Response {
		return m.Do(http.MethodPut, fmt.Sprintf("/api/account/categories/%d", c.ID), api.UpdateCategoryJSONRequestBody{Name: c.Name, Type: typ})
	}
	for i, u := range uses {
		// Used through a sub-category, whose type follows its parent's.
		parent := lt.Category(m.Client, fmt.Sprintf("Parent %d", i), api.EntryTypeExpense, nil)
		child := lt.Category(m.Client, fmt.Sprintf("Child %d", i), api.EntryTypeExpense, &parent.ID)
		u.use(child.ID)
		p := retype(parent, api.EntryTypeIncome).WantProblem(http.StatusConflict, "CONFLICT")
		if !strings.Contains(p.Detail, u.says) {
			t.Errorf("%s: detail %q does not name %q", u.name, p.Detail, u.says)
		}
		// Used directly.
		direct := lt.Category(m.Client, fmt.Sprintf("Direct %d", i), api.EntryTypeExpense, nil)
		u.use(direct.ID)
		retype(direct, api.EntryTypeIncome).WantProblem(http.StatusConflict, "CONFLICT")
		// A rename that keeps the type is still fine.
		direct.Name = fmt.Sprintf("Renamed %d", i)
		retype(direct, api.EntryTypeExpense).Want(http.StatusOK)
	}
	var tree api.CategoryTree
	m.Do(http.MethodGet, "/api/account/categories", nil).Want(http.StatusOK).JSON(&tree)
	if len(tree.Items) != 2*len(uses) {
		t.Fatalf("%d categories, want %d", len(tree.Items), 2*len(uses))
	}
	for _, c := range tree.Items {
		if string(c.Type) != string(api.EntryTypeExpense) {
			t.Errorf("category %q became %s through a refused change", c.Name, c.Type)
		}
	}

	// Nothing uses it: the type changes, the sub-category's with it.
	free := lt.Category(m.Client, "Free", api.EntryTypeExpense, nil)
	lt.Category(m.Client, "Free child", api.EntryTypeExpense, &free.ID)
	var got api.Category
	retype(free, api.EntryTypeIncome).Want(http.StatusOK).JSON(&got)
	if string(got.Type) != string(api.EntryTypeIncome) || len(got.Children) != 1 || string(got.Children[0].Type) != string(api.EntryTypeIncome) {
		t.Fatalf("retyped category %+v", got)
	}
}
