package book_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	lt "github.com/nestegg/nestegg/internal/apitest/ledgertest"
	"github.com/nestegg/nestegg/internal/book"
)

// payers reads byPaidBy as memberId → (name, former, income, expense, net),
// checking that its sums equal the answer's income and expense.
func payers(t *testing.T, by *[]api.StatsPayer, income, expense int64) map[int64]api.StatsPayer {
	t.Helper()
	if by == nil {
		t.Fatal("no byPaidBy with groupBy=paidBy")
	}
	out := map[int64]api.StatsPayer{}
	var in, ex int64
	for i, p := range *by {
		if i > 0 && (*by)[i-1].PaidBy.MemberID >= p.PaidBy.MemberID {
			t.Fatalf("byPaidBy not by member id: %+v", *by)
		}
		if p.Net != p.Income-p.Expense {
			t.Fatalf("payer %+v: net is not income - expense", p)
		}
		in += p.Income
		ex += p.Expense
		out[p.PaidBy.MemberID] = p
	}
	if in != income || ex != expense {
		t.Fatalf("byPaidBy sums %d/%d, answer %d/%d: %+v", in, ex, income, expense, *by)
	}
	return out
}

func TestStatisticsGroupByPaidBy(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	h := newHousehold(t, env, apitest.AsPremium())
	id := h.book.ID
	day := lt.Date(2026, 11, 16)
	expense := func(c *apitest.Client, amount int64, paidBy *int64) api.Entry {
		return lt.Entry(c, api.EntryRequest{Date: day, Type: api.EntryTypeExpense, Amount: &amount, PaidBy: paidBy})
	}
	expense(in(h.owner, id), 100, nil)
	expense(in(h.editor, id), 200, &h.owner.ID)
	expense(in(h.editor, id), 300, nil)
	lt.Entry(in(h.editor, id), api.EntryRequest{Date: day, Type: api.EntryTypeIncome, Amount: lt.Ptr[int64](50)})
	// A row written by no member (the recurring job, an import, a restore)
	// has no payer: it is the book's longest-standing OWNER's, as its
	// entry's answer says.
	nobody := expense(in(h.editor, id), 7, nil)
	if _, err := env.Pool.Exec(t.Context(), `UPDATE account_entry SET paid_by = NULL WHERE id = $1`, nobody.ID); err != nil {
		t.Fatal(err)
	}
	// A transfer counts nowhere.
	in(h.editor, id).Do(http.MethodPost, "/api/account/transfers", api.TransferRequest{
		Date: day, Amount: 1000, FromWalletID: lt.Wallet(in(h.editor, id), "A", api.WalletTypeBank, 0).ID,
		ToWalletID: lt.Wallet(in(h.editor, id), "B", api.WalletTypeCash, 0).ID,
	}).Want(http.StatusCreated)

	check := func(who *apitest.Member, editorFormer bool) {
		t.Helper()
		c := in(who, id)
		want := func(got map[int64]api.StatsPayer) {
			t.Helper()
			o, e := got[h.owner.ID], got[h.editor.ID]
			if len(got) != 2 || o.Income != 0 || o.Expense != 307 || o.PaidBy.Former ||
				e.Income != 50 || e.Expense != 300 || e.PaidBy.Former != editorFormer {
				t.Fatalf("byPaidBy as %d sees it: %+v", who.ID, got)
			}
			if editorFormer && e.PaidBy.Name != book.FormerName {
				t.Fatalf("a former member is named %q", e.PaidBy.Name)
			}
		}
		var m api.MonthlyStats
		c.Do(http.MethodGet, "/api/account/stats/monthly?year=2026&month=11&groupBy=paidBy", nil).Want(http.StatusOK).JSON(&m)
		want(payers(t, m.ByPaidBy, m.Income, m.Expense))
		var y api.YearlyStats
		c.Do(http.MethodGet, "/api/account/stats/yearly?year=2026&groupBy=paidBy", nil).Want(http.StatusOK).JSON(&y)
		want(payers(t, y.ByPaidBy, y.Income, y.Expense))
		var r api.CategoryStats
		c.Do(http.MethodGet, "/api/account/stats/categories?from=2026-11-01&to=2026-11-30&groupBy=paidBy", nil).Want(http.StatusOK).JSON(&r)
		want(payers(t, r.ByPaidBy, r.Income, r.Expense))
		// A range without entries has no payer.
		c.Do(http.MethodGet, "/api/account/stats/categories?from=2026-12-01&to=2026-12-31&groupBy=paidBy", nil).Want(http.StatusOK).JSON(&r)
		if r.ByPaidBy == nil || len(*r.ByPaidBy) != 0 {
			t.Fatalf("empty range: %+v", r.ByPaidBy)
		}
	}
	// A VIEWER reads it.
	check(h.viewer, false)

	// Without the parameter the answer is as before.
	var m api.MonthlyStats
	in(h.viewer, id).Do(http.MethodGet, "/api/account/stats/monthly?year=2026&month=11", nil).Want(http.StatusOK).JSON(&m)
	if m.ByPaidBy != nil || m.Expense != 607 {
		t.Fatalf("without groupBy: %+v", m)
	}
	// Another value is 400 naming the parameter.
	for _, path := range []string{
		"/api/account/stats/monthly?year=2026&month=11&groupBy=createdBy",
		"/api/account/stats/yearly?year=2026&groupBy=",
		"/api/account/stats/categories?from=2026-11-01&to=2026-11-30&groupBy=PAIDBY",
	} {
		p := in(h.viewer, id).Raw().Do(http.MethodGet, path, nil).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
		if len(p.Errors) != 1 || p.Errors[0].Field != "groupBy" {
			t.Fatalf("%s: %+v", path, p)
		}
	}
	// Another book, or one the caller never joined, is 404.
	stranger := env.NewMember(apitest.AsPremium())
	in(stranger, id).Do(http.MethodGet, "/api/account/stats/monthly?year=2026&month=11&groupBy=paidBy", nil).
		WantProblem(http.StatusNotFound, "NOT_FOUND")

	// The editor leaves: their sums stay, named a former member; their
	// device is answered 404.
	h.editor.Do(http.MethodDelete, fmt.Sprintf("/api/books/%d/members/%d", id, h.editor.ID), nil).Want(http.StatusNoContent)
	check(h.viewer, true)
	in(h.editor, id).Do(http.MethodGet, "/api/account/stats/monthly?year=2026&month=11&groupBy=paidBy", nil).
		WantProblem(http.StatusNotFound, "NOT_FOUND")

	// In a personal ledger every row is the owner's.
	expense(h.owner.Client, 40, nil)
	lt.Entry(h.owner.Client, api.EntryRequest{Date: day, Type: api.EntryTypeIncome, Amount: lt.Ptr[int64](90)})
	h.owner.Do(http.MethodGet, "/api/account/stats/monthly?year=2026&month=11&groupBy=paidBy", nil).Want(http.StatusOK).JSON(&m)
	got := payers(t, m.ByPaidBy, m.Income, m.Expense)
	if o := got[h.owner.ID]; len(got) != 1 || o.Income != 90 || o.Expense != 40 || o.PaidBy.Former || o.PaidBy.Name == "" {
		t.Fatalf("personal ledger: %+v", got)
	}
}
