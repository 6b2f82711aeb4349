package server_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	lt "github.com/nestegg/nestegg/internal/apitest/ledgertest"
	"github.com/nestegg/nestegg/internal/server"
)

// versionedCaseOf names, for each versioned record's contract path, its
// case in versionedCases: a versioned record without one fails the sweep.
var versionedCaseOf = map[string]string{
	"/api/account/wallets/{id}":         "wallet",
	"/api/account/categories/{id}":      "category",
	"/api/account/tags/{id}":            "tag",
	"/api/account/entries/{id}":         "entry",
	"/api/account/recurrings/{id}":      "recurring",
	"/api/account/quick-entries/{id}":   "quick entry",
	"/api/account/budgets/{id}":         "budget",
	"/api/account/budgets/onetime/{id}": "onetime budget",
	"/api/account/transfers/{id}":       "transfer",
	"/api/account/invest/stocks/{id}":   "stock",
	"/api/account/invest/trades/{id}":   "trade",
	"/api/board/posts/{id}":             "post",
	"/api/board/comments/{id}":          "comment",
	"/api/auth/profile":                 "profile",
}

// editsOf are the PUT bodies of tc's record at path (the families whose
// edits name records made with it).
func editsOf(tc versionedCase, m *apitest.Member, path string, aux [2]int64) func(i int) any {
	switch tc.name {
	case "trade":
		return func(i int) any {
			return api.TradeRequest{StockID: aux[0], Side: api.TradeSideBuy, Date: lt.Date(2026, 11, 16), Quantity: api.DecimalAmount(fmt.Sprint(3 + i)), Price: "70000"}
		}
	case "transfer":
		return func(i int) any {
			return api.TransferRequest{Date: lt.Date(2026, 11, 16), Amount: int64(300 + i), FromWalletID: aux[0], ToWalletID: aux[1]}
		}
	case "entry":
		var e api.Entry
		m.Do(http.MethodGet, path, nil).Want(http.StatusOK).JSON(&e)
		return func(i int) any {
			amount := int64(200 + i)
			return api.EntryRequest{Date: lt.Date(2026, 11, 16), Type: api.EntryTypeExpense, Amount: &amount, WalletID: e.WalletID}
		}
	}
	return tc.edit
}

// TestEveryWriteChecksIfMatch sweeps every versioned record of the contract
// (the server's versioned map) and each PUT and DELETE the contract has on
// it: a stale If-Match is 412 PRECONDITION_FAILED with the record's current
// ETag (a fresh GET's, where a GET exists) and changes nothing; the current
// one writes, a PUT answering the ETag the next GET answers; a DELETE of a
// record gone is 404, not 412. A handler that ignores If-Match fails it.
func TestEveryWriteChecksIfMatch(t *testing.T) {
	t.Parallel()
	doc, err := server.ParseContract()
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]versionedCase{}
	for _, tc := range versionedCases() {
		cases[tc.name] = tc
	}
	for path, answered := range server.VersionedPaths() {
		item := doc.Paths.Find(path)
		if item == nil {
			t.Errorf("%s: not in the contract", path)
			continue
		}
		tc, ok := cases[versionedCaseOf[path]]
		if !ok {
			t.Errorf("%s: no case in versionedCases to sweep it with", path)
			continue
		}
		if item.Put == nil {
			t.Errorf("%s: the sweep stales a tag with a PUT, and the contract has none", path)
			continue
		}
		if item.Delete != nil && !tc.delete {
			t.Errorf("%s: the contract has DELETE, its case none", path)
		}
		// One database per record (a response fails the test of the
		// environment it was made in), its PUTs, then its DELETE.
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env := apitest.New(t)
			m := env.NewMember(apitest.AsPremium())
			var aux [2]int64
			at := tc.create(t, m, &aux)
			edit := editsOf(tc, m, at, aux)
			stale, current := staleAndCurrent(t, m, at, answered, edit)
			refused := m.WithHeader("If-Match", stale).Do(http.MethodPut, at, edit(3))
			refused.WantProblem(http.StatusPreconditionFailed, "PRECONDITION_FAILED")
			if got := refused.Header.Get("ETag"); got != current {
				t.Errorf("412 ETag %q, want the current %q", got, current)
			}
			if answered {
				if got := m.Do(http.MethodGet, at, nil).Want(http.StatusOK).Header.Get("ETag"); got != current {
					t.Errorf("after the 412 a GET answers ETag %q, want %q (unchanged)", got, current)
				}
			}
			next := m.WithHeader("If-Match", current).Do(http.MethodPut, at, edit(4)).Want(http.StatusOK).Header.Get("ETag")
			if next == "" || next == current {
				t.Errorf("PUT under the current If-Match answered ETag %q (before %q)", next, current)
			}
			if answered {
				if got := m.Do(http.MethodGet, at, nil).Want(http.StatusOK).Header.Get("ETag"); got != next {
					t.Errorf("GET ETag %q, the PUT answered %q", got, next)
				}
			}
			// The tag the PUT answered is the current one: a write under it
			// passes (a PUT answering a tag that is not would fail here).
			last := m.WithHeader("If-Match", next).Do(http.MethodPut, at, edit(5)).Want(http.StatusOK).Header.Get("ETag")
			if item.Delete == nil || !tc.delete {
				return
			}

			if answered {
				if got := m.Do(http.MethodGet, at, nil).Want(http.StatusOK).Header.Get("ETag"); got != last {
					t.Errorf("GET ETag %q, the PUT answered %q", got, last)
				}
			}

			// DELETE: next is stale now.
			refused = m.WithHeader("If-Match", next).Do(http.MethodDelete, at, nil)
			refused.WantProblem(http.StatusPreconditionFailed, "PRECONDITION_FAILED")
			if got := refused.Header.Get("ETag"); got != last {
				t.Errorf("DELETE's 412 ETag %q, want the current %q", got, last)
			}
			current = last
			// Still there, unchanged: the current tag still writes.
			m.WithHeader("If-Match", current).Do(http.MethodDelete, at, nil).Want(http.StatusNoContent)
			if answered {
				m.Do(http.MethodGet, at, nil).Want(http.StatusNotFound)
			}
			m.WithHeader("If-Match", current).Do(http.MethodDelete, at, nil).WantProblem(http.StatusNotFound, "NOT_FOUND")
		})
	}
}

// staleAndCurrent writes the record at path twice and answers the ETag the
// first write left (stale now) and the current one (the second's, equal to
// a GET's where one exists).
func staleAndCurrent(t *testing.T, m *apitest.Member, path string, answered bool, edit func(i int) any) (stale, current string) {
	t.Helper()
	stale = m.Do(http.MethodPut, path, edit(1)).Want(http.StatusOK).Header.Get("ETag")
	current = m.WithHeader("If-Match", stale).Do(http.MethodPut, path, edit(2)).Want(http.StatusOK).Header.Get("ETag")
	if stale == "" || current == "" || stale == current {
		t.Fatalf("two writes answered ETags %q and %q", stale, current)
	}
	if answered {
		if got := m.Do(http.MethodGet, path, nil).Want(http.StatusOK).Header.Get("ETag"); got != current {
			t.Fatalf("GET ETag %q, the PUT answered %q", got, current)
		}
	}
	return stale, current
}
