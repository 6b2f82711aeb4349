package changes_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"mime/multipart"
	"net/http"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/oapi-codegen/runtime/types"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	lt "github.com/nestegg/nestegg/internal/apitest/ledgertest"
	"github.com/nestegg/nestegg/internal/csvio"
	"github.com/nestegg/nestegg/internal/ledger"
)

// store is what an offline client holds: records by kind and id.
type store map[string]map[string]any

// replica is one client's copy, kept by the feed.
type replica struct {
	c      *apitest.Client
	cursor string
	data   store
	resets int
}

func newReplica(c *apitest.Client) *replica { return &replica{c: c, data: store{}} }

// sync reads the feed until it has nothing more; a 410 starts it over from
// the empty cursor, as a client must.
func (r *replica) sync(t *testing.T, limit int) {
	t.Helper()
	if err := r.syncE(limit); err != nil {
		t.Fatal(err)
	}
}

// syncE is sync for goroutines: it answers what went wrong instead of
// stopping the test.
func (r *replica) syncE(limit int) error {
	for range 10000 {
		path := fmt.Sprintf("/api/account/changes?limit=%d", limit)
		if r.cursor != "" {
			path += "&since=" + r.cursor
		}
		res := r.c.Do(http.MethodGet, path, nil)
		if res.Status == http.StatusGone {
			r.cursor, r.data = "", store{}
			r.resets++
			continue
		}
		if res.Status != http.StatusOK {
			return fmt.Errorf("GET %s: %d %s", path, res.Status, res.Body)
		}
		if os.Getenv("FEED_DEBUG") != "" {
			fmt.Printf("page %s\n", res.Body)
		}
		var page api.ChangePage
		if err := json.Unmarshal(res.Body, &page); err != nil {
			return err
		}
		list, err := typedChangesE(page)
		if err != nil {
			return err
		}
		for _, ch := range list {
			if r.data[ch.Kind] == nil {
				r.data[ch.Kind] = map[string]any{}
			}
			switch ch.Op {
			case api.ChangeOpUpsert:
				raw, err := json.Marshal(ch.Record)
				if err != nil {
					return err
				}
				var v any
				if err := json.Unmarshal(raw, &v); err != nil {
					return err
				}
				r.data[ch.Kind][ch.ID] = v
			case api.ChangeOpDelete:
				delete(r.data[ch.Kind], ch.ID)
			default:
				return fmt.Errorf("op %q", ch.Op)
			}
		}
		r.cursor = page.Next
		if !page.HasMore {
			return nil
		}
	}
	return fmt.Errorf("the feed never ended")
}

func decode(t *testing.T, raw []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func items(t *testing.T, c *apitest.Client, path string) []any {
	t.Helper()
	var out struct {
		Items []json.RawMessage `json:"items"`
		Total *int64            `json:"total"`
	}
	c.Do(http.MethodGet, path, nil).Want(http.StatusOK).JSON(&out)
	if out.Total != nil && *out.Total > int64(len(out.Items)) {
		t.Fatalf("%s: %d items of %d: the history is longer than one page", path, len(out.Items), *out.Total)
	}
	list := make([]any, len(out.Items))
	for i, raw := range out.Items {
		list[i] = decode(t, raw)
	}
	return list
}

func idOf(v any) string {
	return strconv.FormatInt(int64(v.(map[string]any)["id"].(float64)), 10)
}

// expected is the member's state as the list endpoints answer it, in the
// feed's shape. Histories date everything in November 2026 and budget only
// that month.
func expected(t *testing.T, c *apitest.Client, memberID int64) store {
	t.Helper()
	s := store{}
	put := func(kind, id string, v any) {
		if s[kind] == nil {
			s[kind] = map[string]any{}
		}
		s[kind][id] = v
	}
	for _, w := range items(t, c, "/api/account/wallets") {
		put("WALLET", idOf(w), w)
	}
	for _, cat := range items(t, c, "/api/account/categories") {
		put("CATEGORY", idOf(cat), cat)
		for _, ch := range cat.(map[string]any)["children"].([]any) {
			sub := map[string]any{"children": []any{}}
			for k, v := range ch.(map[string]any) {
				sub[k] = v
			}
			put("CATEGORY", idOf(sub), sub)
		}
	}
	for _, tag := range items(t, c, "/api/account/tags") {
		put("TAG", idOf(tag), tag)
	}
	for _, e := range items(t, c, "/api/account/entries?from=2026-10-01&to=2026-12-31&size=100") {
		put("ENTRY", idOf(e), e)
	}
	for _, tr := range items(t, c, "/api/account/transfers?size=100") {
		put("TRANSFER", idOf(tr), tr)
	}
	for _, b := range items(t, c, "/api/account/budgets?year=2026&month=11") {
		put("BUDGET", idOf(b), b)
	}
	for _, r := range items(t, c, "/api/account/recurrings") {
		put("RECURRING", idOf(r), r)
	}
	var p api.Profile
	c.Do(http.MethodGet, "/api/auth/profile", nil).Want(http.StatusOK).JSON(&p)
	put("PROFILE", strconv.FormatInt(memberID, 10), map[string]any{"monthStartDay": float64(p.MonthStartDay)})
	return s
}

// normal drops empty kinds, so "no records of a kind" reads the same either way.
func normal(s store) store {
	out := store{}
	for k, v := range s {
		if len(v) > 0 {
			out[k] = v
		}
	}
	return out
}

func diff(want, got store) string {
	want, got = normal(want), normal(got)
	for k, recs := range want {
		for id, w := range recs {
			g, ok := got[k][id]
			if !ok {
				return fmt.Sprintf("%s %s missing from the replica; want %v", k, id, w)
			}
			if !reflect.DeepEqual(w, g) {
				return fmt.Sprintf("%s %s:\n lists %v\n  feed %v", k, id, w, g)
			}
		}
	}
	for k, recs := range got {
		for id, g := range recs {
			if _, ok := want[k][id]; !ok {
				return fmt.Sprintf("%s %s in the replica but not in the lists: %v", k, id, g)
			}
		}
	}
	return ""
}

// history runs random writes from two clients of one member, with feed reads
// in between, then checks that every replica (the two clients' and a new one
// from the empty cursor) holds exactly what the list endpoints answer.
func history(t *testing.T, env *apitest.Env, rng *rand.Rand, steps int) {
	t.Helper()
	m := env.NewMember(apitest.AsPremium())
	// Two clients of the member (the feed is the member's, whichever
	// session asks; a second sign-in would only add an argon2 check).
	clients := []*apitest.Client{m.Client, env.Client().WithToken(m.Token)}
	replicas := []*replica{newReplica(clients[0]), newReplica(clients[1])}
	var wallets, entries, transfers, categories []int64
	tags := []string{"food", "trip", "kids"}
	refresh := func(c *apitest.Client) {
		wallets, entries, transfers, categories = nil, nil, nil, nil
		for _, w := range items(t, c, "/api/account/wallets") {
			wallets = append(wallets, int64(w.(map[string]any)["id"].(float64)))
		}
		for _, e := range items(t, c, "/api/account/entries?from=2026-10-01&to=2026-12-31&size=100&transfer=false") {
			entries = append(entries, int64(e.(map[string]any)["id"].(float64)))
		}
		for _, tr := range items(t, c, "/api/account/transfers?size=100") {
			transfers = append(transfers, int64(tr.(map[string]any)["id"].(float64)))
		}
		for _, cat := range items(t, c, "/api/account/categories") {
			categories = append(categories, int64(cat.(map[string]any)["id"].(float64)))
		}
	}
	pick := func(ids []int64) int64 { return ids[rng.Intn(len(ids))] }
	amount := func() *int64 { v := int64(1+rng.Intn(50)) * 1000; return &v }
	day := func() types.Date { return lt.Date(2026, 11, 1+rng.Intn(28)) }
	someTags := func() *[]string {
		out := []string{}
		for _, n := range tags {
			if rng.Intn(3) == 0 {
				out = append(out, n)
			}
		}
		return &out
	}
	lt.Wallet(clients[0], "Start", api.WalletTypeBank, 10_000)
	refresh(clients[0])
	walletName := func(c *apitest.Client, id int64) string {
		var w api.Wallet
		c.Do(http.MethodGet, fmt.Sprintf("/api/account/wallets/%d", id), nil).Want(http.StatusOK).JSON(&w)
		return w.Name
	}
	postRecurring := ledger.RecurringPostJob(env.Pool, time.UTC)
	for range steps {
		c := clients[rng.Intn(2)]
		switch op := rng.Intn(17); {
		case op == 0 && len(wallets) < 4:
			w := lt.Wallet(c, fmt.Sprintf("W%d", rng.Intn(1000)), api.WalletTypeCash, int64(rng.Intn(10))*1000)
			wallets = append(wallets, w.ID)
		case op == 1:
			id := pick(wallets)
			c.Do(http.MethodPut, fmt.Sprintf("/api/account/wallets/%d", id), api.WalletRequest{
				Name: fmt.Sprintf("R%d", rng.Intn(1000)), Type: api.WalletTypeBank, OpeningBalance: amount(),
			})
		case op == 2 && len(wallets) > 1:
			// A cascade: the wallet's entries (and transfer sides) move.
			from, to := pick(wallets), pick(wallets)
			if from != to {
				c.Do(http.MethodDelete, fmt.Sprintf("/api/account/wallets/%d?moveTo=%d", from, to), nil)
				refresh(c)
			}
		case op <= 5:
			w := pick(wallets)
			body := api.EntryRequest{Date: day(), Type: api.EntryTypeExpense, Amount: amount(), WalletID: &w, Tags: someTags()}
			if rng.Intn(3) == 0 {
				body.Type = api.EntryTypeIncome
			}
			if len(categories) > 0 && rng.Intn(2) == 0 && body.Type == api.EntryTypeExpense {
				cat := pick(categories)
				body.CategoryID = &cat
			}
			var e api.Entry
			if res := c.Do(http.MethodPost, "/api/account/entries", body); res.Status == http.StatusCreated {
				res.JSON(&e)
				entries = append(entries, e.ID)
			}
		case op == 6 && len(entries) > 0:
			id, w := pick(entries), pick(wallets)
			c.Do(http.MethodPut, fmt.Sprintf("/api/account/entries/%d", id), api.EntryRequest{
				Date: day(), Type: api.EntryTypeExpense, Amount: amount(), WalletID: &w, Tags: someTags(),
			})
		case op == 7 && len(entries) > 0:
			i := rng.Intn(len(entries))
			c.Do(http.MethodDelete, fmt.Sprintf("/api/account/entries/%d", entries[i]), nil)
			entries = append(entries[:i], entries[i+1:]...)
		case op == 8 && len(wallets) > 1:
			from, to := pick(wallets), pick(wallets)
			body := api.TransferRequest{Date: day(), Amount: *amount(), FromWalletID: from, ToWalletID: to}
			if rng.Intn(2) == 0 {
				body.Fee = lt.Ptr(int64(500))
			}
			var tr api.Transfer
			if res := c.Do(http.MethodPost, "/api/account/transfers", body); res.Status == http.StatusCreated {
				res.JSON(&tr)
				transfers = append(transfers, tr.ID)
			}
		case op == 9 && len(transfers) > 0:
			i := rng.Intn(len(transfers))
			c.Do(http.MethodDelete, fmt.Sprintf("/api/account/transfers/%d", transfers[i]), nil)
			transfers = append(transfers[:i], transfers[i+1:]...)
			refresh(c) // its fee entry goes too
		case op == 10:
			if len(categories) > 0 && rng.Intn(2) == 0 {
				parent := pick(categories)
				c.Do(http.MethodPost, "/api/account/categories", api.CategoryRequest{
					Name: fmt.Sprintf("S%d", rng.Intn(1000)), Type: api.EntryTypeExpense, ParentID: &parent,
				})
			} else {
				cat := lt.Category(c, fmt.Sprintf("C%d", rng.Intn(1000)), api.EntryTypeExpense, nil)
				categories = append(categories, cat.ID)
				c.Do(http.MethodPost, "/api/account/budgets", api.BudgetRequest{CategoryID: cat.ID, Year: 2026, Month: 11, Amount: *amount()})
			}
		case op == 11:
			var list []api.Tag
			var out struct{ Items []api.Tag }
			c.Do(http.MethodGet, "/api/account/tags", nil).Want(http.StatusOK).JSON(&out)
			list = out.Items
			if len(list) > 0 {
				tag := list[rng.Intn(len(list))]
				if rng.Intn(2) == 0 {
					name := fmt.Sprintf("t%d", rng.Intn(1000))
					if c.Do(http.MethodPut, fmt.Sprintf("/api/account/tags/%d", tag.ID), api.TagRequest{Name: name}).Status == http.StatusOK {
						tags = append(tags, name)
					}
				} else {
					c.Do(http.MethodDelete, fmt.Sprintf("/api/account/tags/%d", tag.ID), nil)
				}
			}
		case op == 12:
			d := int32(1 + rng.Intn(28))
			c.Do(http.MethodPut, "/api/auth/profile", api.UpdateProfileRequest{Name: "Member", MonthStartDay: &d})
		case op == 13 && rng.Intn(3) == 0:
			var doc api.Backup
			c.Do(http.MethodGet, "/api/account/backup", nil).Want(http.StatusOK).JSON(&doc)
			c.Do(http.MethodPost, "/api/account/restore", doc)
			refresh(c)
		case op == 14:
			// CSV import (issue 41: every capture path is in the feed): rows
			// in the export's format, with tags, on a wallet by its name.
			file := strings.Join(csvio.Header, ",") + "\n"
			for range 1 + rng.Intn(3) {
				file += fmt.Sprintf("2026-11-%02d,expense,%d,%s,,%s,imported,,,,,\n",
					1+rng.Intn(28), *amount(), walletName(c, pick(wallets)), tags[rng.Intn(len(tags))])
			}
			var buf bytes.Buffer
			mw := multipart.NewWriter(&buf)
			part, _ := mw.CreateFormFile("file", "entries.csv")
			part.Write([]byte(file))
			mw.Close()
			c.Send(http.MethodPost, "/api/account/entries/import", mw.FormDataContentType(), buf.Bytes())
			refresh(c)
		case op == 15:
			// A card notification makes a pending entry (and its card wallet
			// the first time); half are confirmed.
			text := fmt.Sprintf("[Web발신]\n신한카드(1234)승인 홍*동 %d원(일시불)11/%02d 12:34 가게%d 누적1,234,567원",
				*amount(), 1+rng.Intn(16), rng.Intn(1000))
			var out api.NotificationResult
			if res := c.Do(http.MethodPost, "/api/account/entries/notification", api.NotificationRequest{Text: text}); res.Status/100 == 2 {
				res.JSON(&out)
				if out.Entry != nil && rng.Intn(2) == 0 {
					c.Do(http.MethodPost, fmt.Sprintf("/api/account/entries/%d/confirm", out.Entry.ID), nil)
				}
			}
			refresh(c)
		case op == 16:
			// A recurring entry due today, and the hourly job that posts it
			// as a pending entry (run here directly: the runner would run it
			// once an hour).
			w := pick(wallets)
			c.Do(http.MethodPost, "/api/account/recurrings", api.RecurringRequest{
				Name: "Rent", Type: api.EntryTypeExpense, Amount: *amount(), Day: int32(env.Clock.Now().Day()), WalletID: &w,
			})
			if err := postRecurring.Run(context.Background(), env.Clock.Now()); err != nil {
				t.Fatal(err)
			}
			refresh(c)
		}
		if rng.Intn(3) == 0 {
			replicas[rng.Intn(2)].sync(t, 1+rng.Intn(7))
		}
	}
	want := expected(t, clients[0], m.ID)
	fresh := newReplica(clients[1])
	for i, r := range append(replicas, fresh) {
		// Every write above has answered, so it has committed, and the feed
		// holds it now: no waiting.
		r.sync(t, 1+rng.Intn(500))
		if d := diff(want, r.data); d != "" {
			t.Fatalf("replica %d (%d resyncs) differs from the lists: %s", i, r.resets, d)
		}
	}
	if rng.Intn(8) == 0 {
		savesAndRestores(t, clients[0])
	}
}

// savesAndRestores holds what every path above stored (issue 41: one write
// path per record family): each entry, sent back as its GET shows it, saves
// unchanged, and the member's own backup restores with as many records.
func savesAndRestores(t *testing.T, c *apitest.Client) {
	t.Helper()
	const list = "/api/account/entries?from=2026-10-01&to=2026-12-31&size=100&transfer=false"
	var got struct{ Items []api.Entry }
	c.Do(http.MethodGet, list, nil).Want(http.StatusOK).JSON(&got)
	for _, e := range got.Items {
		memo, tags, amount := api.Memo(e.Memo), api.TagNames(e.Tags), e.Amount
		c.Do(http.MethodPut, fmt.Sprintf("/api/account/entries/%d", e.ID), api.EntryRequest{
			Date: e.Date, Type: api.EntryType(e.Type), Amount: &amount, WalletID: e.WalletID, CategoryID: e.CategoryID,
			Memo: &memo, Tags: &tags, Currency: e.Currency, OriginalAmount: e.OriginalAmount, ExchangeRate: e.ExchangeRate,
			InstallmentMonths: e.InstallmentMonths,
		}).Want(http.StatusOK)
	}
	var doc api.Backup
	c.Do(http.MethodGet, "/api/account/backup", nil).Want(http.StatusOK).JSON(&doc)
	c.Do(http.MethodPost, "/api/account/restore", doc).Want(http.StatusOK)
	var after api.Backup
	c.Do(http.MethodGet, "/api/account/backup", nil).Want(http.StatusOK).JSON(&after)
	if len(after.Entries) != len(doc.Entries) || len(after.Wallets) != len(doc.Wallets) ||
		len(after.Transfers) != len(doc.Transfers) || len(after.Tags) != len(doc.Tags) {
		t.Fatalf("a restore of the member's own backup kept %d entries, %d wallets, %d transfers, %d tags of %d, %d, %d, %d",
			len(after.Entries), len(after.Wallets), len(after.Transfers), len(after.Tags),
			len(doc.Entries), len(doc.Wallets), len(doc.Transfers), len(doc.Tags))
	}
}

// TestFeedReplaysToTheListsState is the property test of issue 22: random
// histories of creates, edits, deletes, transfers, moves (a wallet deleted
// with moveTo), restores, and (issue 41) the other capture paths — CSV
// import, card notifications and their confirmation, the recurring job —
// from two clients of one member, with feed reads
// in between, replay from the empty cursor onto an empty store as exactly the
// state the list endpoints answer. Every exchange goes through the API and is
// checked against the contract. NESTEGG_FEED_SEED repeats a failed run;
// NESTEGG_FEED_HISTORIES sets how many histories run.
func TestFeedReplaysToTheListsState(t *testing.T) {
	t.Parallel()
	seed := time.Now().UnixNano()
	if s := os.Getenv("NESTEGG_FEED_SEED"); s != "" {
		seed, _ = strconv.ParseInt(s, 10, 64)
	}
	n := 200
	if testing.Short() {
		n = 50
	}
	if s := os.Getenv("NESTEGG_FEED_HISTORIES"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("seed %d (NESTEGG_FEED_SEED=%d repeats it)", seed, seed)
		}
	})
	env := apitest.New(t)
	rng := rand.New(rand.NewSource(seed))
	for range n {
		history(t, env, rng, 4+rng.Intn(8))
	}
}
