package book_test

import (
	"fmt"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	lt "github.com/nestegg/nestegg/internal/apitest/ledgertest"
	"github.com/nestegg/nestegg/internal/book"
	"github.com/nestegg/nestegg/internal/config"
	"github.com/nestegg/nestegg/internal/ledger"
)

// in is the member's client acting in book id.
func in(m *apitest.Member, id int64) *apitest.Client {
	return m.Client.WithHeader(book.Header, strconv.FormatInt(id, 10))
}

func createBook(t *testing.T, m *apitest.Member, name string) api.Book {
	t.Helper()
	var b api.Book
	m.Do(http.MethodPost, "/api/books", api.BookRequest{Name: name}).Want(http.StatusCreated).JSON(&b)
	return b
}

func invite(t *testing.T, m *apitest.Member, id int64, role api.BookInvitationRole) string {
	t.Helper()
	var inv api.BookInvitation
	m.Do(http.MethodPost, fmt.Sprintf("/api/books/%d/invitations", id), api.BookInvitationRequest{Role: &role}).
		Want(http.StatusCreated).JSON(&inv)
	return inv.Code
}

func join(t *testing.T, m *apitest.Member, code string) api.Book {
	t.Helper()
	var b api.Book
	m.Do(http.MethodPost, "/api/books/join", api.JoinBookRequest{Code: code}).Want(http.StatusOK).JSON(&b)
	return b
}

// household is a book with an OWNER, an EDITOR and a VIEWER.
type household struct {
	book                  api.Book
	owner, editor, viewer *apitest.Member
}

func newHousehold(t *testing.T, env *apitest.Env, opts ...apitest.MemberOption) household {
	t.Helper()
	h := household{owner: env.NewMember(opts...), editor: env.NewMember(), viewer: env.NewMember()}
	h.book = createBook(t, h.owner, "Home")
	join(t, h.editor, invite(t, h.owner, h.book.ID, api.BookInvitationRoleEDITOR))
	join(t, h.viewer, invite(t, h.owner, h.book.ID, api.BookInvitationRoleVIEWER))
	return h
}

func TestBookLifecycle(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	h := newHousehold(t, env)
	stranger := env.NewMember()

	if h.book.Role != api.BookRoleOWNER || h.book.MonthStartDay != 1 || len(h.book.Members) != 1 {
		t.Fatalf("new book %+v", h.book)
	}
	var got api.Book
	h.editor.Do(http.MethodGet, fmt.Sprintf("/api/books/%d", h.book.ID), nil).Want(http.StatusOK).JSON(&got)
	if got.Role != api.BookRoleEDITOR || len(got.Members) != 3 || got.Members[0].MemberID != h.owner.ID {
		t.Fatalf("book as the editor sees it: %+v", got)
	}
	var list api.BookList
	h.viewer.Do(http.MethodGet, "/api/books", nil).Want(http.StatusOK).JSON(&list)
	if len(list.Items) != 1 || list.Items[0].Role != api.BookRoleVIEWER {
		t.Fatalf("viewer's books %+v", list)
	}
	stranger.Do(http.MethodGet, "/api/books", nil).Want(http.StatusOK).JSON(&list)
	if len(list.Items) != 0 {
		t.Fatalf("a stranger's books: %+v", list)
	}
	stranger.Do(http.MethodGet, fmt.Sprintf("/api/books/%d", h.book.ID), nil).WantProblem(http.StatusNotFound, "NOT_FOUND")

	path := fmt.Sprintf("/api/books/%d", h.book.ID)
	h.editor.Do(http.MethodPut, path, api.BookUpdateRequest{Name: "Mine", MonthStartDay: 25}).WantProblem(http.StatusForbidden, "FORBIDDEN")
	stranger.Do(http.MethodPut, path, api.BookUpdateRequest{Name: "Mine", MonthStartDay: 25}).WantProblem(http.StatusNotFound, "NOT_FOUND")
	h.owner.Do(http.MethodPut, path, api.BookUpdateRequest{Name: "Our home", MonthStartDay: 25}).Want(http.StatusOK).JSON(&got)
	if got.Name != "Our home" || got.MonthStartDay != 25 {
		t.Fatalf("updated book %+v", got)
	}

	// A record in the book, its feed; then the book goes and every former
	// member's device is answered 404, the feed included.
	w := lt.Wallet(in(h.editor, h.book.ID), "Shared cash", api.WalletTypeCash, 1000)
	in(h.viewer, h.book.ID).Do(http.MethodGet, "/api/account/changes", nil).Want(http.StatusOK)
	h.editor.Do(http.MethodDelete, path, nil).WantProblem(http.StatusForbidden, "FORBIDDEN")
	h.owner.Do(http.MethodDelete, path, nil).Want(http.StatusNoContent)
	for _, m := range []*apitest.Member{h.owner, h.editor, h.viewer} {
		in(m, h.book.ID).Do(http.MethodGet, "/api/account/changes", nil).WantProblem(http.StatusNotFound, "NOT_FOUND")
		in(m, h.book.ID).Do(http.MethodGet, fmt.Sprintf("/api/account/wallets/%d", w.ID), nil).WantProblem(http.StatusNotFound, "NOT_FOUND")
		m.Do(http.MethodGet, path, nil).WantProblem(http.StatusNotFound, "NOT_FOUND")
	}
	var n int
	if err := env.Pool.QueryRow(t.Context(), `SELECT count(*) FROM wallet WHERE id = $1`, w.ID).Scan(&n); err != nil || n != 0 {
		t.Fatalf("the deleted book's wallet: %d rows, %v", n, err)
	}
}

func TestBooksPerMemberLimit(t *testing.T) {
	t.Parallel()
	env := apitest.New(t, apitest.WithConfig(func(c *config.Config) { c.BooksPerMember = 2 }))
	m := env.NewMember()
	createBook(t, m, "One")
	b := createBook(t, m, "Two")
	m.Do(http.MethodPost, "/api/books", api.BookRequest{Name: "Three"}).WantProblem(http.StatusConflict, "CONFLICT")
	// Joining counts too.
	other := env.NewMember()
	third := createBook(t, other, "Theirs")
	m.Do(http.MethodPost, "/api/books/join", api.JoinBookRequest{Code: invite(t, other, third.ID, api.BookInvitationRoleEDITOR)}).
		WantProblem(http.StatusConflict, "CONFLICT")
	// Leaving makes room.
	m.Do(http.MethodDelete, fmt.Sprintf("/api/books/%d/members/%d", b.ID, m.ID), nil).Want(http.StatusNoContent)
	createBook(t, m, "Three")
}

func TestInvitations(t *testing.T) {
	t.Parallel()
	env := apitest.New(t, apitest.WithConfig(func(c *config.Config) { c.BookMemberLimit = 3 }))
	owner, a, b, c := env.NewMember(), env.NewMember(), env.NewMember(), env.NewMember()
	bk := createBook(t, owner, "Home")
	invPath := fmt.Sprintf("/api/books/%d/invitations", bk.ID)

	// Only an OWNER invites; a stranger's invitation is a 404.
	a.Do(http.MethodPost, invPath, api.BookInvitationRequest{}).WantProblem(http.StatusNotFound, "NOT_FOUND")

	// Single use.
	code := invite(t, owner, bk.ID, api.BookInvitationRoleEDITOR)
	if got := join(t, a, code); got.Role != api.BookRoleEDITOR || got.ID != bk.ID {
		t.Fatalf("joined %+v", got)
	}
	b.Do(http.MethodPost, "/api/books/join", api.JoinBookRequest{Code: code}).WantProblem(http.StatusNotFound, "NOT_FOUND")
	a.Do(http.MethodPost, invPath, api.BookInvitationRequest{}).WantProblem(http.StatusForbidden, "FORBIDDEN")

	// Already a member: 409, and the code stays usable.
	code = invite(t, owner, bk.ID, api.BookInvitationRoleVIEWER)
	a.Do(http.MethodPost, "/api/books/join", api.JoinBookRequest{Code: code}).WantProblem(http.StatusConflict, "CONFLICT")

	// Revoked: 404; revoking twice: 404.
	owner.Do(http.MethodDelete, invPath+"/"+code, nil).Want(http.StatusNoContent)
	owner.Do(http.MethodDelete, invPath+"/"+code, nil).WantProblem(http.StatusNotFound, "NOT_FOUND")
	b.Do(http.MethodPost, "/api/books/join", api.JoinBookRequest{Code: code}).WantProblem(http.StatusNotFound, "NOT_FOUND")

	// Expired after 7 days (the test clock), not before.
	code = invite(t, owner, bk.ID, api.BookInvitationRoleVIEWER)
	late := invite(t, owner, bk.ID, api.BookInvitationRoleVIEWER)
	env.Clock.Advance(book.InvitationTTL - time.Minute)
	if got := join(t, b, code); got.Role != api.BookRoleVIEWER {
		t.Fatalf("joined %+v", got)
	}
	env.Clock.Advance(2 * time.Minute)
	c.Do(http.MethodPost, "/api/books/join", api.JoinBookRequest{Code: late}).WantProblem(http.StatusNotFound, "NOT_FOUND")

	// The member limit (3 here): a fourth is 409.
	code = invite(t, owner, bk.ID, api.BookInvitationRoleVIEWER)
	c.Do(http.MethodPost, "/api/books/join", api.JoinBookRequest{Code: code}).WantProblem(http.StatusConflict, "CONFLICT")
	c.Do(http.MethodPost, "/api/books/join", api.JoinBookRequest{Code: "NOSUCHCODE"}).WantProblem(http.StatusNotFound, "NOT_FOUND")
}

func TestRolesAndHandover(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	h := newHousehold(t, env)
	id := h.book.ID
	member := func(m int64) string { return fmt.Sprintf("/api/books/%d/members/%d", id, m) }

	// The last OWNER cannot be demoted; EDITORs change no roles.
	h.owner.Do(http.MethodPut, member(h.owner.ID), api.BookMemberRequest{Role: api.BookRoleEDITOR, Weight: 1}).WantProblem(http.StatusConflict, "CONFLICT")
	h.editor.Do(http.MethodPut, member(h.viewer.ID), api.BookMemberRequest{Role: api.BookRoleEDITOR, Weight: 1}).WantProblem(http.StatusForbidden, "FORBIDDEN")
	h.editor.Do(http.MethodDelete, member(h.viewer.ID), nil).WantProblem(http.StatusForbidden, "FORBIDDEN")
	var b api.Book
	h.owner.Do(http.MethodPut, member(h.editor.ID), api.BookMemberRequest{Role: api.BookRoleEDITOR, Weight: 3}).Want(http.StatusOK).JSON(&b)
	if b.Members[1].Weight != 3 {
		t.Fatalf("weight %+v", b.Members)
	}
	h.owner.Do(http.MethodPut, member(999999), api.BookMemberRequest{Role: api.BookRoleEDITOR, Weight: 1}).WantProblem(http.StatusNotFound, "NOT_FOUND")

	// The last OWNER leaves: the longest-standing EDITOR takes over.
	h.owner.Do(http.MethodDelete, member(h.owner.ID), nil).Want(http.StatusNoContent)
	h.editor.Do(http.MethodGet, fmt.Sprintf("/api/books/%d", id), nil).Want(http.StatusOK).JSON(&b)
	if b.Role != api.BookRoleOWNER || len(b.Members) != 2 {
		t.Fatalf("after the owner left: %+v", b)
	}
	in(h.owner, id).Do(http.MethodGet, "/api/account/wallets", nil).WantProblem(http.StatusNotFound, "NOT_FOUND")
	// Then the VIEWER, when no EDITOR is left.
	h.editor.Do(http.MethodDelete, member(h.editor.ID), nil).Want(http.StatusNoContent)
	h.viewer.Do(http.MethodGet, fmt.Sprintf("/api/books/%d", id), nil).Want(http.StatusOK).JSON(&b)
	if b.Role != api.BookRoleOWNER {
		t.Fatalf("after the editor left: %+v", b)
	}
	// Nobody left: the book is gone.
	h.viewer.Do(http.MethodDelete, member(h.viewer.ID), nil).Want(http.StatusNoContent)
	var n int
	if err := env.Pool.QueryRow(t.Context(), `SELECT count(*) FROM book WHERE id = $1`, id).Scan(&n); err != nil || n != 0 {
		t.Fatalf("an empty book stays: %d, %v", n, err)
	}
}

func TestAccountDeletionHandsBooksOn(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	h := newHousehold(t, env)
	alone := createBook(t, h.owner, "Alone")
	e := lt.Entry(in(h.owner, h.book.ID), api.EntryRequest{Date: lt.Date(2026, 11, 16), Type: api.EntryTypeExpense, Amount: lt.Ptr[int64](700)})
	h.owner.Do(http.MethodDelete, "/api/auth/me", nil).Want(http.StatusNoContent)

	var b api.Book
	h.editor.Do(http.MethodGet, fmt.Sprintf("/api/books/%d", h.book.ID), nil).Want(http.StatusOK).JSON(&b)
	if b.Role != api.BookRoleOWNER {
		t.Fatalf("after the owner's account went: %+v", b)
	}
	var got api.Entry
	in(h.editor, h.book.ID).Do(http.MethodGet, fmt.Sprintf("/api/account/entries/%d", e.ID), nil).Want(http.StatusOK).JSON(&got)
	if got.CreatedBy.MemberID != h.owner.ID || !got.CreatedBy.Former || got.CreatedBy.Name != book.FormerName {
		t.Fatalf("a deleted member's entry: createdBy %+v", got.CreatedBy)
	}
	var n int
	if err := env.Pool.QueryRow(t.Context(), `SELECT count(*) FROM book WHERE id = $1`, alone.ID).Scan(&n); err != nil || n != 0 {
		t.Fatalf("the deleted member's own book stays: %d, %v", n, err)
	}
}

func TestSelector(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	h := newHousehold(t, env, apitest.AsPremium())
	id := h.book.ID

	// A record written in the book is the book's, not the writer's.
	w := lt.Wallet(in(h.editor, id), "Shared", api.WalletTypeCash, 0)
	var wallets api.WalletList
	in(h.viewer, id).Do(http.MethodGet, "/api/account/wallets", nil).Want(http.StatusOK).JSON(&wallets)
	if len(wallets.Items) != 1 || wallets.Items[0].ID != w.ID {
		t.Fatalf("the viewer sees %+v", wallets)
	}
	h.editor.Do(http.MethodGet, "/api/account/wallets", nil).Want(http.StatusOK).JSON(&wallets)
	if len(wallets.Items) != 0 {
		t.Fatalf("the editor's personal ledger holds %+v", wallets)
	}
	h.editor.Do(http.MethodGet, fmt.Sprintf("/api/account/wallets/%d", w.ID), nil).WantProblem(http.StatusNotFound, "NOT_FOUND")

	// A VIEWER reads only.
	in(h.viewer, id).Do(http.MethodPost, "/api/account/wallets", api.WalletRequest{Name: "No", Type: api.WalletTypeCash}).
		WantProblem(http.StatusForbidden, "FORBIDDEN")
	// Backup is the OWNER's.
	in(h.editor, id).Do(http.MethodGet, "/api/account/backup", nil).WantProblem(http.StatusForbidden, "FORBIDDEN")
	// The book's PREMIUM follows its OWNER: a FREE editor uses budgets.
	c := lt.Category(in(h.editor, id), "Food", api.EntryTypeExpense, nil)
	in(h.editor, id).Do(http.MethodPost, "/api/account/budgets", api.BudgetRequest{CategoryID: c.ID, Year: 2026, Month: 11, Amount: 1000}).
		Want(http.StatusCreated)
	h.editor.Do(http.MethodGet, "/api/account/budgets?year=2026&month=11", nil).WantProblem(http.StatusForbidden, "PREMIUM_REQUIRED")
	// Investments and net worth stay personal.
	in(h.owner, id).Do(http.MethodGet, "/api/account/invest/stocks", nil).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
	in(h.owner, id).Do(http.MethodGet, "/api/account/networth/trend", nil).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
	// A selector that is no id: 400 naming it.
	p := h.owner.Client.WithHeader(book.Header, "abc").Raw().Do(http.MethodGet, "/api/account/wallets", nil).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
	if len(p.Errors) != 1 || p.Errors[0].Field != book.Header {
		t.Fatalf("problem %+v", p)
	}
}

func TestIdempotencyKeysAreScopedToTheBook(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	h := newHousehold(t, env)
	body := api.WalletRequest{Name: "Same", Type: api.WalletTypeCash}
	var personal, inBook, editors api.Wallet
	h.owner.Client.WithHeader("Idempotency-Key", "k1").Do(http.MethodPost, "/api/account/wallets", body).Want(http.StatusCreated).JSON(&personal)
	in(h.owner, h.book.ID).WithHeader("Idempotency-Key", "k1").Do(http.MethodPost, "/api/account/wallets", body).Want(http.StatusCreated).JSON(&inBook)
	in(h.editor, h.book.ID).WithHeader("Idempotency-Key", "k1").Do(http.MethodPost, "/api/account/wallets", body).Want(http.StatusCreated).JSON(&editors)
	if personal.ID == inBook.ID || inBook.ID == editors.ID {
		t.Fatalf("one key answered for another scope: %d %d %d", personal.ID, inBook.ID, editors.ID)
	}
	res := in(h.owner, h.book.ID).WithHeader("Idempotency-Key", "k1").Do(http.MethodPost, "/api/account/wallets", body).Want(http.StatusCreated)
	var again api.Wallet
	res.JSON(&again)
	if again.ID != inBook.ID {
		t.Fatalf("a retry in the book made %d, want %d", again.ID, inBook.ID)
	}
}

func TestAttributionAndFilters(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	h := newHousehold(t, env)
	id := h.book.ID
	day := lt.Date(2026, 11, 16)

	mine := lt.Entry(in(h.owner, id), api.EntryRequest{Date: day, Type: api.EntryTypeExpense, Amount: lt.Ptr[int64](100)})
	paidByOwner := lt.Entry(in(h.editor, id), api.EntryRequest{Date: day, Type: api.EntryTypeExpense, Amount: lt.Ptr[int64](200), PaidBy: &h.owner.ID})
	if mine.CreatedBy.MemberID != h.owner.ID || mine.PaidBy.MemberID != h.owner.ID || mine.CreatedBy.Former {
		t.Fatalf("owner's entry: %+v %+v", mine.CreatedBy, mine.PaidBy)
	}
	if paidByOwner.CreatedBy.MemberID != h.editor.ID || paidByOwner.PaidBy.MemberID != h.owner.ID {
		t.Fatalf("editor's entry paid by the owner: %+v %+v", paidByOwner.CreatedBy, paidByOwner.PaidBy)
	}
	stranger := env.NewMember()
	p := in(h.editor, id).Do(http.MethodPost, "/api/account/entries", api.EntryRequest{Date: day, Type: api.EntryTypeExpense, Amount: lt.Ptr[int64](1), PaidBy: &stranger.ID}).
		WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
	if len(p.Errors) != 1 || p.Errors[0].Field != "/paidBy" {
		t.Fatalf("problem %+v", p)
	}
	// In a personal ledger the owner is both, and paidBy can only be them.
	personal := lt.Entry(h.editor.Client, api.EntryRequest{Date: day, Type: api.EntryTypeExpense, Amount: lt.Ptr[int64](5)})
	if personal.CreatedBy.MemberID != h.editor.ID || personal.PaidBy.MemberID != h.editor.ID || personal.CreatedBy.Former || personal.CreatedBy.Name == "" {
		t.Fatalf("personal entry: %+v %+v", personal.CreatedBy, personal.PaidBy)
	}
	h.editor.Do(http.MethodPost, "/api/account/entries", api.EntryRequest{Date: day, Type: api.EntryTypeExpense, Amount: lt.Ptr[int64](1), PaidBy: &h.owner.ID}).
		WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")

	list := func(query string) []int64 {
		t.Helper()
		var page api.EntryPage
		in(h.viewer, id).Do(http.MethodGet, "/api/account/entries?year=2026&month=11&"+query, nil).Want(http.StatusOK).JSON(&page)
		var ids []int64
		for _, e := range page.Items {
			ids = append(ids, e.ID)
		}
		return ids
	}
	if got := list(fmt.Sprintf("createdBy=%d", h.editor.ID)); len(got) != 1 || got[0] != paidByOwner.ID {
		t.Fatalf("createdBy=editor: %v", got)
	}
	if got := list(fmt.Sprintf("paidBy=%d", h.owner.ID)); len(got) != 2 {
		t.Fatalf("paidBy=owner: %v", got)
	}
	if got := list(fmt.Sprintf("paidBy=%d", h.editor.ID)); len(got) != 0 {
		t.Fatalf("paidBy=editor: %v", got)
	}

	// paidBy is editable; a transfer carries both too.
	var upd api.Entry
	in(h.owner, id).Do(http.MethodPut, fmt.Sprintf("/api/account/entries/%d", mine.ID),
		api.EntryRequest{Date: day, Type: api.EntryTypeExpense, Amount: lt.Ptr[int64](100), PaidBy: &h.editor.ID}).Want(http.StatusOK).JSON(&upd)
	if upd.PaidBy.MemberID != h.editor.ID || upd.CreatedBy.MemberID != h.owner.ID {
		t.Fatalf("updated: %+v %+v", upd.CreatedBy, upd.PaidBy)
	}
	var tr api.Transfer
	in(h.editor, id).Do(http.MethodPost, "/api/account/transfers", api.TransferRequest{
		Date: day, Amount: 10, FromWalletID: lt.Wallet(in(h.editor, id), "A", api.WalletTypeBank, 0).ID,
		ToWalletID: lt.Wallet(in(h.editor, id), "B", api.WalletTypeCash, 0).ID,
	}).Want(http.StatusCreated).JSON(&tr)
	if tr.CreatedBy.MemberID != h.editor.ID || tr.PaidBy.MemberID != h.editor.ID {
		t.Fatalf("transfer: %+v %+v", tr.CreatedBy, tr.PaidBy)
	}

	// A member who leaves is a former member on their records.
	h.editor.Do(http.MethodDelete, fmt.Sprintf("/api/books/%d/members/%d", id, h.editor.ID), nil).Want(http.StatusNoContent)
	var got api.Entry
	in(h.viewer, id).Do(http.MethodGet, fmt.Sprintf("/api/account/entries/%d", paidByOwner.ID), nil).Want(http.StatusOK).JSON(&got)
	if !got.CreatedBy.Former || got.CreatedBy.Name != book.FormerName || got.CreatedBy.MemberID != h.editor.ID || got.PaidBy.Former {
		t.Fatalf("after the editor left: %+v %+v", got.CreatedBy, got.PaidBy)
	}
}

func TestNoPointsForBookWrites(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	h := newHousehold(t, env)
	var ledgerID int64
	if err := env.Pool.QueryRow(t.Context(), `SELECT ledger_member_id FROM book WHERE id = $1`, h.book.ID).Scan(&ledgerID); err != nil {
		t.Fatal(err)
	}
	// The month's last day, every other day covered: the write of the last
	// day completes the month. In the personal ledger that is the
	// month-complete bonus; in the book nobody gets points.
	env.Clock.Set(time.Date(2026, 11, 30, 23, 0, 0, 0, apitest.Start.Location()))
	for _, owner := range []int64{ledgerID, h.editor.ID} {
		env.Exec(`INSERT INTO account_entry (member_id, type, amount, entry_date)
			SELECT $1, 'expense', 1000, d::date FROM generate_series('2026-11-01'::date, '2026-11-29'::date, interval '1 day') d`, owner)
	}
	last := api.EntryRequest{Date: lt.Date(2026, 11, 30), Type: api.EntryTypeExpense, Amount: lt.Ptr[int64](1)}
	lt.Entry(in(h.editor, h.book.ID), last)
	points := func(id int64) (n int) {
		t.Helper()
		if err := env.Pool.QueryRow(t.Context(), `SELECT count(*) FROM point_history WHERE member_id = $1`, id).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	for _, id := range []int64{ledgerID, h.editor.ID, h.owner.ID, h.viewer.ID} {
		if n := points(id); n != 0 {
			t.Fatalf("member %d got %d point awards for a book write", id, n)
		}
	}
	// The same write in the editor's personal ledger is awarded (the hook
	// runs after the answer: poll).
	lt.Entry(h.editor.Client, last)
	deadline := time.Now().Add(5 * time.Second)
	for points(h.editor.ID) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the personal month-complete bonus never came: the scenario proves nothing")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if n := points(ledgerID); n != 0 {
		t.Fatalf("the book's ledger owner got %d point awards", n)
	}
}

// Free limits count per book: a FREE member with the free limit's wallets
// of a type in their personal ledger still creates as many in a FREE
// owner's book, and the next one there is refused as in a personal ledger.
func TestFreeLimitsCountPerBook(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	h := newHousehold(t, env)
	oneMore := map[string]string{"name": "One more", "type": string(api.WalletTypeCash)}
	for i := range ledger.FreeLimit {
		lt.Wallet(h.editor.Client, fmt.Sprintf("Mine %d", i), api.WalletTypeCash, 0)
	}
	h.editor.Do(http.MethodPost, "/api/account/wallets", oneMore).WantProblem(http.StatusBadRequest, "FREE_LIMIT_EXCEEDED")
	for i := range ledger.FreeLimit {
		lt.Wallet(in(h.editor, h.book.ID), fmt.Sprintf("Ours %d", i), api.WalletTypeCash, 0)
	}
	in(h.owner, h.book.ID).Do(http.MethodPost, "/api/account/wallets", oneMore).WantProblem(http.StatusBadRequest, "FREE_LIMIT_EXCEEDED")
}
