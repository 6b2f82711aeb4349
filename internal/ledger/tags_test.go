package ledger_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	lt "github.com/nestegg/nestegg/internal/apitest/ledgertest"
	"github.com/nestegg/nestegg/internal/ledger"
)

func TestTags(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	var a, b api.Tag
	m.Do(http.MethodPost, "/api/account/tags", api.TagRequest{Name: "travel"}).Want(http.StatusCreated).JSON(&a)
	m.Do(http.MethodPost, "/api/account/tags", api.TagRequest{Name: "work"}).Want(http.StatusCreated).JSON(&b)
	m.Do(http.MethodPost, "/api/account/tags", api.TagRequest{Name: " travel "}).WantProblem(http.StatusConflict, "CONFLICT")
	m.Do(http.MethodPut, fmt.Sprintf("/api/account/tags/%d", b.ID), api.TagRequest{Name: "travel"}).WantProblem(http.StatusConflict, "CONFLICT")

	cash := lt.Wallet(m.Client, "Cash", api.WalletTypeCash, 0)
	body := lt.Expense(lt.Date(2026, 11, 5), 100, cash.ID)
	body.Tags = &[]string{"travel"}
	e := lt.Entry(m.Client, body)
	m.Do(http.MethodPut, fmt.Sprintf("/api/account/tags/%d", a.ID), api.TagRequest{Name: "trips"}).Want(http.StatusOK)
	var got api.Entry
	m.Do(http.MethodGet, fmt.Sprintf("/api/account/entries/%d", e.ID), nil).Want(http.StatusOK).JSON(&got)
	if len(got.Tags) != 1 || got.Tags[0] != "trips" {
		t.Fatalf("entry tags %v after rename", got.Tags)
	}
	m.Do(http.MethodPost, "/api/account/tags/reorder", api.ReorderRequest{Ids: []int64{b.ID, a.ID}}).Want(http.StatusNoContent)
	var list api.TagList
	m.Do(http.MethodGet, "/api/account/tags", nil).Want(http.StatusOK).JSON(&list)
	if list.Items[0].ID != b.ID {
		t.Fatalf("order %+v", list.Items)
	}
	m.Do(http.MethodDelete, fmt.Sprintf("/api/account/tags/%d", a.ID), nil).Want(http.StatusNoContent)
	m.Do(http.MethodGet, fmt.Sprintf("/api/account/entries/%d", e.ID), nil).Want(http.StatusOK).JSON(&got)
	if len(got.Tags) != 0 {
		t.Fatalf("entry tags %v after deleting the tag", got.Tags)
	}
}

func TestRecurringAndQuickEntries(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	cash := lt.Wallet(m.Client, "Cash", api.WalletTypeCash, 0)
	var r api.Recurring
	m.Do(http.MethodPost, "/api/account/recurrings", api.RecurringRequest{Name: "Rent", Type: api.EntryTypeExpense, Amount: 650000, Day: 31, WalletID: &cash.ID}).
		Want(http.StatusCreated).JSON(&r)
	m.Do(http.MethodPut, fmt.Sprintf("/api/account/recurrings/%d", r.ID), api.RecurringRequest{Name: "Rent", Type: api.EntryTypeExpense, Amount: 700000, Day: 25}).
		Want(http.StatusOK).JSON(&r)
	if r.Amount != 700000 || r.Day != 25 || r.WalletID != nil {
		t.Fatalf("recurring %+v", r)
	}
	for _, raw := range []string{`{"name":"x","type":"expense","amount":1,"day":0}`, `{"name":"x","type":"expense","amount":1,"day":32}`, `{"name":"","type":"expense","amount":1,"day":1}`} {
		if res := m.Raw().Do(http.MethodPost, "/api/account/recurrings", raw); res.Status != http.StatusBadRequest {
			t.Errorf("%s: %d", raw, res.Status)
		}
	}
	m.Do(http.MethodDelete, fmt.Sprintf("/api/account/recurrings/%d", r.ID), nil).Want(http.StatusNoContent)
	m.Do(http.MethodDelete, fmt.Sprintf("/api/account/recurrings/%d", r.ID), nil).WantProblem(http.StatusNotFound, "NOT_FOUND")

	var q api.QuickEntry
	m.Do(http.MethodPost, "/api/account/quick-entries", api.QuickEntryRequest{Name: "Coffee", Type: api.EntryTypeExpense, Amount: 4500, WalletID: &cash.ID}).
		Want(http.StatusCreated).JSON(&q)
	m.Do(http.MethodPost, "/api/account/quick-entries", api.QuickEntryRequest{Name: "Coffee", Type: api.EntryTypeExpense, Amount: 4500, Tags: &[]string{"x"}}).
		WantProblem(http.StatusForbidden, "PREMIUM_REQUIRED")
	m.Do(http.MethodPut, fmt.Sprintf("/api/account/quick-entries/%d", q.ID), api.QuickEntryRequest{Name: "Tea", Type: api.EntryTypeExpense, Amount: 3000}).
		Want(http.StatusOK).JSON(&q)
	var ql api.QuickEntryList
	m.Do(http.MethodGet, "/api/account/quick-entries", nil).Want(http.StatusOK).JSON(&ql)
	if len(ql.Items) != 1 || ql.Items[0].Name != "Tea" || ql.Items[0].Tags == nil {
		t.Fatalf("quick entries %+v", ql.Items)
	}

	p := env.NewMember(apitest.AsPremium())
	p.Do(http.MethodPost, "/api/account/quick-entries", api.QuickEntryRequest{Name: "Trip", Type: api.EntryTypeExpense, Amount: 1, Tags: &[]string{"travel"}}).
		Want(http.StatusCreated).JSON(&q)
	var tags api.TagList
	p.Do(http.MethodGet, "/api/account/tags", nil).Want(http.StatusOK).JSON(&tags)
	if len(q.Tags) != 1 || len(tags.Items) != 1 {
		t.Fatalf("quick entry tags %v, member tags %+v", q.Tags, tags.Items)
	}
	m.Do(http.MethodDelete, fmt.Sprintf("/api/account/quick-entries/%d", q.ID), nil).WantProblem(http.StatusNotFound, "NOT_FOUND")
}

// TestFreeRecurringLimitIsExactUnderParallelCreation: 20 at once leave 2.
func TestFreeRecurringLimitIsExactUnderParallelCreation(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	answers := apitest.TogetherV(20, func(i int) *apitest.Response {
		return m.Do(http.MethodPost, "/api/account/recurrings", api.RecurringRequest{Name: fmt.Sprintf("R%d", i), Type: api.EntryTypeExpense, Amount: 1, Day: 1})
	})
	created, refused := 0, 0
	for _, res := range answers {
		switch res.Status {
		case http.StatusCreated:
			created++
		case http.StatusBadRequest:
			refused++
			res.WantProblem(http.StatusBadRequest, "FREE_LIMIT_EXCEEDED")
		default:
			t.Errorf("status %d: %s", res.Status, res.Body)
		}
	}
	var list api.RecurringList
	m.Do(http.MethodGet, "/api/account/recurrings", nil).Want(http.StatusOK).JSON(&list)
	if created != ledger.FreeLimit || refused != 20-ledger.FreeLimit || len(list.Items) != ledger.FreeLimit {
		t.Fatalf("%d created, %d refused, %d stored; want %d, %d, %d", created, refused, len(list.Items), ledger.FreeLimit, 20-ledger.FreeLimit, ledger.FreeLimit)
	}
	p := env.NewMember(apitest.AsPremium())
	for i := range 3 {
		p.Do(http.MethodPost, "/api/account/recurrings", api.RecurringRequest{Name: fmt.Sprintf("R%d", i), Type: api.EntryTypeExpense, Amount: 1, Day: 1}).Want(http.StatusCreated)
	}
}

func TestDeleteQuickEntry(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	var coffee, tea api.QuickEntry
	m.Do(http.MethodPost, "/api/account/quick-entries", api.QuickEntryRequest{Name: "Coffee", Type: api.EntryTypeExpense, Amount: 4500}).
		Want(http.StatusCreated).JSON(&coffee)
	m.Do(http.MethodPost, "/api/account/quick-entries", api.QuickEntryRequest{Name: "Tea", Type: api.EntryTypeExpense, Amount: 3000}).
		Want(http.StatusCreated).JSON(&tea)

	m.Do(http.MethodDelete, fmt.Sprintf("/api/account/quick-entries/%d", coffee.ID), nil).Want(http.StatusNoContent)
	var ql api.QuickEntryList
	m.Do(http.MethodGet, "/api/account/quick-entries", nil).Want(http.StatusOK).JSON(&ql)
	if len(ql.Items) != 1 || ql.Items[0].ID != tea.ID {
		t.Fatalf("quick entries %+v, want Tea alone", ql.Items)
	}
	m.Do(http.MethodDelete, fmt.Sprintf("/api/account/quick-entries/%d", coffee.ID), nil).WantProblem(http.StatusNotFound, "NOT_FOUND")
}

// TestAdministratorsHaveNoRecurringLimit: the FREE limit does not hold for
// an administrator on the FREE plan.
func TestAdministratorsHaveNoRecurringLimit(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	admin := env.NewMember(apitest.AsAdmin())
	for i := range ledger.FreeLimit + 1 {
		admin.Do(http.MethodPost, "/api/account/recurrings", api.RecurringRequest{Name: fmt.Sprintf("R%d", i), Type: api.EntryTypeExpense, Amount: 1, Day: 1}).
			Want(http.StatusCreated)
	}
	var list api.RecurringList
	admin.Do(http.MethodGet, "/api/account/recurrings", nil).Want(http.StatusOK).JSON(&list)
	if len(list.Items) != ledger.FreeLimit+1 {
		t.Fatalf("%d recurring entries stored, want %d", len(list.Items), ledger.FreeLimit+1)
	}
}
