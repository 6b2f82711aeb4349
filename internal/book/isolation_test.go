package book_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"testing"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	lt "github.com/nestegg/nestegg/internal/apitest/ledgertest"
	"github.com/nestegg/nestegg/internal/book"
	"github.com/nestegg/nestegg/internal/server"
)

const bookParam = "#/components/parameters/BookId"

type sweepOp struct {
	method, path, id string
	body             bool
}

// bookOperations walks the contract: every operation that declares the
// book selector, and every /api/account operation, which must either
// declare it or be one of the personal-only ones.
func bookOperations(t *testing.T) []sweepOp {
	t.Helper()
	doc, err := server.ParseContract()
	if err != nil {
		t.Fatal(err)
	}
	personal := []string{"/api/account/invest/", "/api/account/networth/", "/api/account/entries/parse", "/api/account/ocr/receipt"}
	var ops []sweepOp
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			takes := false
			for _, p := range op.Parameters {
				takes = takes || p.Ref == bookParam
			}
			isPersonal := false
			for _, p := range personal {
				isPersonal = isPersonal || strings.HasPrefix(path, p)
			}
			switch {
			case strings.HasPrefix(path, "/api/account/") && !takes && !isPersonal:
				t.Errorf("%s %s (%s) is a ledger operation without the %s parameter", method, path, op.OperationID, book.Header)
			case takes && isPersonal:
				t.Errorf("%s %s (%s) is personal yet takes %s", method, path, op.OperationID, book.Header)
			case takes:
				ops = append(ops, sweepOp{method: method, path: path, id: op.OperationID, body: op.RequestBody != nil})
			}
		}
	}
	sort.Slice(ops, func(i, j int) bool { return ops[i].path+ops[i].method < ops[j].path+ops[j].method })
	if len(ops) < 60 {
		t.Fatalf("only %d operations take %s: the walk found too few", len(ops), book.Header)
	}
	return ops
}

// call sends op as c does, with a placeholder id in the path and an empty
// JSON object as body: the selector answers before the request is
// validated, so the answer is the selector's.
func call(c *apitest.Client, op sweepOp) *apitest.Response {
	path := pathParam(op.path)
	var body any
	if op.body {
		body = "{}"
	}
	return c.Raw().Do(strings.ToUpper(op.method), path, body)
}

func pathParam(p string) string {
	for {
		i := strings.Index(p, "{")
		if i < 0 {
			return p
		}
		j := strings.Index(p[i:], "}")
		p = p[:i] + "1" + p[i+j+1:]
	}
}

// TestEveryBookOperationIsolatesBooks walks every operation that takes
// X-Book-Id and calls it, with a book's id, as a member who was never in
// the book, as one who left it, and as one whose invitation was revoked:
// each answers 404 NOT_FOUND; as the book's VIEWER every write answers 403
// FORBIDDEN. The book's rows are unchanged afterwards.
func TestEveryBookOperationIsolatesBooks(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	ops := bookOperations(t)
	owner := env.NewMember(apitest.AsPremium())
	bk := createBook(t, owner, "Home")
	lt.Wallet(in(owner, bk.ID), "Shared", api.WalletTypeCash, 100)
	lt.Entry(in(owner, bk.ID), api.EntryRequest{Date: lt.Date(2026, 11, 16), Type: api.EntryTypeExpense, Amount: lt.Ptr[int64](5)})

	never := env.NewMember(apitest.AsPremium())
	left := env.NewMember(apitest.AsPremium())
	join(t, left, invite(t, owner, bk.ID, api.BookInvitationRoleEDITOR))
	left.Do(http.MethodDelete, fmt.Sprintf("/api/books/%d/members/%d", bk.ID, left.ID), nil).Want(http.StatusNoContent)
	revoked := env.NewMember(apitest.AsPremium())
	code := invite(t, owner, bk.ID, api.BookInvitationRoleEDITOR)
	owner.Do(http.MethodDelete, fmt.Sprintf("/api/books/%d/invitations/%s", bk.ID, code), nil).Want(http.StatusNoContent)
	revoked.Do(http.MethodPost, "/api/books/join", api.JoinBookRequest{Code: code}).WantProblem(http.StatusNotFound, "NOT_FOUND")
	viewer := env.NewMember(apitest.AsPremium())
	join(t, viewer, invite(t, owner, bk.ID, api.BookInvitationRoleVIEWER))

	before := bookRows(t, env, bk.ID)
	outsiders := map[string]*apitest.Member{"never joined": never, "left": left, "revoked invitation": revoked}
	writes := 0
	for _, op := range ops {
		for who, m := range outsiders {
			res := call(in(m, bk.ID), op)
			var p apitest.Problem
			_ = json.Unmarshal(res.Body, &p)
			if res.Status != http.StatusNotFound || p.Code != "NOT_FOUND" {
				t.Errorf("%s as a member who %s: %d %s, want 404 NOT_FOUND", op.id, who, res.Status, res.Body)
			}
		}
		if op.method == http.MethodGet && op.id != "getBackup" {
			continue
		}
		writes++
		res := call(in(viewer, bk.ID), op)
		var p apitest.Problem
		_ = json.Unmarshal(res.Body, &p)
		if res.Status != http.StatusForbidden || p.Code != "FORBIDDEN" {
			t.Errorf("%s as the book's VIEWER: %d %s, want 403 FORBIDDEN", op.id, res.Status, res.Body)
		}
	}
	if writes < 30 {
		t.Fatalf("only %d writes checked", writes)
	}
	if after := bookRows(t, env, bk.ID); after != before {
		t.Errorf("the book's rows changed: %s → %s", before, after)
	}
}

// bookRows is a digest of the book's ledger rows (wallets and entries).
func bookRows(t *testing.T, env *apitest.Env, id int64) string {
	t.Helper()
	var digest string
	err := env.Pool.QueryRow(t.Context(), `
		SELECT coalesce(md5(string_agg(x, ',' ORDER BY x)), '') FROM (
			SELECT w::text AS x FROM wallet w JOIN book b ON b.ledger_member_id = w.member_id WHERE b.id = $1
			UNION ALL
			SELECT e::text FROM account_entry e JOIN book b ON b.ledger_member_id = e.member_id WHERE b.id = $1) r`, id).Scan(&digest)
	if err != nil {
		t.Fatal(err)
	}
	return digest
}
