package book_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	lt "github.com/nestegg/nestegg/internal/apitest/ledgertest"
	"github.com/nestegg/nestegg/internal/config"
	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/internal/dbtest"
	"github.com/nestegg/nestegg/internal/external/fx/fxtest"
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

// A member removed while writing, all at a start barrier: each write is
// accepted (it held the membership before the removal took it) or refused
// as a stranger's (404), never a 500; every accepted write is a row the
// removed member wrote, and after the removal every write is 404. Which
// commits first is shown, one order at a time, by the two tests after it.
func TestMemberRemovedWhileWriting(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	h := newHousehold(t, env)
	w := lt.Wallet(in(h.owner, h.book.ID), "Shared", api.WalletTypeCash, 0)
	const writes = 6
	retried := database.Retried(env.Pool)
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
	created := 0
	for _, s := range status[:writes] {
		switch s {
		case http.StatusCreated:
			created++
		case http.StatusNotFound:
		default:
			t.Fatalf("writes answered %v", status)
		}
	}
	var rows int
	if err := env.Pool.QueryRow(t.Context(), `SELECT count(*) FROM account_entry WHERE wallet_id = $1 AND created_by = $2`, w.ID, h.editor.ID).Scan(&rows); err != nil {
		t.Fatal(err)
	}
	if rows != created {
		t.Fatalf("%d writes answered 201, %d rows written by the removed member", created, rows)
	}
	if n := database.Retried(env.Pool) - retried; n != 0 {
		t.Errorf("%d transactions ran again after a deadlock: the hold is out of the lock order", n)
	}
	in(h.editor, h.book.ID).Do(http.MethodPost, "/api/account/entries",
		api.EntryRequest{Date: lt.Date(2026, 11, 16), Type: api.EntryTypeExpense, Amount: lt.Ptr[int64](1)}).WantProblem(http.StatusNotFound, "NOT_FOUND")
}

// waitingOn counts this database's backends waiting on a lock whose
// statement contains what.
func waitingOn(t *testing.T, env *apitest.Env, what string) int {
	t.Helper()
	var n int
	if err := env.Pool.QueryRow(t.Context(), `SELECT count(*) FROM pg_stat_activity
		WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%' || $1 || '%'`, what).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// holdLedgerLock takes book bookID's ledger lock exclusively in a
// transaction the test commits to let the writes waiting on it go (rolled
// back at the test's end otherwise).
func holdLedgerLock(t *testing.T, env *apitest.Env, bookID int64) pgx.Tx {
	t.Helper()
	var ledgerID int64
	if err := env.Pool.QueryRow(t.Context(), `SELECT ledger_member_id FROM book WHERE id = $1`, bookID).Scan(&ledgerID); err != nil {
		t.Fatal(err)
	}
	tx, err := env.Pool.Begin(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = tx.Rollback(context.Background()) }) // a no-op after Commit
	if _, err := tx.Exec(t.Context(), `SELECT pg_advisory_xact_lock(hashtextextended('ledger:' || $1::bigint, 0))`, ledgerID); err != nil {
		t.Fatal(err)
	}
	return tx
}

// removeDuringWrite stages a write of h's editor in flight while the owner
// removes them: the test holds the book's ledger lock, so the write stops
// inside its transaction (it must not answer before), the removal must wait
// for it, and once the lock goes the removal answers 204. It answers the
// write's response.
func removeDuringWrite(t *testing.T, env *apitest.Env, h household, write func() *apitest.Response) *apitest.Response {
	t.Helper()
	tx := holdLedgerLock(t, env, h.book.ID)
	wrote := make(chan *apitest.Response, 1)
	go func() { wrote <- write() }()
	dbtest.Eventually(t, "the write waits for the ledger lock", func() bool {
		if len(wrote) > 0 {
			res := <-wrote
			t.Fatalf("the write answered %d %s while the test held the ledger lock", res.Status, res.Body)
		}
		return waitingOn(t, env, "ledger:") == 1
	})
	removed := make(chan *apitest.Response, 1)
	go func() {
		removed <- h.owner.Do(http.MethodDelete, fmt.Sprintf("/api/books/%d/members/%d", h.book.ID, h.editor.ID), nil)
	}()
	dbtest.Eventually(t, "the removal waits for the write", func() bool {
		if len(removed) > 0 {
			t.Fatalf("the removal answered %d while the removed member's write was in flight", (<-removed).Status)
		}
		return waitingOn(t, env, "left_at") == 1
	})
	if err := tx.Commit(t.Context()); err != nil {
		t.Fatal(err)
	}
	res := <-wrote
	(<-removed).Want(http.StatusNoContent)
	return res
}

// TestMembershipIsHeldThroughTheWrite shows each order of a write and its
// writer's removal (or demotion), staged, in one server: both fail without
// the hold (book.Select's Hold, taken by the ledger's lock step).
func TestMembershipIsHeldThroughTheWrite(t *testing.T) {
	t.Parallel()
	fake := fxtest.New(t)
	env := apitest.New(t, apitest.WithConfig(func(cfg *config.Config) { cfg.FXAPIURL = fake.URL }))
	t.Run("removal waits for the write in flight", func(t *testing.T) { removalWaitsForTheWriteInFlight(t, env) })
	t.Run("write after removal or demotion is refused", func(t *testing.T) { writeAfterRemovalOrDemotionIsRefused(t, env, fake) })
}

// A removal waits for the removed member's write in flight: the write holds
// its membership to its commit, so it commits before the removal does.
// Staged: the test holds the book's ledger lock, so the editor's write stops
// inside its transaction; the removal must then wait for it (before the
// hold, it committed at once while the write went on to commit after it).
func removalWaitsForTheWriteInFlight(t *testing.T, env *apitest.Env) {
	h := newHousehold(t, env)
	var e api.Entry
	removeDuringWrite(t, env, h, func() *apitest.Response {
		return in(h.editor, h.book.ID).Do(http.MethodPost, "/api/account/entries",
			api.EntryRequest{Date: lt.Date(2026, 11, 16), Type: api.EntryTypeExpense, Amount: lt.Ptr[int64](3)})
	}).Want(http.StatusCreated).JSON(&e)
	if e.CreatedBy.MemberID != h.editor.ID {
		t.Fatalf("entry written by %+v", e.CreatedBy)
	}
	in(h.editor, h.book.ID).Do(http.MethodPost, "/api/account/entries",
		api.EntryRequest{Date: lt.Date(2026, 11, 16), Type: api.EntryTypeExpense, Amount: lt.Ptr[int64](1)}).WantProblem(http.StatusNotFound, "NOT_FOUND")
}

// TestBudgetWritesHoldTheMembership stages, for each budget write, the
// order of removalWaitsForTheWriteInFlight: budgets, one-time budgets and
// expected income are ledger data (a restore replaces them), so their writes
// take the ledger lock in shared mode and hold the writer's membership to
// their commit. Each fails with its handler's lock step removed (the write
// then never waits for the ledger lock the test holds).
func TestBudgetWritesHoldTheMembership(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	for _, c := range []struct {
		name   string
		status int
		write  func(editor *apitest.Client, category int64) *apitest.Response
	}{
		{"expected income", http.StatusOK, func(editor *apitest.Client, _ int64) *apitest.Response {
			return editor.Do(http.MethodPut, "/api/account/budgets/income", api.BudgetIncomeRequest{Year: 2026, Month: 11, Amount: 5})
		}},
		{"budget create", http.StatusCreated, func(editor *apitest.Client, category int64) *apitest.Response {
			return editor.Do(http.MethodPost, "/api/account/budgets", api.BudgetRequest{CategoryID: category, Year: 2026, Month: 11, Amount: 5})
		}},
		{"budget copy", http.StatusOK, func(editor *apitest.Client, _ int64) *apitest.Response {
			return editor.Do(http.MethodPost, "/api/account/budgets/copy", api.BudgetCopyRequest{FromYear: 2026, FromMonth: 10, ToYear: 2026, ToMonth: 11})
		}},
		{"one-time budget create", http.StatusCreated, func(editor *apitest.Client, _ int64) *apitest.Response {
			return editor.Do(http.MethodPost, "/api/account/budgets/onetime", api.OnetimeBudgetRequest{
				Name: "Trip", Amount: 5, StartDate: lt.Date(2026, 11, 1), EndDate: lt.Date(2026, 11, 30)})
		}},
	} {
		// One at a time: waitingOn counts the database's waiting backends,
		// and the subtests share one.
		t.Run(c.name, func(t *testing.T) {
			h := newHousehold(t, env, apitest.AsPremium())
			category := lt.Category(in(h.owner, h.book.ID), "Food", api.EntryTypeExpense, nil)
			in(h.owner, h.book.ID).Do(http.MethodPost, "/api/account/budgets", // what the copy copies
				api.BudgetRequest{CategoryID: category.ID, Year: 2026, Month: 10, Amount: 5}).Want(http.StatusCreated)
			removeDuringWrite(t, env, h, func() *apitest.Response { return c.write(in(h.editor, h.book.ID), category.ID) }).Want(c.status)
			c.write(in(h.editor, h.book.ID), category.ID).WantProblem(http.StatusNotFound, "NOT_FOUND")
		})
	}
}

// A write that entered the book before its writer was removed or demoted,
// and reaches its transaction after, is refused as they left it: 404 for
// the removed, 403 for the demoted; nothing is written. Staged: the write
// is held at its exchange-rate lookup (after the selector, before its
// transaction) while the change commits.
func writeAfterRemovalOrDemotionIsRefused(t *testing.T, env *apitest.Env, fake *fxtest.Server) {
	h := newHousehold(t, env)
	second := env.NewMember()
	join(t, second, invite(t, h.owner, h.book.ID, api.BookInvitationRoleEDITOR))
	for _, c := range []struct {
		who      *apitest.Member
		currency string
		change   func() *apitest.Response
		status   int
		code     string
	}{
		{h.editor, "USD", func() *apitest.Response {
			return h.owner.Do(http.MethodDelete, fmt.Sprintf("/api/books/%d/members/%d", h.book.ID, h.editor.ID), nil)
		}, http.StatusNotFound, "NOT_FOUND"},
		{second, "EUR", func() *apitest.Response {
			return h.owner.Do(http.MethodPut, fmt.Sprintf("/api/books/%d/members/%d", h.book.ID, second.ID),
				api.BookMemberRequest{Role: api.BookRoleVIEWER, Weight: 1})
		}, http.StatusForbidden, "FORBIDDEN"},
	} {
		fake.Block()
		wrote := make(chan *apitest.Response, 1)
		go func() {
			wrote <- in(c.who, h.book.ID).Do(http.MethodPost, "/api/account/entries", api.EntryRequest{
				Date: lt.Date(2026, 11, 16), Type: api.EntryTypeExpense, Currency: lt.Ptr(c.currency), OriginalAmount: lt.Ptr("2"),
			})
		}()
		dbtest.Eventually(t, "the write is at its rate lookup", func() bool { return fake.InFlight() == 1 })
		if res := c.change(); res.Status != http.StatusOK && res.Status != http.StatusNoContent {
			fake.Unblock()
			t.Fatalf("change answered %d %s", res.Status, res.Body)
		}
		fake.Unblock()
		(<-wrote).WantProblem(c.status, c.code)
		var n int
		if err := env.Pool.QueryRow(t.Context(), `SELECT count(*) FROM account_entry WHERE created_by = $1`, c.who.ID).Scan(&n); err != nil || n != 0 {
			t.Fatalf("%d rows written by member %d after the change (%v)", n, c.who.ID, err)
		}
	}
}
