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

func budgetsOf(m *apitest.Member, year, month int) []api.Budget {
	var out api.BudgetList
	m.Do(http.MethodGet, fmt.Sprintf("/api/account/budgets?year=%d&month=%d", year, month), nil).Want(http.StatusOK).JSON(&out)
	return out.Items
}

func createBudget(m *apitest.Member, categoryID int64, year, month int32, amount int64) api.Budget {
	var b api.Budget
	m.Do(http.MethodPost, "/api/account/budgets", api.BudgetRequest{CategoryID: categoryID, Year: year, Month: month, Amount: amount}).
		Want(http.StatusCreated).JSON(&b)
	return b
}

func TestBudgetLifecycle(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	food := lt.Category(m.Client, "Food", api.EntryTypeExpense, nil)
	b := createBudget(m, food.ID, 2026, 11, 300000)
	if b.CategoryID != food.ID || b.Amount != 300000 || b.Year != 2026 || b.Month != 11 {
		t.Fatalf("created %+v", b)
	}
	p := m.Do(http.MethodPost, "/api/account/budgets", api.BudgetRequest{CategoryID: food.ID, Year: 2026, Month: 11, Amount: 1}).
		WantProblem(http.StatusConflict, "CONFLICT")
	if !strings.Contains(p.Detail, fmt.Sprint(b.ID)) || p.ExistingID != b.ID {
		t.Errorf("conflict %+v does not name budget %d (detail and existingId)", p, b.ID)
	}
	var got api.Budget
	m.Do(http.MethodPut, fmt.Sprintf("/api/account/budgets/%d", b.ID), api.BudgetAmountRequest{Amount: 350000}).Want(http.StatusOK).JSON(&got)
	if got.Amount != 350000 {
		t.Fatalf("updated %+v", got)
	}
	if items := budgetsOf(m, 2026, 11); len(items) != 1 || items[0].Amount != 350000 {
		t.Fatalf("listed %+v", items)
	}
	if items := budgetsOf(m, 2026, 12); len(items) != 0 {
		t.Fatalf("December lists %+v", items)
	}
	m.Do(http.MethodDelete, fmt.Sprintf("/api/account/budgets/%d", b.ID), nil).Want(http.StatusNoContent)
	m.Do(http.MethodDelete, fmt.Sprintf("/api/account/budgets/%d", b.ID), nil).WantProblem(http.StatusNotFound, "NOT_FOUND")

	salary := lt.Category(m.Client, "Salary", api.EntryTypeIncome, nil)
	m.Do(http.MethodPost, "/api/account/budgets", api.BudgetRequest{CategoryID: salary.ID, Year: 2026, Month: 11, Amount: 1}).
		WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
	m.Do(http.MethodPost, "/api/account/budgets", api.BudgetRequest{CategoryID: 999999999, Year: 2026, Month: 11, Amount: 1}).
		WantProblem(http.StatusNotFound, "NOT_FOUND")
}

func TestBudgetBadInput(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	food := lt.Category(m.Client, "Food", api.EntryTypeExpense, nil)
	raw := m.Raw()
	for _, body := range []string{
		`{"categoryId":%d,"year":2026,"month":13,"amount":1}`,
		`{"categoryId":%d,"year":2026,"month":0,"amount":1}`,
		`{"categoryId":%d,"year":1899,"month":1,"amount":1}`,
		`{"categoryId":%d,"year":2026,"month":1,"amount":-1}`,
		`{"categoryId":%d,"year":2026,"month":1,"amount":1000000000000000001}`,
		`{"categoryId":%d,"year":2026,"month":1,"amount":"x"}`,
		`{"categoryId":%d,"year":2026,"month":1}`,
	} {
		raw.Send(http.MethodPost, "/api/account/budgets", "application/json", []byte(fmt.Sprintf(body, food.ID))).
			WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
	}
	for _, q := range []string{"year=2026&month=13", "year=2026", "month=1", "year=abc&month=1", "year=2026&month=1%00"} {
		raw.Send(http.MethodGet, "/api/account/budgets/status?"+q, "", nil).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
	}
	raw.Send(http.MethodGet, "/api/account/budgets/chart?year=2026&month=1&months=25", "", nil).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
	raw.Send(http.MethodGet, "/api/account/budgets/chart?year=2026&month=1&months=0", "", nil).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
}

func TestBudgetsArePremium(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	m.Do(http.MethodGet, "/api/account/budgets?year=2026&month=11", nil).WantProblem(http.StatusForbidden, "PREMIUM_REQUIRED")
	m.Do(http.MethodGet, "/api/account/stats/monthly?year=2026&month=11", nil).WantProblem(http.StatusForbidden, "PREMIUM_REQUIRED")
}

// TestParallelCreatesOfOneBudgetMakeOne: 20 parallel creates of the same
// budget make one; the others are 409 naming it, none a 500.
func TestParallelCreatesOfOneBudgetMakeOne(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	food := lt.Category(m.Client, "Food", api.EntryTypeExpense, nil)
	answers := apitest.TogetherV(20, func(int) *apitest.Response {
		return m.Do(http.MethodPost, "/api/account/budgets", api.BudgetRequest{CategoryID: food.ID, Year: 2026, Month: 12, Amount: 5})
	})
	created, conflicts := 0, 0
	for _, res := range answers {
		switch res.Status {
		case http.StatusCreated:
			created++
		case http.StatusConflict:
			conflicts++
			res.WantProblem(http.StatusConflict, "CONFLICT")
		default:
			t.Errorf("create: %d %s", res.Status, res.Body)
		}
	}
	if created != 1 || conflicts != 19 {
		t.Fatalf("created %d, conflicts %d; want 1 and 19", created, conflicts)
	}
	if items := budgetsOf(m, 2026, 12); len(items) != 1 {
		t.Fatalf("budgets %+v", items)
	}
}

func TestCopyBudgetsOverwritesSameCategory(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	food := lt.Category(m.Client, "Food", api.EntryTypeExpense, nil)
	rent := lt.Category(m.Client, "Rent", api.EntryTypeExpense, nil)
	fun := lt.Category(m.Client, "Fun", api.EntryTypeExpense, nil)
	createBudget(m, food.ID, 2026, 12, 300000)
	createBudget(m, rent.ID, 2026, 12, 700000)
	createBudget(m, food.ID, 2027, 1, 1)
	createBudget(m, fun.ID, 2027, 1, 50000)
	var res api.BudgetCopyResult
	m.Do(http.MethodPost, "/api/account/budgets/copy", api.BudgetCopyRequest{FromYear: 2026, FromMonth: 12, ToYear: 2027, ToMonth: 1}).
		Want(http.StatusOK).JSON(&res)
	if res.Copied != 2 {
		t.Fatalf("copied %d", res.Copied)
	}
	got := map[int64]int64{}
	for _, b := range budgetsOf(m, 2027, 1) {
		got[b.CategoryID] = b.Amount
	}
	want := map[int64]int64{food.ID: 300000, rent.ID: 700000, fun.ID: 50000}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("January budgets %v, want %v", got, want)
	}
	m.Do(http.MethodPost, "/api/account/budgets/copy", api.BudgetCopyRequest{FromYear: 2027, FromMonth: 1, ToYear: 2027, ToMonth: 1}).
		WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
	// Another member's budgets are not copied.
	other := env.NewMember(apitest.AsPremium())
	other.Do(http.MethodPost, "/api/account/budgets/copy", api.BudgetCopyRequest{FromYear: 2026, FromMonth: 12, ToYear: 2027, ToMonth: 2}).
		Want(http.StatusOK).JSON(&res)
	if res.Copied != 0 || len(budgetsOf(m, 2027, 2)) != 0 {
		t.Fatalf("another member copied %d", res.Copied)
	}
}
