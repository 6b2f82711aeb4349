package budget_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	lt "github.com/nestegg/nestegg/internal/apitest/ledgertest"
)

func TestOnetimeBudgetLifecycleAndSpending(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	w := lt.Wallet(m.Client, "Cash", api.WalletTypeCash, 0)
	travel := lt.Category(m.Client, "Travel", api.EntryTypeExpense, nil)
	hotel := lt.Category(m.Client, "Hotel", api.EntryTypeExpense, &travel.ID)
	food := lt.Category(m.Client, "Food", api.EntryTypeExpense, nil)
	spend := func(day int, amount int64, category int64) {
		e := lt.Expense(lt.Date(2026, 12, day), amount, w.ID)
		e.CategoryID = &category
		lt.Entry(m.Client, e)
	}
	spend(19, 1, travel.ID) // before
	spend(20, 100000, travel.ID)
	spend(24, 300000, hotel.ID)
	spend(27, 50000, food.ID)
	spend(28, 7, travel.ID) // after

	var b api.OnetimeBudget
	m.Do(http.MethodPost, "/api/account/budgets/onetime", api.OnetimeBudgetRequest{
		Name: " Jeju trip ", Amount: 350000, StartDate: lt.Date(2026, 12, 20), EndDate: lt.Date(2026, 12, 27), CategoryID: &travel.ID,
	}).Want(http.StatusCreated).JSON(&b)
	if b.Name != "Jeju trip" || b.Spent != 400000 || b.Remaining != -50000 || b.CategoryID == nil || *b.CategoryID != travel.ID {
		t.Fatalf("created %+v", b)
	}
	path := fmt.Sprintf("/api/account/budgets/onetime/%d", b.ID)
	m.Do(http.MethodPut, path, api.OnetimeBudgetRequest{
		Name: "Year end", Amount: 1000000, StartDate: lt.Date(2026, 12, 20), EndDate: lt.Date(2026, 12, 27),
	}).Want(http.StatusOK).JSON(&b)
	if b.Spent != 450000 || b.CategoryID != nil || b.Remaining != 550000 {
		t.Fatalf("without a category %+v", b)
	}
	var list api.OnetimeBudgetList
	m.Do(http.MethodGet, "/api/account/budgets/onetime", nil).Want(http.StatusOK).JSON(&list)
	if len(list.Items) != 1 || list.Items[0].ID != b.ID {
		t.Fatalf("list %+v", list.Items)
	}
	// Another member neither sees nor changes it.
	other := env.NewMember(apitest.AsPremium())
	other.Do(http.MethodGet, "/api/account/budgets/onetime", nil).Want(http.StatusOK).JSON(&list)
	if len(list.Items) != 0 {
		t.Fatalf("another member lists %+v", list.Items)
	}
	other.Do(http.MethodDelete, path, nil).WantProblem(http.StatusNotFound, "NOT_FOUND")
	m.Do(http.MethodDelete, path, nil).Want(http.StatusNoContent)
	m.Do(http.MethodDelete, path, nil).WantProblem(http.StatusNotFound, "NOT_FOUND")
}

func TestOnetimeBudgetBadInput(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	salary := lt.Category(m.Client, "Salary", api.EntryTypeIncome, nil)
	raw := m.Raw()
	for _, body := range []string{
		`{"name":"","amount":1,"startDate":"2026-12-01","endDate":"2026-12-02"}`,
		`{"name":"   ","amount":1,"startDate":"2026-12-01","endDate":"2026-12-02"}`,
		`{"name":"` + strings.Repeat("x", 101) + `","amount":1,"startDate":"2026-12-01","endDate":"2026-12-02"}`,
		`{"name":"a\u0007b","amount":1,"startDate":"2026-12-01","endDate":"2026-12-02"}`,
		`{"name":"a\u202eb","amount":1,"startDate":"2026-12-01","endDate":"2026-12-02"}`,
		`{"name":"ok","amount":-1,"startDate":"2026-12-01","endDate":"2026-12-02"}`,
		`{"name":"ok","amount":1,"startDate":"2026-12-02","endDate":"2026-12-01"}`,
		`{"name":"ok","amount":1,"startDate":"2025-12-31","endDate":"2027-01-01"}`,
		`{"name":"ok","amount":1,"startDate":"2026-12-32","endDate":"2027-01-01"}`,
		`{"name":"ok","amount":1,"startDate":"2026-12-01"}`,
		fmt.Sprintf(`{"name":"ok","amount":1,"startDate":"2026-12-01","endDate":"2026-12-02","categoryId":%d}`, salary.ID),
	} {
		raw.Send(http.MethodPost, "/api/account/budgets/onetime", "application/json", []byte(body)).
			WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
	}
	raw.Send(http.MethodPost, "/api/account/budgets/onetime", "application/json",
		[]byte(`{"name":"ok","amount":1,"startDate":"2026-12-01","endDate":"2026-12-02","categoryId":999999999}`)).
		WantProblem(http.StatusNotFound, "NOT_FOUND")
}
