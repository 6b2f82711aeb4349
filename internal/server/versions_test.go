package server_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	lt "github.com/nestegg/nestegg/internal/apitest/ledgertest"
)

// versionedCase is one record family: how to make a record, its path, and
// two different edits.
type versionedCase struct {
	name   string
	create func(t *testing.T, m *apitest.Member, aux *[2]int64) string // the record's path (aux: ids the edits need)
	get    bool                                                        // a single-record GET exists
	edit   func(i int) any                                             // PUT bodies, each differing
	delete bool
}

func versionedCases() []versionedCase {
	return []versionedCase{
		{name: "wallet", get: true, delete: true,
			create: func(t *testing.T, m *apitest.Member, aux *[2]int64) string {
				w := lt.Wallet(m.Client, "Cash", api.WalletTypeCash, 0)
				return fmt.Sprintf("/api/account/wallets/%d", w.ID)
			},
			edit: func(i int) any {
				return api.WalletRequest{Name: fmt.Sprintf("Cash %d", i), Type: api.WalletTypeCash}
			}},
		{name: "entry", get: true, delete: true,
			create: func(t *testing.T, m *apitest.Member, aux *[2]int64) string {
				w := lt.Wallet(m.Client, "Cash", api.WalletTypeCash, 0)
				e := lt.Entry(m.Client, lt.Expense(lt.Date(2026, 11, 16), 100, w.ID))
				return fmt.Sprintf("/api/account/entries/%d", e.ID)
			},
			edit: func(i int) any {
				// The wallet is the member's first; the test members have one.
				return nil
			}},
		{name: "tag", delete: true,
			create: func(t *testing.T, m *apitest.Member, aux *[2]int64) string {
				var tag api.Tag
				m.Do(http.MethodPost, "/api/account/tags", api.TagRequest{Name: "trip"}).Want(http.StatusCreated).JSON(&tag)
				return fmt.Sprintf("/api/account/tags/%d", tag.ID)
			},
			edit: func(i int) any { return api.TagRequest{Name: fmt.Sprintf("trip %d", i)} }},
		{name: "category", delete: true,
			create: func(t *testing.T, m *apitest.Member, aux *[2]int64) string {
				c := lt.Category(m.Client, "Food", api.EntryTypeExpense, nil)
				return fmt.Sprintf("/api/account/categories/%d", c.ID)
			},
			edit: func(i int) any {
				return api.CategoryRequest{Name: fmt.Sprintf("Food %d", i), Type: api.EntryTypeExpense}
			}},
		{name: "post", get: true, delete: true,
			create: func(t *testing.T, m *apitest.Member, aux *[2]int64) string {
				var p api.Post
				m.Do(http.MethodPost, "/api/board/posts", api.PostRequest{Category: "saving", Title: "t", Body: "b"}).
					Want(http.StatusCreated).JSON(&p)
				return fmt.Sprintf("/api/board/posts/%d", p.ID)
			},
			edit: func(i int) any {
				return api.PostRequest{Category: "saving", Title: fmt.Sprintf("t %d", i), Body: "b"}
			}},
		{name: "budget", delete: true,
			create: func(t *testing.T, m *apitest.Member, aux *[2]int64) string {
				c := lt.Category(m.Client, "Food", api.EntryTypeExpense, nil)
				var b api.Budget
				m.Do(http.MethodPost, "/api/account/budgets", api.CreateBudgetJSONRequestBody{CategoryID: c.ID, Year: 2026, Month: 11, Amount: 1000}).
					Want(http.StatusCreated).JSON(&b)
				return fmt.Sprintf("/api/account/budgets/%d", b.ID)
			},
			edit: func(i int) any { return api.BudgetAmountRequest{Amount: int64(1000 + i)} }},
		{name: "onetime budget", delete: true,
			create: func(t *testing.T, m *apitest.Member, aux *[2]int64) string {
				var b api.OnetimeBudget
				m.Do(http.MethodPost, "/api/account/budgets/onetime", api.OnetimeBudgetRequest{
					Name: "Trip", Amount: 1000, StartDate: lt.Date(2026, 12, 20), EndDate: lt.Date(2026, 12, 27),
				}).Want(http.StatusCreated).JSON(&b)
				return fmt.Sprintf("/api/account/budgets/onetime/%d", b.ID)
			},
			edit: func(i int) any {
				return api.OnetimeBudgetRequest{Name: "Trip", Amount: int64(1000 + i), StartDate: lt.Date(2026, 12, 20), EndDate: lt.Date(2026, 12, 27)}
			}},
		{name: "recurring", delete: true,
			create: func(t *testing.T, m *apitest.Member, aux *[2]int64) string {
				var r api.Recurring
				m.Do(http.MethodPost, "/api/account/recurrings", api.RecurringRequest{Name: "Rent", Type: api.EntryTypeExpense, Amount: 1000, Day: 5}).
					Want(http.StatusCreated).JSON(&r)
				return fmt.Sprintf("/api/account/recurrings/%d", r.ID)
			},
			edit: func(i int) any {
				return api.RecurringRequest{Name: "Rent", Type: api.EntryTypeExpense, Amount: int64(1000 + i), Day: 5}
			}},
		{name: "quick entry", delete: true,
			create: func(t *testing.T, m *apitest.Member, aux *[2]int64) string {
				var q api.QuickEntry
				m.Do(http.MethodPost, "/api/account/quick-entries", api.QuickEntryRequest{Name: "Coffee", Type: api.EntryTypeExpense, Amount: 4500}).
					Want(http.StatusCreated).JSON(&q)
				return fmt.Sprintf("/api/account/quick-entries/%d", q.ID)
			},
			edit: func(i int) any {
				return api.QuickEntryRequest{Name: "Coffee", Type: api.EntryTypeExpense, Amount: int64(4500 + i)}
			}},
		{name: "stock", delete: true,
			create: func(t *testing.T, m *apitest.Member, aux *[2]int64) string {
				var s api.Stock
				m.Do(http.MethodPost, "/api/account/invest/stocks", api.StockRequest{Code: "005930", Name: "Samsung"}).
					Want(http.StatusCreated).JSON(&s)
				return fmt.Sprintf("/api/account/invest/stocks/%d", s.ID)
			},
			edit: func(i int) any { return api.StockRequest{Code: "005930", Name: fmt.Sprintf("Samsung %d", i)} }},
		{name: "trade", delete: true,
			create: func(t *testing.T, m *apitest.Member, aux *[2]int64) string {
				var s api.Stock
				m.Do(http.MethodPost, "/api/account/invest/stocks", api.StockRequest{Code: "005930", Name: "Samsung"}).
					Want(http.StatusCreated).JSON(&s)
				var tr api.Trade
				m.Do(http.MethodPost, "/api/account/invest/trades", api.TradeRequest{
					StockID: s.ID, Side: api.TradeSideBuy, Date: lt.Date(2026, 11, 16), Quantity: "3", Price: "70000",
				}).Want(http.StatusCreated).JSON(&tr)
				aux[0] = s.ID
				return fmt.Sprintf("/api/account/invest/trades/%d", tr.ID)
			},
			edit: nil},
		{name: "comment", delete: true,
			create: func(t *testing.T, m *apitest.Member, aux *[2]int64) string {
				var p api.Post
				m.Do(http.MethodPost, "/api/board/posts", api.PostRequest{Category: "saving", Title: "t", Body: "b"}).
					Want(http.StatusCreated).JSON(&p)
				var c api.Comment
				m.Do(http.MethodPost, fmt.Sprintf("/api/board/posts/%d/comments", p.ID), api.CommentRequest{Body: "hi"}).
					Want(http.StatusCreated).JSON(&c)
				return fmt.Sprintf("/api/board/comments/%d", c.ID)
			},
			edit: func(i int) any { return api.CommentRequest{Body: fmt.Sprintf("hi %d", i)} }},
		{name: "transfer", get: true, delete: true,
			create: func(t *testing.T, m *apitest.Member, aux *[2]int64) string {
				a := lt.Wallet(m.Client, "A", api.WalletTypeCash, 0)
				b := lt.Wallet(m.Client, "B", api.WalletTypeBank, 0)
				*aux = [2]int64{a.ID, b.ID}
				var tr api.Transfer
				m.Do(http.MethodPost, "/api/account/transfers", api.TransferRequest{
					Date: lt.Date(2026, 11, 16), Amount: 300, FromWalletID: a.ID, ToWalletID: b.ID,
				}).Want(http.StatusCreated).JSON(&tr)
				return fmt.Sprintf("/api/account/transfers/%d", tr.ID)
			},
			edit: nil},
		{name: "profile", get: true,
			create: func(*testing.T, *apitest.Member, *[2]int64) string { return "/api/auth/profile" },
			edit:   func(i int) any { return api.UpdateProfileJSONRequestBody{Name: fmt.Sprintf("Jisoo %d", i)} }},
	}
}

// TestETagsAndPreconditions: per record family, single-record GETs and
// edits answer a strong ETag that changes on every write; If-None-Match of
// the current one is 304; If-Match of an old one is 412 with the current
// ETag and changes nothing; two devices editing from the same version: one
// wins, the other is 412 (no lost update).
func TestETagsAndPreconditions(t *testing.T) {
	t.Parallel()
	for _, tc := range versionedCases() {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env := apitest.New(t)
			m := env.NewMember(apitest.AsPremium())
			var aux [2]int64
			path := tc.create(t, m, &aux)
			edit := tc.edit
			switch tc.name {
			case "trade":
				stock := aux[0]
				edit = func(i int) any {
					return api.TradeRequest{StockID: stock, Side: api.TradeSideBuy, Date: lt.Date(2026, 11, 16), Quantity: api.DecimalAmount(fmt.Sprint(3 + i)), Price: "70000"}
				}
			case "transfer":
				ws := aux
				edit = func(i int) any {
					return api.TransferRequest{Date: lt.Date(2026, 11, 16), Amount: int64(300 + i), FromWalletID: ws[0], ToWalletID: ws[1]}
				}
			}
			if tc.name == "entry" {
				var e api.Entry
				m.Do(http.MethodGet, path, nil).Want(http.StatusOK).JSON(&e)
				edit = func(i int) any {
					amount := int64(200 + i)
					return api.EntryRequest{Date: lt.Date(2026, 11, 16), Type: api.EntryTypeExpense, Amount: &amount, WalletID: e.WalletID}
				}
			}

			first := m.Do(http.MethodPut, path, edit(1)).Want(http.StatusOK)
			v1 := first.Header.Get("ETag")
			if v1 == "" || v1[0] != '"' {
				t.Fatalf("PUT answered ETag %q", v1)
			}
			if tc.get {
				got := m.Do(http.MethodGet, path, nil).Want(http.StatusOK)
				if got.Header.Get("ETag") != v1 {
					t.Errorf("GET ETag %q, PUT answered %q", got.Header.Get("ETag"), v1)
				}
				nm := m.WithHeader("If-None-Match", v1).Do(http.MethodGet, path, nil).Want(http.StatusNotModified)
				if len(nm.Body) != 0 || nm.Header.Get("ETag") != v1 {
					t.Errorf("304 with body %q and ETag %q", nm.Body, nm.Header.Get("ETag"))
				}
			}
			second := m.WithHeader("If-Match", v1).Do(http.MethodPut, path, edit(2)).Want(http.StatusOK)
			v2 := second.Header.Get("ETag")
			if v2 == "" || v2 == v1 {
				t.Fatalf("ETag after a second write %q (before %q)", v2, v1)
			}
			if tc.get {
				m.WithHeader("If-None-Match", v1).Do(http.MethodGet, path, nil).Want(http.StatusOK)
			}
			// A stale If-Match changes nothing.
			stale := m.WithHeader("If-Match", v1).Do(http.MethodPut, path, edit(3))
			stale.WantProblem(http.StatusPreconditionFailed, "PRECONDITION_FAILED")
			if stale.Header.Get("ETag") != v2 {
				t.Errorf("412 ETag %q, want %q", stale.Header.Get("ETag"), v2)
			}
			if tc.get {
				if got := m.Do(http.MethodGet, path, nil).Want(http.StatusOK); got.Header.Get("ETag") != v2 {
					t.Errorf("a refused write changed the version: %q", got.Header.Get("ETag"))
				}
			}

			// Two devices edit from the same version at once: one wins.
			answers := apitest.TogetherV(2, func(i int) *apitest.Response {
				return m.WithHeader("If-Match", v2).Do(http.MethodPut, path, edit(10+i))
			})
			won, lost := 0, 0
			for _, res := range answers {
				switch res.Status {
				case http.StatusOK:
					won++
				case http.StatusPreconditionFailed:
					lost++
				default:
					t.Errorf("race: %d %s", res.Status, res.Body)
				}
			}
			if won != 1 || lost != 1 {
				t.Errorf("race: %d won, %d refused; want 1 and 1", won, lost)
			}

			// Without If-Match writes work as before.
			v3 := m.Do(http.MethodPut, path, edit(20)).Want(http.StatusOK).Header.Get("ETag")
			if tc.delete {
				m.WithHeader("If-Match", v2).Do(http.MethodDelete, path, nil).
					WantProblem(http.StatusPreconditionFailed, "PRECONDITION_FAILED")
				m.WithHeader("If-Match", v3).Do(http.MethodDelete, path, nil).Want(http.StatusNoContent)
			}
		})
	}
}

// TestEntryETagFollowsItsTags: an entry answers its tags, so an edit that
// only changes them changes its ETag.
func TestEntryETagFollowsItsTags(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	w := lt.Wallet(m.Client, "Cash", api.WalletTypeCash, 0)
	e := lt.Entry(m.Client, lt.Expense(lt.Date(2026, 11, 16), 100, w.ID))
	path := fmt.Sprintf("/api/account/entries/%d", e.ID)
	before := m.Do(http.MethodGet, path, nil).Want(http.StatusOK).Header.Get("ETag")
	body := lt.Expense(lt.Date(2026, 11, 16), 100, w.ID)
	body.Tags = &[]string{"trip"}
	after := m.WithHeader("If-Match", before).Do(http.MethodPut, path, body).Want(http.StatusOK).Header.Get("ETag")
	if after == before {
		t.Fatalf("ETag %q unchanged by a new tag", after)
	}
	if got := m.Do(http.MethodGet, path, nil).Want(http.StatusOK).Header.Get("ETag"); got != after {
		t.Errorf("GET ETag %q, PUT answered %q", got, after)
	}
	m.WithHeader("If-None-Match", before).Do(http.MethodGet, path, nil).Want(http.StatusOK)

	// Deleting the tag takes it off the entry (the link goes by cascade):
	// a write of the entry too.
	var tags api.TagList
	m.Do(http.MethodGet, "/api/account/tags", nil).Want(http.StatusOK).JSON(&tags)
	if len(tags.Items) != 1 {
		t.Fatalf("tags %+v", tags)
	}
	m.Do(http.MethodDelete, fmt.Sprintf("/api/account/tags/%d", tags.Items[0].ID), nil).Want(http.StatusNoContent)
	if got := m.Do(http.MethodGet, path, nil).Want(http.StatusOK).Header.Get("ETag"); got == after || got == before {
		t.Errorf("ETag %q after the tag was deleted (with it %q, before it %q)", got, after, before)
	}
}

// A create's 201 carries the new record's ETag, so a client can edit it with
// If-Match at once: the tag is the version the record's GET answers, with or
// without an Idempotency-Key (and an entry created with tags, whose tag
// links raise its version, answers the version after them).
func TestCreatedRecordsCarryTheirETag(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	created := func(c *apitest.Client, path string, body any) (int64, string) {
		t.Helper()
		res := c.Do(http.MethodPost, path, body).Want(http.StatusCreated)
		var rec struct{ ID int64 }
		res.JSON(&rec)
		tag := res.Header.Get("ETag")
		if tag == "" || tag[0] != '"' {
			t.Fatalf("POST %s answered ETag %q", path, tag)
		}
		return rec.ID, tag
	}
	for _, key := range []string{"", "create-etag-1"} {
		c := m.Client
		if key != "" {
			c = c.WithHeader("Idempotency-Key", key)
		}
		wallet, wtag := created(c, "/api/account/wallets", api.WalletRequest{Name: "Cash " + key, Type: api.WalletTypeCash})
		if got := m.Do(http.MethodGet, fmt.Sprintf("/api/account/wallets/%d", wallet), nil).Want(http.StatusOK).Header.Get("ETag"); got != wtag {
			t.Errorf("key %q: wallet GET ETag %s, create answered %s", key, got, wtag)
		}
		amount := int64(100)
		entry, etag := created(m.Client.WithHeader("Idempotency-Key", key+"e"), "/api/account/entries", api.EntryRequest{
			Date: lt.Date(2026, 11, 16), Type: api.EntryTypeExpense, Amount: &amount, WalletID: &wallet, Tags: &[]string{"a", "b"},
		})
		path := fmt.Sprintf("/api/account/entries/%d", entry)
		if got := m.Do(http.MethodGet, path, nil).Want(http.StatusOK).Header.Get("ETag"); got != etag {
			t.Errorf("key %q: entry GET ETag %s, create answered %s", key, got, etag)
		}
		amount = 200
		m.WithHeader("If-Match", etag).Do(http.MethodPut, path, api.EntryRequest{
			Date: lt.Date(2026, 11, 16), Type: api.EntryTypeExpense, Amount: &amount, WalletID: &wallet,
		}).Want(http.StatusOK)
		post, ptag := created(m.Client, "/api/board/posts", api.PostRequest{Category: api.BoardCategoryCommunity, Title: "hi " + key, Body: "hello"})
		if got := m.Do(http.MethodGet, fmt.Sprintf("/api/board/posts/%d", post), nil).Want(http.StatusOK).Header.Get("ETag"); got != ptag {
			t.Errorf("key %q: post GET ETag %s, create answered %s", key, got, ptag)
		}
	}
}

// A post hidden from a member (blocked) answers that member 404 whatever
// If-None-Match says: a 304 would tell them it exists, and its version.
// Its author still gets the 304.
func TestIfNoneMatchDoesNotRevealAHiddenPost(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	author, reader := env.NewMember(), env.NewMember()
	var p api.Post
	res := author.Do(http.MethodPost, "/api/board/posts", api.CreatePostJSONRequestBody{
		Category: api.BoardCategoryCommunity, Title: "hidden", Body: "soon blocked",
	}).Want(http.StatusCreated)
	res.JSON(&p)
	path := fmt.Sprintf("/api/board/posts/%d", p.ID)
	tag := author.Do(http.MethodGet, path, nil).Want(http.StatusOK).Header.Get("ETag")
	if nm := reader.WithHeader("If-None-Match", tag).Do(http.MethodGet, path, nil).Want(http.StatusNotModified); nm.Header.Get("ETag") != tag {
		t.Fatalf("visible post: 304 ETag %q, want %q", nm.Header.Get("ETag"), tag)
	}
	env.Exec(`UPDATE post SET block_reason = 'SPAM' WHERE id = $1`, p.ID)
	for _, inm := range []string{tag, "*"} {
		got := reader.WithHeader("If-None-Match", inm).Do(http.MethodGet, path, nil)
		got.WantProblem(http.StatusNotFound, "NOT_FOUND")
		if etag := got.Header.Get("ETag"); etag != "" {
			t.Errorf("If-None-Match %s: a hidden post answered ETag %q", inm, etag)
		}
	}
}

// An answer shows more than its record's row: a wallet its balance, an
// entry its tags' names, a post its author. When only those change, the
// record's version stays, but the ETag does not: If-None-Match of the old
// one answers the new body (a 304 would leave the client holding a stale
// one), while If-Match of the old one still edits, since the record itself
// was not written.
func TestNotModifiedFollowsWhatTheAnswerShows(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m, reader := env.NewMember(apitest.AsPremium()), env.NewMember()
	w := lt.Wallet(m.Client, "Cash", api.WalletTypeCash, 0)
	e := lt.Entry(m.Client, lt.Expense(lt.Date(2026, 11, 16), 100, w.ID))
	tagged := lt.Expense(lt.Date(2026, 11, 16), 100, w.ID)
	tagged.Tags = &[]string{"trip"}
	entryPath := fmt.Sprintf("/api/account/entries/%d", e.ID)
	m.Do(http.MethodPut, entryPath, tagged).Want(http.StatusOK)
	var tags api.TagList
	m.Do(http.MethodGet, "/api/account/tags", nil).Want(http.StatusOK).JSON(&tags)
	if len(tags.Items) != 1 {
		t.Fatalf("tags %+v", tags)
	}
	var post api.Post
	m.Do(http.MethodPost, "/api/board/posts", api.PostRequest{Category: api.BoardCategoryCommunity, Title: "hi", Body: "hello"}).
		Want(http.StatusCreated).JSON(&post)
	postPath := fmt.Sprintf("/api/board/posts/%d", post.ID)

	for _, tc := range []struct {
		name, path string
		as         *apitest.Member
		change     func()
		changed    func(body []byte) bool
		edit       any
	}{
		{name: "wallet balance", path: fmt.Sprintf("/api/account/wallets/%d", w.ID), as: m,
			change: func() { lt.Entry(m.Client, lt.Expense(lt.Date(2026, 11, 17), 250, w.ID)) },
			changed: func(b []byte) bool {
				var got api.Wallet
				return json.Unmarshal(b, &got) == nil && got.Balance == -350
			},
			edit: api.WalletRequest{Name: "Cash 2", Type: api.WalletTypeCash}},
		{name: "entry tag renamed", path: entryPath, as: m,
			change: func() {
				m.Do(http.MethodPut, fmt.Sprintf("/api/account/tags/%d", tags.Items[0].ID), api.TagRequest{Name: "journey"}).Want(http.StatusOK)
			},
			changed: func(b []byte) bool {
				var got api.Entry
				return json.Unmarshal(b, &got) == nil && len(got.Tags) == 1 && got.Tags[0] == "journey"
			},
			edit: tagged},
		{name: "post author renamed", path: postPath, as: reader,
			change: func() {
				m.Do(http.MethodPut, "/api/auth/profile", api.UpdateProfileJSONRequestBody{Name: "Renamed"}).Want(http.StatusOK)
			},
			changed: func(b []byte) bool {
				var got api.Post
				return json.Unmarshal(b, &got) == nil && got.Author.Name == "Renamed"
			}},
	} {
		// One test, not subtests: the members fail the test they were made in.
		before := tc.as.Do(http.MethodGet, tc.path, nil).Want(http.StatusOK).Header.Get("ETag")
		tc.as.WithHeader("If-None-Match", before).Do(http.MethodGet, tc.path, nil).Want(http.StatusNotModified)
		tc.change()
		got := tc.as.WithHeader("If-None-Match", before).Do(http.MethodGet, tc.path, nil).Want(http.StatusOK)
		if !tc.changed(got.Body) {
			t.Fatalf("%s: the change does not show: %s", tc.name, got.Body)
		}
		after := got.Header.Get("ETag")
		if after == before {
			t.Fatalf("%s: ETag %s unchanged", tc.name, after)
		}
		tc.as.WithHeader("If-None-Match", after).Do(http.MethodGet, tc.path, nil).Want(http.StatusNotModified)
		if tc.edit != nil {
			tc.as.WithHeader("If-Match", before).Do(http.MethodPut, tc.path, tc.edit).Want(http.StatusOK)
		}
	}
}
