package budget_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	lt "github.com/nestegg/nestegg/internal/apitest/ledgertest"
)

func statusOf(m *apitest.Member, year, month int) api.BudgetStatus {
	var s api.BudgetStatus
	m.Do(http.MethodGet, fmt.Sprintf("/api/account/budgets/status?year=%d&month=%d", year, month), nil).Want(http.StatusOK).JSON(&s)
	return s
}

// TestBudgetStatusCountsSubCategoriesAndConfirmedExpensesOnly: a top-level
// budget counts its sub-categories; pending entries, income and transfers
// count nowhere; totals count nothing twice.
func TestBudgetStatusCountsSubCategoriesAndConfirmedExpensesOnly(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	w := lt.Wallet(m.Client, "Cash", api.WalletTypeCash, 0)
	food := lt.Category(m.Client, "Food", api.EntryTypeExpense, nil)
	lunch := lt.Category(m.Client, "Lunch", api.EntryTypeExpense, &food.ID)
	rent := lt.Category(m.Client, "Rent", api.EntryTypeExpense, nil)
	travel := lt.Category(m.Client, "Travel", api.EntryTypeExpense, nil)

	expense := func(day int, amount int64, category *int64) api.Entry {
		e := lt.Expense(lt.Date(2026, 11, day), amount, w.ID)
		e.CategoryID = category
		return lt.Entry(m.Client, e)
	}
	expense(1, 10000, &food.ID)
	expense(30, 5000, &lunch.ID)
	expense(15, 600000, &rent.ID)
	expense(16, 70000, &travel.ID)
	expense(17, 3000, nil)
	lt.Entry(m.Client, lt.Income(lt.Date(2026, 11, 10), 2000000, w.ID))
	// One more on the first day counts; a pending entry, a transfer side and
	// an entry of December do not.
	expense(1, 1, &food.ID)
	p := expense(2, 999, &food.ID)
	env.Exec(`UPDATE account_entry SET pending = true WHERE id = $1`, p.ID)
	tr := expense(3, 777, &food.ID)
	env.Exec(`WITH t AS (INSERT INTO transfer (member_id, transfer_date, amount) VALUES ($2, '2026-11-03', 777) RETURNING id)
		UPDATE account_entry SET transfer_id = (SELECT id FROM t) WHERE id = $1`, tr.ID, m.ID)
	env.Exec(`INSERT INTO account_entry (member_id, type, amount, entry_date, category_id) VALUES ($1, 'expense', 4242, '2026-12-01', $2)`, m.ID, food.ID)

	fb := createBudget(m, food.ID, 2026, 11, 20000)
	lb := createBudget(m, lunch.ID, 2026, 11, 4000)
	rb := createBudget(m, rent.ID, 2026, 11, 0)
	m.Do(http.MethodPut, "/api/account/budgets/income", api.BudgetIncomeRequest{Year: 2026, Month: 11, Amount: 3000000}).Want(http.StatusOK)

	s := statusOf(m, 2026, 11)
	byID := map[int64]api.BudgetStatusItem{}
	for _, it := range s.Items {
		byID[it.BudgetID] = it
	}
	if it := byID[fb.ID]; it.Spent != 15001 || it.Remaining != 4999 || it.Percent == nil || *it.Percent != 75.0 || it.ParentID != nil {
		t.Errorf("food %+v", it)
	}
	if it := byID[lb.ID]; it.Spent != 5000 || it.Remaining != -1000 || *it.Percent != 125.0 || it.ParentID == nil || *it.ParentID != food.ID {
		t.Errorf("lunch %+v", it)
	}
	if it := byID[rb.ID]; it.Spent != 600000 || it.Percent != nil {
		t.Errorf("rent %+v", it)
	}
	total := int64(10000 + 5000 + 600000 + 70000 + 3000 + 1)
	if s.Spent != total || s.Budget != 20000 || s.Remaining != 20000-total || s.Unbudgeted != 73000 {
		t.Errorf("totals spent %d budget %d remaining %d unbudgeted %d", s.Spent, s.Budget, s.Remaining, s.Unbudgeted)
	}
	if s.ExpectedIncome == nil || *s.ExpectedIncome != 3000000 || *s.IncomeLeft != 3000000-total {
		t.Errorf("income %v left %v", s.ExpectedIncome, s.IncomeLeft)
	}
	if s.From.String() != "2026-11-01" || s.To.String() != "2026-11-30" {
		t.Errorf("month %s..%s", s.From, s.To)
	}
	var inc api.BudgetIncome
	m.Do(http.MethodGet, "/api/account/budgets/income?year=2026&month=11", nil).Want(http.StatusOK).JSON(&inc)
	if inc.Amount == nil || *inc.Amount != 3000000 || inc.Received != 2000000 {
		t.Errorf("income %+v", inc)
	}
	m.Do(http.MethodGet, "/api/account/budgets/income?year=2026&month=10", nil).Want(http.StatusOK).JSON(&inc)
	if inc.Amount != nil || inc.Received != 0 {
		t.Errorf("October income %+v", inc)
	}

	// An empty month still answers its totals.
	if e := statusOf(m, 2027, 1); len(e.Items) != 0 || e.Spent != 0 || e.ExpectedIncome != nil {
		t.Errorf("empty month %+v", e)
	}
	// Another member sees nothing of it.
	if o := statusOf(env.NewMember(apitest.AsPremium()), 2026, 11); len(o.Items) != 0 || o.Spent != 0 {
		t.Errorf("another member's status %+v", o)
	}
}

// TestBudgetChartIsOneSeriesEndingAtTheMonth covers a year end.
func TestBudgetChartIsOneSeriesEndingAtTheMonth(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	w := lt.Wallet(m.Client, "Cash", api.WalletTypeCash, 0)
	food := lt.Category(m.Client, "Food", api.EntryTypeExpense, nil)
	lunch := lt.Category(m.Client, "Lunch", api.EntryTypeExpense, &food.ID)
	createBudget(m, food.ID, 2026, 12, 1000)
	createBudget(m, lunch.ID, 2026, 12, 400) // inside food's: not counted twice
	createBudget(m, lunch.ID, 2027, 1, 300)  // alone: counted
	lt.Entry(m.Client, lt.Expense(lt.Date(2026, 12, 31), 50, w.ID))
	lt.Entry(m.Client, lt.Expense(lt.Date(2027, 1, 1), 70, w.ID))
	lt.Entry(m.Client, lt.Expense(lt.Date(2026, 10, 31), 5, w.ID))
	var c api.BudgetChart
	m.Do(http.MethodGet, "/api/account/budgets/chart?year=2027&month=1&months=3", nil).Want(http.StatusOK).JSON(&c)
	want := []api.BudgetChartPoint{{Year: 2026, Month: 11, Budget: 0, Spent: 0}, {Year: 2026, Month: 12, Budget: 1000, Spent: 50}, {Year: 2027, Month: 1, Budget: 300, Spent: 70}}
	if fmt.Sprint(c.Points) != fmt.Sprint(want) {
		t.Fatalf("chart %+v, want %+v", c.Points, want)
	}
	m.Do(http.MethodGet, "/api/account/budgets/chart?year=2027&month=1", nil).Want(http.StatusOK).JSON(&c)
	if len(c.Points) != 6 || c.Points[0].Month != 8 || c.Points[0].Year != 2026 {
		t.Fatalf("default chart %+v", c.Points)
	}
}
