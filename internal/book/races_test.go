package book_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	lt "github.com/nestegg/nestegg/internal/apitest/ledgertest"
	"github.com/nestegg/nestegg/internal/database"
)

// One code accepted by several members at once: exactly one joins, the
// others are 404 (the code is used).
func TestOneCodeAcceptedAtOnce(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	owner := env.NewMember()
	bk := createBook(t, owner, "Home")
	code := invite(t, owner, bk.ID, api.BookInvitationRoleEDITOR)
	joiners := []*apitest.Member{env.NewMember(), env.NewMember(), env.NewMember(), env.NewMember()}
	status := apitest.TogetherV(len(joiners), func(i int) int {
		return joiners[i].Do(http.MethodPost, "/api/books/join", api.JoinBookRequest{Code: code}).Status
	})
	joined := 0
	for _, s := range status {
		switch s {
		case http.StatusOK:
			joined++
		case http.StatusNotFound:
		default:
			t.Fatalf("answers %v", status)
		}
	}
	var b api.Book
	owner.Do(http.MethodGet, fmt.Sprintf("/api/books/%d", bk.ID), nil).Want(http.StatusOK).JSON(&b)
	if joined != 1 || len(b.Members) != 2 {
		t.Fatalf("%d joined (%v), the book has %d members", joined, status, len(b.Members))
	}
}

// Two OWNERs demote each other at once: the book keeps an OWNER (one of
// the two changes is refused as the last OWNER's demotion).
func TestTwoOwnersDemoteEachOtherAtOnce(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	for round := 0; round < 5; round++ {
		a, b := env.NewMember(), env.NewMember()
		bk := createBook(t, a, "Home")
		join(t, b, invite(t, a, bk.ID, api.BookInvitationRoleEDITOR))
		a.Do(http.MethodPut, fmt.Sprintf("/api/books/%d/members/%d", bk.ID, b.ID), api.BookMemberRequest{Role: api.BookRoleOWNER, Weight: 1}).Want(http.StatusOK)
		owners := []*apitest.Member{a, b}
		status := apitest.TogetherV(2, func(i int) int {
			other := owners[1-i]
			return owners[i].Do(http.MethodPut, fmt.Sprintf("/api/books/%d/members/%d", bk.ID, other.ID),
				api.BookMemberRequest{Role: api.BookRoleEDITOR, Weight: 1}).Status
		})
		var got api.Book
		a.Do(http.MethodGet, fmt.Sprintf("/api/books/%d", bk.ID), nil).Want(http.StatusOK).JSON(&got)
		n := 0
		for _, m := range got.Members {
			if m.Role == api.BookRoleOWNER {
				n++
			}
		}
		// The second to run is no OWNER any more (403), or finds the
		// other the last OWNER (409).
		ok := (status[0] == http.StatusOK) != (status[1] == http.StatusOK)
		if n != 1 || !ok {
			t.Fatalf("round %d: answers %v, %d owners", round, status, n)
		}
	}
	if n := database.Retried(env.Pool); n != 0 {
		t.Fatalf("%d transactions ran again (a deadlock or serialization failure)", n)
	}
}

// The last OWNER leaves while another member leaves too: the book is handed
// on to whoever stays, or deleted when nobody does; never ownerless.
func TestLastOwnerLeavesAtOnceWithAnother(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	for round := 0; round < 5; round++ {
		owner, editor, viewer := env.NewMember(), env.NewMember(), env.NewMember()
		bk := createBook(t, owner, "Home")
		join(t, editor, invite(t, owner, bk.ID, api.BookInvitationRoleEDITOR))
		join(t, viewer, invite(t, owner, bk.ID, api.BookInvitationRoleVIEWER))
		leavers := []*apitest.Member{owner, editor}
		status := apitest.TogetherV(2, func(i int) int {
			return leavers[i].Do(http.MethodDelete, fmt.Sprintf("/api/books/%d/members/%d", bk.ID, leavers[i].ID), nil).Status
		})
		if status[0] != http.StatusNoContent || status[1] != http.StatusNoContent {
			t.Fatalf("round %d: answers %v", round, status)
		}
		var got api.Book
		viewer.Do(http.MethodGet, fmt.Sprintf("/api/books/%d", bk.ID), nil).Want(http.StatusOK).JSON(&got)
		if got.Role != api.BookRoleOWNER || len(got.Members) != 1 {
			t.Fatalf("round %d: the one left: %+v", round, got)
		}
	}
}

// A member removed while writing: each write is accepted (its selector ran
// before the removal) or refused as a stranger's (404), never a 500; after
// the removal every write is 404.
func TestMemberRemovedWhileWriting(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	h := newHousehold(t, env)
	w := lt.Wallet(in(h.owner, h.book.ID), "Shared", api.WalletTypeCash, 0)
	const writes = 6
	status := apitest.TogetherV(writes+1, func(i int) int {
		if i == writes {
			return h.owner.Do(http.MethodDelete, fmt.Sprintf("/api/books/%d/members/%d", h.book.ID, h.editor.ID), nil).Status
		}
		return in(h.editor, h.book.ID).Do(http.MethodPost, "/api/account/entries",
			api.EntryRequest{Date: lt.Date(2026, 11, 16), Type: api.EntryTypeExpense, Amount: lt.Ptr[int64](1), WalletID: &w.ID}).Status
	})
	if status[writes] != http.StatusNoContent {
		t.Fatalf("removal answered %d", status[writes])
	}
	for _, s := range status[:writes] {
		if s != http.StatusCreated && s != http.StatusNotFound {
			t.Fatalf("writes answered %v", status)
		}
	}
	in(h.editor, h.book.ID).Do(http.MethodPost, "/api/account/entries",
		api.EntryRequest{Date: lt.Date(2026, 11, 16), Type: api.EntryTypeExpense, Amount: lt.Ptr[int64](1)}).WantProblem(http.StatusNotFound, "NOT_FOUND")
}
