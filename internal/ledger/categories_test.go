package ledger_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	lt "github.com/nestegg/nestegg/internal/apitest/ledgertest"
)

func TestCategoryHierarchy(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	food := lt.Category(m.Client, "Food", api.EntryTypeExpense, nil)
	lunch := lt.Category(m.Client, "Lunch", api.EntryTypeExpense, &food.ID)
	salary := lt.Category(m.Client, "Salary", api.EntryTypeIncome, nil)
	if lunch.ParentID == nil || *lunch.ParentID != food.ID || lunch.SortOrder <= food.SortOrder {
		t.Fatalf("sub-category %+v", lunch)
	}
	hierarchy := func(method, path string, body api.CategoryRequest) {
		t.Helper()
		m.Do(method, path, body).WantProblem(http.StatusBadRequest, "CATEGORY_HIERARCHY")
	}
	// No third level; a sub-category has its parent's type.
	hierarchy(http.MethodPost, "/api/account/categories", api.CategoryRequest{Name: "Deep", Type: api.EntryTypeExpense, ParentID: &lunch.ID})
	hierarchy(http.MethodPost, "/api/account/categories", api.CategoryRequest{Name: "Bonus", Type: api.EntryTypeExpense, ParentID: &salary.ID})
	// A category with children cannot become a sub-category, nor its own parent.
	hierarchy(http.MethodPut, fmt.Sprintf("/api/account/categories/%d", food.ID), api.CategoryRequest{Name: "Food", Type: api.EntryTypeExpense, ParentID: &salary.ID})
	hierarchy(http.MethodPut, fmt.Sprintf("/api/account/categories/%d", salary.ID), api.CategoryRequest{Name: "Salary", Type: api.EntryTypeIncome, ParentID: &salary.ID})
	// ... nor be deleted.
	m.Do(http.MethodDelete, fmt.Sprintf("/api/account/categories/%d", food.ID), nil).WantProblem(http.StatusBadRequest, "CATEGORY_HIERARCHY")
	m.Do(http.MethodPost, "/api/account/categories", api.CategoryRequest{Name: "x", Type: api.EntryTypeExpense, ParentID: lt.Ptr[int64](987654321)}).
		WantProblem(http.StatusNotFound, "NOT_FOUND")

	// Retyping a parent retypes its children.
	var got api.Category
	m.Do(http.MethodPut, fmt.Sprintf("/api/account/categories/%d", food.ID), api.CategoryRequest{Name: "Meals", Type: api.EntryTypeIncome}).Want(http.StatusOK).JSON(&got)
	if got.Name != "Meals" || len(got.Children) != 1 || got.Children[0].Type != "income" {
		t.Fatalf("updated %+v", got)
	}
	// A sub-category moves to the top level.
	m.Do(http.MethodPut, fmt.Sprintf("/api/account/categories/%d", lunch.ID), api.CategoryRequest{Name: "Lunch", Type: api.EntryTypeIncome}).Want(http.StatusOK)

	m.Do(http.MethodPut, "/api/account/categories/reorder", api.ReorderRequest{Ids: []int64{salary.ID, lunch.ID}}).Want(http.StatusNoContent)
	var tree api.CategoryTree
	m.Do(http.MethodGet, "/api/account/categories", nil).Want(http.StatusOK).JSON(&tree)
	if len(tree.Items) != 3 || tree.Items[0].ID != salary.ID || tree.Items[1].ID != lunch.ID || tree.Items[2].ID != food.ID {
		t.Fatalf("tree %+v", tree.Items)
	}
}

func TestDeleteCategoryInUseNeedsMoveTo(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	cash := lt.Wallet(m.Client, "Cash", api.WalletTypeCash, 0)
	from := lt.Category(m.Client, "Cafe", api.EntryTypeExpense, nil)
	to := lt.Category(m.Client, "Food", api.EntryTypeExpense, nil)
	income := lt.Category(m.Client, "Salary", api.EntryTypeIncome, nil)
	body := lt.Expense(lt.Date(2026, 11, 1), 4500, cash.ID)
	body.CategoryID = &from.ID
	e := lt.Entry(m.Client, body)
	var rec api.Recurring
	m.Do(http.MethodPost, "/api/account/recurrings", api.RecurringRequest{Name: "Coffee club", Type: api.EntryTypeExpense, Amount: 10000, Day: 1, CategoryID: &from.ID}).
		Want(http.StatusCreated).JSON(&rec)

	path := fmt.Sprintf("/api/account/categories/%d", from.ID)
	m.Do(http.MethodDelete, path, nil).WantProblem(http.StatusConflict, "CONFLICT")
	m.Do(http.MethodDelete, path+fmt.Sprintf("?moveTo=%d", income.ID), nil).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
	m.Do(http.MethodDelete, path+fmt.Sprintf("?moveTo=%d", to.ID), nil).Want(http.StatusNoContent)
	var got api.Entry
	m.Do(http.MethodGet, fmt.Sprintf("/api/account/entries/%d", e.ID), nil).Want(http.StatusOK).JSON(&got)
	var recs api.RecurringList
	m.Do(http.MethodGet, "/api/account/recurrings", nil).Want(http.StatusOK).JSON(&recs)
	if *got.CategoryID != to.ID || *recs.Items[0].CategoryID != to.ID {
		t.Fatalf("entry category %v, recurring category %v; want %d", *got.CategoryID, recs.Items[0].CategoryID, to.ID)
	}
}

func TestImportDefaultCategories(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	admin := env.NewMember(apitest.AsAdmin())
	clearSeededDefaults(t, admin)
	var food, living api.Category
	admin.Do(http.MethodPost, "/api/admin/default-categories", api.CategoryRequest{Name: "Food", Type: api.EntryTypeExpense}).Want(http.StatusCreated).JSON(&food)
	admin.Do(http.MethodPost, "/api/admin/default-categories", api.CategoryRequest{Name: "Eating out", Type: api.EntryTypeExpense, ParentID: &food.ID}).Want(http.StatusCreated)
	admin.Do(http.MethodPost, "/api/admin/default-categories", api.CategoryRequest{Name: "Groceries", Type: api.EntryTypeExpense, ParentID: &food.ID}).Want(http.StatusCreated)
	admin.Do(http.MethodPost, "/api/admin/default-categories", api.CategoryRequest{Name: "Living", Type: api.EntryTypeExpense}).Want(http.StatusCreated).JSON(&living)
	admin.Do(http.MethodPost, "/api/admin/default-categories", api.CategoryRequest{Name: "Salary", Type: api.EntryTypeIncome}).Want(http.StatusCreated)
	// The same rules as members' categories.
	admin.Do(http.MethodDelete, fmt.Sprintf("/api/admin/default-categories/%d", food.ID), nil).WantProblem(http.StatusBadRequest, "CATEGORY_HIERARCHY")
	admin.Do(http.MethodPut, fmt.Sprintf("/api/admin/default-categories/%d", food.ID), api.CategoryRequest{Name: "Food", Type: api.EntryTypeExpense, ParentID: &living.ID}).
		WantProblem(http.StatusBadRequest, "CATEGORY_HIERARCHY")
	admin.Do(http.MethodPut, "/api/admin/default-categories/reorder", api.ReorderRequest{Ids: []int64{living.ID}}).Want(http.StatusNoContent)
	var one api.Category
	admin.Do(http.MethodGet, fmt.Sprintf("/api/admin/default-categories/%d", food.ID), nil).Want(http.StatusOK).JSON(&one)
	if len(one.Children) != 2 {
		t.Fatalf("default category %+v", one)
	}

	m := env.NewMember()
	mine := lt.Category(m.Client, "Food", api.EntryTypeExpense, nil)
	lt.Category(m.Client, "Groceries", api.EntryTypeExpense, &mine.ID)
	var tree api.CategoryTree
	m.Do(http.MethodPost, "/api/account/categories/import", nil).Want(http.StatusOK).JSON(&tree)
	m.Do(http.MethodPost, "/api/account/categories/import", nil).Want(http.StatusOK).JSON(&tree)
	names := map[string][]string{}
	for _, c := range tree.Items {
		for _, ch := range c.Children {
			names[c.Name] = append(names[c.Name], ch.Name)
		}
		if _, ok := names[c.Name]; !ok {
			names[c.Name] = nil
		}
	}
	if len(tree.Items) != 3 || len(names["Food"]) != 2 || tree.Items[0].ID != mine.ID {
		t.Fatalf("after importing twice: %v", names)
	}
}

// TestDeleteCategoryWithMoveToIsOneTransaction: when the deletion fails after
// the entries moved, the move is undone with it.
func TestDeleteCategoryWithMoveToIsOneTransaction(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	cash := lt.Wallet(m.Client, "Cash", api.WalletTypeCash, 0)
	from := lt.Category(m.Client, "Cafe", api.EntryTypeExpense, nil)
	to := lt.Category(m.Client, "Food", api.EntryTypeExpense, nil)
	body := lt.Expense(lt.Date(2026, 11, 1), 4500, cash.ID)
	body.CategoryID = &from.ID
	e := lt.Entry(m.Client, body)
	var rec api.Recurring
	m.Do(http.MethodPost, "/api/account/recurrings", api.RecurringRequest{Name: "Coffee club", Type: api.EntryTypeExpense, Amount: 10000, Day: 1, CategoryID: &from.ID}).
		Want(http.StatusCreated).JSON(&rec)

	env.Exec(`CREATE FUNCTION fail_category_delete() RETURNS trigger LANGUAGE plpgsql AS
		$$ BEGIN RAISE EXCEPTION 'category deletion is failing'; END $$`)
	env.Exec(`CREATE TRIGGER fail_category_delete BEFORE DELETE ON account_category FOR EACH ROW EXECUTE FUNCTION fail_category_delete()`)
	path := fmt.Sprintf("/api/account/categories/%d", from.ID)
	m.Do(http.MethodDelete, path+fmt.Sprintf("?moveTo=%d", to.ID), nil).WantProblem(http.StatusInternalServerError, "INTERNAL")

	var got api.Entry
	m.Do(http.MethodGet, fmt.Sprintf("/api/account/entries/%d", e.ID), nil).Want(http.StatusOK).JSON(&got)
	if got.CategoryID == nil || *got.CategoryID != from.ID {
		t.Fatalf("entry category %s, want still %d", idOf(got.CategoryID), from.ID)
	}
	var recs api.RecurringList
	m.Do(http.MethodGet, "/api/account/recurrings", nil).Want(http.StatusOK).JSON(&recs)
	if recs.Items[0].CategoryID == nil || *recs.Items[0].CategoryID != from.ID {
		t.Fatalf("recurring category %s, want still %d", idOf(recs.Items[0].CategoryID), from.ID)
	}
	var tree api.CategoryTree
	m.Do(http.MethodGet, "/api/account/categories", nil).Want(http.StatusOK).JSON(&tree)
	if len(tree.Items) != 2 || tree.Items[0].ID != from.ID {
		t.Fatalf("categories %+v, want Cafe still there", tree.Items)
	}

	// Without the failure the same request goes through.
	env.Exec(`DROP TRIGGER fail_category_delete ON account_category`)
	m.Do(http.MethodDelete, path+fmt.Sprintf("?moveTo=%d", to.ID), nil).Want(http.StatusNoContent)
	m.Do(http.MethodGet, fmt.Sprintf("/api/account/entries/%d", e.ID), nil).Want(http.StatusOK).JSON(&got)
	if *got.CategoryID != to.ID {
		t.Fatalf("entry category %d after the deletion, want %d", *got.CategoryID, to.ID)
	}
}

// TestDefaultCategoriesListUpdateDelete: an administrator lists, updates and
// deletes default categories; members' imported copies stay.
func TestDefaultCategoriesListUpdateDelete(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	admin := env.NewMember(apitest.AsAdmin())
	clearSeededDefaults(t, admin)
	const base = "/api/admin/default-categories"
	var food, groceries, salary api.Category
	admin.Do(http.MethodPost, base, api.CategoryRequest{Name: "Food", Type: api.EntryTypeExpense}).Want(http.StatusCreated).JSON(&food)
	admin.Do(http.MethodPost, base, api.CategoryRequest{Name: "Groceries", Type: api.EntryTypeExpense, ParentID: &food.ID}).Want(http.StatusCreated).JSON(&groceries)
	admin.Do(http.MethodPost, base, api.CategoryRequest{Name: "Salary", Type: api.EntryTypeIncome}).Want(http.StatusCreated).JSON(&salary)

	list := func() api.CategoryTree {
		t.Helper()
		var tree api.CategoryTree
		admin.Do(http.MethodGet, base, nil).Want(http.StatusOK).JSON(&tree)
		return tree
	}
	tree := list()
	if len(tree.Items) != 2 || tree.Items[0].ID != food.ID || len(tree.Items[0].Children) != 1 ||
		tree.Items[0].Children[0].ID != groceries.ID || tree.Items[1].ID != salary.ID {
		t.Fatalf("list %+v, want Food (with Groceries) then Salary", tree.Items)
	}

	var got api.Category
	admin.Do(http.MethodPut, fmt.Sprintf("%s/%d", base, salary.ID), api.CategoryRequest{Name: "Wages", Type: api.EntryTypeIncome}).Want(http.StatusOK).JSON(&got)
	if got.ID != salary.ID || got.Name != "Wages" || got.Type != "income" {
		t.Fatalf("updated %+v", got)
	}
	admin.Do(http.MethodPut, fmt.Sprintf("%s/%d", base, groceries.ID), api.CategoryRequest{Name: "Market", Type: api.EntryTypeExpense, ParentID: &food.ID}).
		Want(http.StatusOK).JSON(&got)
	if got.Name != "Market" || got.ParentID == nil || *got.ParentID != food.ID {
		t.Fatalf("updated sub-category %+v", got)
	}
	if tree := list(); tree.Items[1].Name != "Wages" || tree.Items[0].Children[0].Name != "Market" {
		t.Fatalf("list after updates %+v", tree.Items)
	}

	m := env.NewMember()
	m.Do(http.MethodPost, "/api/account/categories/import", nil).Want(http.StatusOK)

	admin.Do(http.MethodDelete, fmt.Sprintf("%s/%d", base, groceries.ID), nil).Want(http.StatusNoContent)
	admin.Do(http.MethodGet, fmt.Sprintf("%s/%d", base, groceries.ID), nil).WantProblem(http.StatusNotFound, "NOT_FOUND")
	admin.Do(http.MethodDelete, fmt.Sprintf("%s/%d", base, groceries.ID), nil).WantProblem(http.StatusNotFound, "NOT_FOUND")
	// Without its sub-category the parent goes too.
	admin.Do(http.MethodDelete, fmt.Sprintf("%s/%d", base, food.ID), nil).Want(http.StatusNoContent)
	if tree := list(); len(tree.Items) != 1 || tree.Items[0].ID != salary.ID {
		t.Fatalf("list after deletions %+v, want Wages alone", tree.Items)
	}

	var mine api.CategoryTree
	m.Do(http.MethodGet, "/api/account/categories", nil).Want(http.StatusOK).JSON(&mine)
	if len(mine.Items) != 2 || mine.Items[0].Name != "Food" || len(mine.Items[0].Children) != 1 || mine.Items[0].Children[0].Name != "Market" {
		t.Fatalf("member's copies %+v, want Food (with Market) and Wages kept", mine.Items)
	}
}

// clearSeededDefaults deletes the default categories a fresh install is
// seeded with, through the administrator's API, so a test of the
// administrator's operations starts from an empty list.
func clearSeededDefaults(t *testing.T, admin *apitest.Member) {
	t.Helper()
	var tree api.CategoryTree
	admin.Do(http.MethodGet, "/api/admin/default-categories", nil).Want(http.StatusOK).JSON(&tree)
	for _, c := range tree.Items {
		for _, ch := range c.Children {
			admin.Do(http.MethodDelete, fmt.Sprintf("/api/admin/default-categories/%d", ch.ID), nil).Want(http.StatusNoContent)
		}
		admin.Do(http.MethodDelete, fmt.Sprintf("/api/admin/default-categories/%d", c.ID), nil).Want(http.StatusNoContent)
	}
}

// A fresh install's seeded default tree: a new member's import gives a
// working two-level ledger of expense and income categories, and an entry
// can be written under an imported sub-category at once.
func TestFreshInstallImportsTheSeededDefaultCategories(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	var tree api.CategoryTree
	m.Do(http.MethodPost, "/api/account/categories/import", nil).Want(http.StatusOK).JSON(&tree)
	byName := map[string]api.Category{}
	types := map[string]int{}
	for _, c := range tree.Items {
		byName[c.Name] = c
		types[string(c.Type)]++
		for _, ch := range c.Children {
			if ch.Type != c.Type {
				t.Fatalf("%s/%s has type %s under a %s parent", c.Name, ch.Name, ch.Type, c.Type)
			}
		}
	}
	for _, name := range []string{"식비", "교통", "주거/통신", "급여", "부수입"} {
		if _, ok := byName[name]; !ok {
			t.Fatalf("the seeded tree has no %s: %v", name, tree.Items)
		}
	}
	if types[string(api.EntryTypeExpense)] < 10 || types[string(api.EntryTypeIncome)] < 2 || byName["급여"].Type != api.EntryTypeValueIncome {
		t.Fatalf("top-level types %v", types)
	}
	food := byName["식비"]
	if len(food.Children) == 0 {
		t.Fatal("식비 has no sub-categories")
	}
	cash := lt.Wallet(m.Client, "현금", api.WalletTypeCash, 0)
	e := lt.Expense(lt.Date(2026, 11, 16), 12000, cash.ID)
	e.CategoryID = &food.Children[0].ID
	m.Do(http.MethodPost, "/api/account/entries", e).Want(http.StatusCreated)
}
