package changes_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/apitest"
	lt "github.com/nestegg/nestegg/internal/apitest/ledgertest"
	"github.com/nestegg/nestegg/internal/changes"
	"github.com/nestegg/nestegg/internal/ledger"
)

// ageTombstones folds the member's notes (as a feed read would) and makes
// their tombstones older than the prune's cutoff.
func ageTombstones(t *testing.T, env *apitest.Env, member int64) {
	t.Helper()
	if err := changes.Fold(context.Background(), env.Pool, member); err != nil {
		t.Fatal(err)
	}
	env.Exec("UPDATE ledger_change SET changed_at = $2 WHERE member_id = $1 AND deleted", member, env.Clock.Now().Add(-91*24*time.Hour))
}

func page(t *testing.T, c *apitest.Client, since string, limit int) api.ChangePage {
	t.Helper()
	var p api.ChangePage
	c.Do(http.MethodGet, fmt.Sprintf("/api/account/changes?limit=%d&since=%s", limit, since), nil).
		Want(http.StatusOK).JSON(&p)
	return p
}

// A first page from the empty cursor holds the member's records as their
// GETs answer them; an entry's change is its wallet's change too (balance);
// a deletion is a tombstone; a record changed twice comes once.
func TestFeedAnswersRecordsAsTheirGETsAndTombstones(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	w := lt.Wallet(m.Client, "Bank", api.WalletTypeBank, 1000)
	first := page(t, m.Client, "", 100)
	if len(first.Changes) != 2 || first.HasMore {
		t.Fatalf("first page %+v", first)
	}

	e := lt.Entry(m.Client, lt.Expense(lt.Date(2026, 11, 3), 300, w.ID))
	m.Do(http.MethodPut, fmt.Sprintf("/api/account/entries/%d", e.ID), lt.Expense(lt.Date(2026, 11, 4), 400, w.ID)).Want(http.StatusOK)
	next := page(t, m.Client, first.Next, 100)
	kinds := map[string]typed{}
	for _, c := range typedChanges(t, next) {
		if _, dup := kinds[c.Kind+c.ID]; dup {
			t.Fatalf("%s %s twice in one page", c.Kind, c.ID)
		}
		kinds[c.Kind+c.ID] = c
	}
	var gotWallet, wantWallet api.Wallet
	m.Do(http.MethodGet, fmt.Sprintf("/api/account/wallets/%d", w.ID), nil).Want(http.StatusOK).JSON(&wantWallet)
	wc, ok := kinds[fmt.Sprintf("WALLET%d", w.ID)]
	if !ok || wc.Op != api.ChangeOpUpsert {
		t.Fatalf("no wallet change after its entry changed: %+v", next.Changes)
	}
	if got, ok := wc.Record.(*api.Wallet); ok {
		gotWallet = *got
	}
	if gotWallet.Balance != 600 || gotWallet != wantWallet {
		t.Fatalf("wallet in the feed %+v, its GET %+v", gotWallet, wantWallet)
	}
	ec := kinds[fmt.Sprintf("ENTRY%d", e.ID)]
	var gotEntry, wantEntry api.Entry
	if got, ok := ec.Record.(*api.Entry); ok {
		gotEntry = *got
	}
	m.Do(http.MethodGet, fmt.Sprintf("/api/account/entries/%d", e.ID), nil).Want(http.StatusOK).JSON(&wantEntry)
	if gotEntry.Amount != 400 || !gotEntry.CreatedAt.Equal(wantEntry.CreatedAt) || gotEntry.Date != wantEntry.Date {
		t.Fatalf("entry in the feed %+v, its GET %+v", gotEntry, wantEntry)
	}

	m.Do(http.MethodDelete, fmt.Sprintf("/api/account/entries/%d", e.ID), nil).Want(http.StatusNoContent)
	last := page(t, m.Client, next.Next, 100)
	var tomb *typed
	for _, c := range typedChanges(t, last) {
		if c.Kind == "ENTRY" && c.ID == fmt.Sprint(e.ID) {
			tomb = &c
		}
	}
	if tomb == nil || tomb.Op != api.ChangeOpDelete || tomb.Record != nil {
		t.Fatalf("no tombstone for the deleted entry: %+v", last.Changes)
	}
	if again := page(t, m.Client, last.Next, 100); len(again.Changes) != 0 || again.Next != last.Next {
		t.Fatalf("nothing changed, yet %+v", again)
	}
}

// Bad requests: a malformed cursor, another member's cursor, a limit out of
// range.
func TestFeedRefusesBadCursorsAndLimits(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	a, b := env.NewMember(), env.NewMember()
	mine := page(t, a.Client, "", 10).Next
	for _, since := range []string{"nonsense", "YzEuMQ", mine} {
		p := b.Do(http.MethodGet, "/api/account/changes?since="+since, nil).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
		if !strings.Contains(p.Detail, "since") {
			t.Errorf("detail %q does not name since", p.Detail)
		}
	}
	for _, limit := range []string{"0", "501"} {
		b.Raw().Do(http.MethodGet, "/api/account/changes?limit="+limit, nil).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
	}
	if p := page(t, b.Client, "", 500); p.HasMore {
		t.Fatal("a new member's feed has more than 500 changes")
	}
}

// A restore voids every cursor (410 RESYNC_REQUIRED); the empty cursor then
// gives the restored ledger.
func TestFeedAnswersResyncAfterRestore(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	w := lt.Wallet(m.Client, "Bank", api.WalletTypeBank, 1000)
	lt.Entry(m.Client, lt.Expense(lt.Date(2026, 11, 3), 300, w.ID))
	cur := page(t, m.Client, "", 100).Next
	var doc api.Backup
	m.Do(http.MethodGet, "/api/account/backup", nil).Want(http.StatusOK).JSON(&doc)
	m.Do(http.MethodPost, "/api/account/restore", doc).Want(http.StatusOK)
	m.Do(http.MethodGet, "/api/account/changes?since="+cur, nil).WantProblem(http.StatusGone, "RESYNC_REQUIRED")
	fresh := page(t, m.Client, "", 100)
	n := map[string]int{}
	for _, c := range typedChanges(t, fresh) {
		if c.Op != api.ChangeOpUpsert {
			t.Fatalf("a tombstone after a restore: %+v", c)
		}
		n[c.Kind]++
	}
	if n["WALLET"] != 1 || n["ENTRY"] != 1 || n["PROFILE"] != 1 {
		t.Fatalf("after the restore the feed holds %v", n)
	}
}

// Tombstones older than 90 days go with the daily job; a cursor from before
// them answers 410, a later one and the empty cursor keep working.
func TestFeedPruneJobRemovesOldTombstones(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	old := page(t, m.Client, "", 100).Next
	w := lt.Wallet(m.Client, "Gone", api.WalletTypeCash, 0)
	m.Do(http.MethodDelete, fmt.Sprintf("/api/account/wallets/%d", w.ID), nil).Want(http.StatusNoContent)
	recent := page(t, m.Client, old, 100).Next
	ageTombstones(t, env, m.ID)
	if ran, err := env.App.Jobs.Run(context.Background(), changes.PruneJobName); err != nil || !ran {
		t.Fatalf("prune job ran %v: %v", ran, err)
	}
	m.Do(http.MethodGet, "/api/account/changes?since="+old, nil).WantProblem(http.StatusGone, "RESYNC_REQUIRED")
	page(t, m.Client, recent, 100)
	for _, c := range typedChanges(t, page(t, m.Client, "", 100)) {
		if c.Op == api.ChangeOpDelete {
			t.Fatalf("a pruned tombstone is still served: %+v", c)
		}
	}
}

// syncAll pages from the empty cursor at limit, restarting on 410 at most
// twice, and answers the number of UPSERTs of kind seen by the run that
// finished and the restarts it took.
func syncAll(t *testing.T, c *apitest.Client, since string, limit int, kind string) (upserts, restarts int) {
	t.Helper()
	cur := since
	for range 1000 {
		res := c.Raw().Do(http.MethodGet, fmt.Sprintf("/api/account/changes?limit=%d&since=%s", limit, cur), nil)
		if res.Status == http.StatusGone {
			res.WantProblem(http.StatusGone, "RESYNC_REQUIRED")
			if restarts++; restarts > 2 {
				t.Fatalf("the sync restarted %d times", restarts)
			}
			cur, upserts = "", 0
			continue
		}
		var p api.ChangePage
		res.Want(http.StatusOK).JSON(&p)
		for _, ch := range typedChanges(t, p) {
			if ch.Kind == kind && ch.Op == api.ChangeOpUpsert {
				upserts++
			}
		}
		cur = p.Next
		if !p.HasMore {
			return upserts, restarts
		}
	}
	t.Fatal("the sync did not finish in 1000 pages")
	return 0, 0
}

// Issue 42: a new device's first sync, started after the tombstone prune,
// finishes at any page size, although its own mid-way cursors are behind
// the pruned position; a cursor from before the prune answers 410 once and
// the restart finishes; after a restore a first sync finishes too; a cursor
// of the old form (no horizon) keeps its old meaning.
func TestFirstSyncFinishesAfterAPrune(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	w := lt.Wallet(m.Client, "Bank", api.WalletTypeBank, 0)
	gone := lt.Wallet(m.Client, "Gone", api.WalletTypeCash, 0)
	before := page(t, m.Client, "", 500).Next
	// 600 entries older (in the feed) than one deletion, which is then pruned.
	env.Exec(`INSERT INTO account_entry (member_id, wallet_id, type, amount, entry_date)
		SELECT $1, $2, 'expense', g, DATE '2026-01-01' + (g % 300) FROM generate_series(1, 600) g`, m.ID, w.ID)
	m.Do(http.MethodDelete, fmt.Sprintf("/api/account/wallets/%d", gone.ID), nil).Want(http.StatusNoContent)
	ageTombstones(t, env, m.ID)
	if ran, err := env.App.Jobs.Run(context.Background(), changes.PruneJobName); err != nil || !ran {
		t.Fatalf("prune job ran %v: %v", ran, err)
	}
	for _, limit := range []int{100, 500, 7} {
		if n, restarts := syncAll(t, m.Client, "", limit, "ENTRY"); n != 600 || restarts != 0 {
			t.Fatalf("first sync at limit %d: %d entries, %d restarts", limit, n, restarts)
		}
	}
	// A device that synced before the prune may have missed the deletion.
	if n, restarts := syncAll(t, m.Client, before, 100, "ENTRY"); n != 600 || restarts != 1 {
		t.Fatalf("sync from before the prune: %d entries, %d restarts (want 1)", n, restarts)
	}
	// A cursor of the old form carries no horizon: behind the prune, it is 410.
	old := base64.RawURLEncoding.EncodeToString([]byte(fmt.Sprintf("c1.%d.1.1", m.ID)))
	m.Do(http.MethodGet, "/api/account/changes?since="+old, nil).WantProblem(http.StatusGone, "RESYNC_REQUIRED")

	// A first sync begun before a later prune restarts once, then finishes.
	mid := page(t, m.Client, "", 100).Next
	lt.Entry(m.Client, lt.Expense(lt.Date(2026, 11, 3), 1, w.ID))
	last := lt.Wallet(m.Client, "Gone too", api.WalletTypeCash, 0)
	m.Do(http.MethodDelete, fmt.Sprintf("/api/account/wallets/%d", last.ID), nil).Want(http.StatusNoContent)
	ageTombstones(t, env, m.ID)
	env.Clock.Advance(25 * time.Hour) // the prune runs once a day
	if ran, err := env.App.Jobs.Run(context.Background(), changes.PruneJobName); err != nil || !ran {
		t.Fatalf("prune job ran %v: %v", ran, err)
	}
	if n, restarts := syncAll(t, m.Client, mid, 100, "ENTRY"); n != 601 || restarts != 1 {
		t.Fatalf("sync begun before the second prune: %d entries, %d restarts (want 1)", n, restarts)
	}

	// After a restore every cursor is void, and a first sync finishes.
	var doc api.Backup
	m.Do(http.MethodGet, "/api/account/backup", nil).Want(http.StatusOK).JSON(&doc)
	m.Do(http.MethodPost, "/api/account/restore", doc).Want(http.StatusOK)
	for _, limit := range []int{100, 500} {
		if n, restarts := syncAll(t, m.Client, "", limit, "ENTRY"); n != 601 || restarts != 0 {
			t.Fatalf("first sync after the restore at limit %d: %d entries, %d restarts", limit, n, restarts)
		}
	}
}

// A page is one range scan of the member's rows in the feed index: no
// sequential scan and no sort of the member's whole log.
func TestFeedPageIsOneIndexScan(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	// Many members with many changes, so the planner's choice is the one a
	// full table gets.
	env.Exec(`INSERT INTO member (email, name) SELECT 'm' || g || '@feed.test', 'M' FROM generate_series(1, 50) g`)
	env.Exec(`INSERT INTO ledger_change (member_id, kind, record_id, xid, seq, deleted)
		SELECT mm.id, 'ENTRY', g, 1, nextval('ledger_change_seq'), false
		FROM member mm, generate_series(1, 2000) g`)
	env.Exec(`ANALYZE ledger_change`)
	rows, err := env.Pool.Query(context.Background(), `EXPLAIN SELECT kind, record_id, seq, deleted
		FROM ledger_change WHERE member_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`, m.ID, 1000, 501)
	if err != nil {
		t.Fatal(err)
	}
	var plan []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, line)
	}
	rows.Close()
	text := strings.Join(plan, "\n")
	if !strings.Contains(text, "Index Scan using ledger_change_feed_idx") || strings.Contains(text, "Seq Scan") ||
		strings.Contains(text, "Sort") || strings.Contains(text, "Bitmap") {
		t.Fatalf("the page query is not one ordered index scan:\n%s", text)
	}
	// The query in queries/ledger_change.sql is the one explained above.
	sql := readQuery(t, "ListLedgerChanges")
	if !strings.Contains(sql, "WHERE member_id = @member_id AND seq > @after_seq") || !strings.Contains(sql, "ORDER BY seq") {
		t.Fatalf("ListLedgerChanges changed; explain the new text:\n%s", sql)
	}
}

// Parallel writers and a reader: no change ever appears behind a cursor the
// reader already holds, so the reader, syncing while they write, ends with
// exactly the member's entries and wallets.
func TestFeedNeverSkipsUnderConcurrentWriters(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	wallets := make([]api.Wallet, 3)
	for i := range wallets {
		wallets[i] = lt.Wallet(m.Client, fmt.Sprintf("W%d", i), api.WalletTypeCash, 0)
	}
	const writers, each = 4, 12
	r := newReplica(m.Client)
	var readErr error
	done := make(chan struct{})
	var left atomic.Int32
	left.Store(writers)
	apitest.Together(writers+1, func(i int) {
		if i == writers {
			// The reader: sync until the writers are done, then once more.
			for {
				select {
				case <-done:
					readErr = r.syncE(37)
					return
				default:
					if readErr = r.syncE(1 + len(r.data)%7); readErr != nil {
						return
					}
				}
			}
		}
		for k := range each {
			w := wallets[(i+k)%len(wallets)]
			amount := int64(100 * (k + 1))
			m.Do(http.MethodPost, "/api/account/entries", lt.Expense(lt.Date(2026, 11, 1+k), amount, w.ID))
			if k%4 == 3 {
				// Transfers go both ways between the same wallets at
				// once: the feed writes its change rows at commit under
				// the member's feed lock (ledger_change_fold), so opposite
				// orders cannot deadlock on them.
				from, to := wallets[0].ID, wallets[1+(i+k)%2].ID
				if i%2 == 1 {
					from, to = to, from
				}
				m.Do(http.MethodPost, "/api/account/transfers", api.TransferRequest{
					Date: lt.Date(2026, 11, 20), Amount: 50, FromWalletID: from, ToWalletID: to,
				})
			}
		}
		if left.Add(-1) == 0 {
			close(done)
		}
	})
	if readErr != nil {
		t.Fatal(readErr)
	}
	want := expected(t, m.Client, m.ID)
	if d := diff(want, r.data); d != "" {
		t.Fatalf("the reader missed a change committed behind its cursor: %s", d)
	}
	if got := len(r.data["ENTRY"]); got != writers*each+2*writers*(each/4) {
		t.Fatalf("%d entries in the replica", got)
	}
}

// readQuery answers the text of one query of queries/ledger_change.sql.
func readQuery(t *testing.T, name string) string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "queries", "ledger_change.sql"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(raw), "-- name: "+name+" ")
	if !ok {
		t.Fatalf("no query %s", name)
	}
	text, _, _ := strings.Cut(rest, "-- name: ")
	return text
}

// The derived records: an expected income's received income follows its
// month's income entries and the month start day, a one-time budget's spent
// follows the entries in its period; stocks and trades are in the feed as
// their lists answer them.
func TestFeedCarriesDerivedRecords(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	w := lt.Wallet(m.Client, "Bank", api.WalletTypeBank, 0)
	m.Do(http.MethodPut, "/api/account/budgets/income", api.BudgetIncomeRequest{Year: 2026, Month: 11, Amount: 5000}).Want(http.StatusOK)
	m.Do(http.MethodPost, "/api/account/budgets/onetime", api.OnetimeBudgetRequest{
		Name: "Trip", Amount: 1000, StartDate: lt.Date(2026, 11, 10), EndDate: lt.Date(2026, 11, 20),
	}).Want(http.StatusCreated)
	var stock api.Stock
	m.Do(http.MethodPost, "/api/account/invest/stocks", api.StockRequest{Code: "005930", Name: "Samsung"}).Want(http.StatusCreated).JSON(&stock)
	m.Do(http.MethodPost, "/api/account/invest/trades", api.TradeRequest{
		StockID: stock.ID, Side: api.TradeSideBuy, Date: lt.Date(2026, 11, 2), Quantity: "2", Price: "70000",
	}).Want(http.StatusCreated)
	r := newReplica(m.Client)
	r.sync(t, 3)
	// An income on the 5th is November's with start day 1 and October's
	// with start day 10; an expense on the 15th is the trip's.
	lt.Entry(m.Client, lt.Income(lt.Date(2026, 11, 5), 700, w.ID))
	lt.Entry(m.Client, lt.Expense(lt.Date(2026, 11, 15), 300, w.ID))
	r.sync(t, 2)
	check := func() {
		t.Helper()
		var income api.BudgetIncome
		m.Do(http.MethodGet, "/api/account/budgets/income?year=2026&month=11", nil).Want(http.StatusOK).JSON(&income)
		got := r.data["BUDGET_INCOME"]["2026-11"].(map[string]any)
		if got["received"] != float64(income.Received) || got["amount"] != float64(*income.Amount) {
			t.Fatalf("expected income in the feed %v, its GET %+v", got, income)
		}
		want := store{}
		for _, o := range items(t, m.Client, "/api/account/budgets/onetime") {
			want["ONETIME_BUDGET"] = map[string]any{idOf(o): o}
		}
		for _, s := range items(t, m.Client, "/api/account/invest/stocks") {
			want["STOCK"] = map[string]any{idOf(s): s}
		}
		for _, tr := range items(t, m.Client, "/api/account/invest/trades") {
			want["TRADE"] = map[string]any{idOf(tr): tr}
		}
		got2 := store{"ONETIME_BUDGET": r.data["ONETIME_BUDGET"], "STOCK": r.data["STOCK"], "TRADE": r.data["TRADE"]}
		if d := diff(want, got2); d != "" {
			t.Fatal(d)
		}
	}
	check()
	if got := r.data["BUDGET_INCOME"]["2026-11"].(map[string]any)["received"]; got != float64(700) {
		t.Fatalf("received %v, want 700", got)
	}
	d := int32(10)
	m.Do(http.MethodPut, "/api/auth/profile", api.UpdateProfileRequest{Name: "Member", MonthStartDay: &d}).Want(http.StatusOK)
	r.sync(t, 5)
	check()
	if got := r.data["BUDGET_INCOME"]["2026-11"].(map[string]any)["received"]; got != float64(0) {
		t.Fatalf("received %v after the start day moved to 10, want 0", got)
	}
	if got := r.data["PROFILE"][fmt.Sprint(m.ID)].(map[string]any)["monthStartDay"]; got != float64(10) {
		t.Fatalf("profile in the feed %v", got)
	}
}

// feedWithOpenTx: a member with a bank wallet, the cursor of their feed's
// first page, and a transaction of the test's own (rolled back at the end
// unless the test ends it).
func feedWithOpenTx(t *testing.T) (*apitest.Member, api.Wallet, string, pgx.Tx) {
	t.Helper()
	env := apitest.New(t)
	m := env.NewMember()
	w := lt.Wallet(m.Client, "Bank", api.WalletTypeBank, 0)
	start := page(t, m.Client, "", 100).Next
	tx, err := env.Pool.Begin(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = tx.Rollback(context.Background()) })
	return m, w, start, tx
}

// Issue 41: a write notes its changes as plain rows and takes no lock for
// the feed, and positions are given by the reader's fold. While another
// transaction holds the member's feed lock (a fold in progress, a restore's
// last step), an entry create still answers 201, and a feed read answers
// the positions there are (without the new entry) rather than waiting;
// once the lock is gone, the next read folds the entry in.
func TestWritesDoNotWaitForTheFeed(t *testing.T) {
	t.Parallel()
	m, w, start, tx := feedWithOpenTx(t)
	ctx := context.Background()
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended('feed:' || $1::bigint, 0))`, m.ID); err != nil {
		t.Fatal(err)
	}
	e := lt.Entry(m.Client, lt.Expense(lt.Date(2026, 11, 3), 5, w.ID))
	held := page(t, m.Client, start, 100)
	if len(held.Changes) != 0 || held.Next != start {
		t.Fatalf("a read while the feed lock is held: %d changes, next %q (want none, %q)", len(held.Changes), held.Next, start)
	}
	if err := tx.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, c := range typedChanges(t, page(t, m.Client, start, 100)) {
		got[c.Kind+" "+c.ID] = true
	}
	if !got[fmt.Sprintf("ENTRY %d", e.ID)] || !got[fmt.Sprintf("WALLET %d", w.ID)] {
		t.Fatalf("after the lock: %v, want the entry %d and its wallet %d", got, e.ID, w.ID)
	}
}

// A note committed after a fold read the member's notes gets a position
// after that fold's: a client holding the cursor of a page read while the
// write was in flight still receives it.
func TestAWriteInFlightDuringAFoldComesAfterIt(t *testing.T) {
	t.Parallel()
	m, w, start, tx := feedWithOpenTx(t)
	ctx := context.Background()
	var slow int64
	if err := tx.QueryRow(ctx, `INSERT INTO account_entry (member_id, wallet_id, type, amount, entry_date, memo)
		VALUES ($1, $2, 'expense', 7, DATE '2026-11-02', 'in flight') RETURNING id`, m.ID, w.ID).Scan(&slow); err != nil {
		t.Fatal(err)
	}
	quick := lt.Entry(m.Client, lt.Expense(lt.Date(2026, 11, 3), 5, w.ID))
	mid := page(t, m.Client, start, 100)
	ids := map[string]bool{}
	for _, c := range typedChanges(t, mid) {
		ids[c.Kind+" "+c.ID] = true
	}
	if !ids[fmt.Sprintf("ENTRY %d", quick.ID)] || ids[fmt.Sprintf("ENTRY %d", slow)] {
		t.Fatalf("a page while an entry is in flight: %v (want %d, not %d)", ids, quick.ID, slow)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	after := typedChanges(t, page(t, m.Client, mid.Next, 100))
	found := false
	for _, c := range after {
		found = found || (c.Kind == "ENTRY" && c.ID == fmt.Sprint(slow))
	}
	if !found {
		t.Fatalf("the entry committed after the page is not after its cursor: %+v", after)
	}
}

// Triggers call their helpers with PERFORM, a query of its own each time,
// and PostgreSQL plans the body of a SQL-language function again on every
// such call, where PL/pgSQL keeps the plan for the session (as a SQL
// function, the feed's note cost an entry's INSERT five plannings). A helper
// that writes (a volatile function) is therefore PL/pgSQL; a SQL function
// that only computes may be inlined into its caller and is left alone.
func TestNoVolatileSQLFunctions(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	var names []string
	if err := env.Pool.QueryRow(context.Background(), `SELECT coalesce(array_agg(p.proname ORDER BY p.proname), '{}')
		FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
		WHERE p.pronamespace = 'public'::regnamespace AND l.lanname = 'sql' AND p.provolatile = 'v'`).Scan(&names); err != nil {
		t.Fatal(err)
	}
	if len(names) > 0 {
		t.Errorf("volatile SQL-language functions %v: write them in PL/pgSQL, whose plans a session keeps", names)
	}
}

// A page's expected incomes are read in two statements however many months
// it holds (the rows, then every month's received income in one sum), and
// each month's received income is its GET's: confirmed incomes of the
// member's ledger month, neither pending nor expenses nor other months.
func TestFeedReadsExpectedIncomesWithoutAStatementPerMonth(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	l, err := ledger.NewHandler(env.Pool, env.Clock, env.Config.Timezone, env.Config.AccountCryptoKey)
	if err != nil {
		t.Fatal(err)
	}
	h := changes.NewHandler(env.Pool, l)
	// A member with months expected incomes, one income and one expense in
	// each month, and a pending income in the last.
	member := func(months int) (*apitest.Member, []api.BudgetIncome) {
		m := env.NewMember(apitest.AsPremium())
		w := lt.Wallet(m.Client, "Bank", api.WalletTypeBank, 0)
		for k := 1; k <= months; k++ {
			m.Do(http.MethodPut, "/api/account/budgets/income", api.BudgetIncomeRequest{Year: 2026, Month: int32(k), Amount: int64(1000 * k)}).Want(http.StatusOK)
			lt.Entry(m.Client, lt.Income(lt.Date(2026, time.Month(k), 5), int64(100*k), w.ID))
			lt.Entry(m.Client, lt.Expense(lt.Date(2026, time.Month(k), 6), 7, w.ID))
		}
		env.Exec(`INSERT INTO account_entry (member_id, wallet_id, type, amount, entry_date, memo, pending)
			VALUES ($1, $2, 'income', 99, $3, 'pending', true)`, m.ID, w.ID, time.Date(2026, time.Month(months), 7, 0, 0, 0, 0, time.UTC))
		var want []api.BudgetIncome
		for k := 1; k <= months; k++ {
			var in api.BudgetIncome
			m.Do(http.MethodGet, fmt.Sprintf("/api/account/budgets/income?year=2026&month=%d", k), nil).Want(http.StatusOK).JSON(&in)
			if in.Received != int64(100*k) {
				t.Fatalf("month %d: GET answers received %d, want %d", k, in.Received, 100*k)
			}
			want = append(want, in)
		}
		return m, want
	}
	read := func(m *apitest.Member) (int, map[string]api.BudgetIncome) {
		if err := changes.Fold(context.Background(), env.Pool, m.ID); err != nil {
			t.Fatal(err)
		}
		rec := &apitest.RecordingDB{DBTX: env.Pool}
		p, err := h.PageTx(context.Background(), db.New(rec), m.ID, nil, 500)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]api.BudgetIncome{}
		for _, c := range typedChanges(t, p) {
			if in, ok := c.Record.(*api.BudgetIncome); ok {
				got[c.ID] = *in
			}
		}
		return len(rec.Sent), got
	}
	one, _ := member(1)
	six, want := member(6)
	oneSent, _ := read(one)
	sixSent, got := read(six)
	if sixSent != oneSent {
		t.Errorf("a page with 6 expected incomes sent %d statements, with 1 sent %d: want the same", sixSent, oneSent)
	}
	if len(got) != len(want) {
		t.Fatalf("%d expected incomes on the page, want %d", len(got), len(want))
	}
	for _, w := range want {
		g := got[fmt.Sprintf("%04d-%02d", w.Year, w.Month)]
		if g.Received != w.Received || g.Amount == nil || *g.Amount != *w.Amount {
			t.Errorf("%d-%02d on the page: received %d, amount %v; its GET: received %d, amount %d", w.Year, w.Month, g.Received, g.Amount, w.Received, *w.Amount)
		}
	}
}

// The notes of a member who never reads their feed are folded by the fold
// job; an account deletion leaves none of its member's notes (its cascades
// write some), and the job drops any left by a member that is gone.
func TestFoldJobAndAccountDeletionLeaveNoNotes(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	notes := func(member int64) int {
		t.Helper()
		var n int
		if err := env.Pool.QueryRow(context.Background(), `SELECT count(*) FROM ledger_change_pending WHERE member_id = $1`, member).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	quiet := env.NewMember()
	w := lt.Wallet(quiet.Client, "Bank", api.WalletTypeBank, 0)
	lt.Entry(quiet.Client, lt.Expense(lt.Date(2026, 11, 3), 5, w.ID))
	if notes(quiet.ID) == 0 {
		t.Fatal("a write left no note")
	}
	if ran, err := env.App.Jobs.Run(context.Background(), changes.FoldJobName); err != nil || !ran {
		t.Fatalf("fold job ran %v: %v", ran, err)
	}
	if n := notes(quiet.ID); n != 0 {
		t.Fatalf("%d notes after the fold job", n)
	}
	var folded int
	if err := env.Pool.QueryRow(context.Background(), `SELECT count(*) FROM ledger_change WHERE member_id = $1 AND kind IN ('ENTRY', 'WALLET')`, quiet.ID).Scan(&folded); err != nil || folded != 2 {
		t.Fatalf("the job folded %d entry and wallet changes (%v), want 2", folded, err)
	}

	gone := env.NewMember()
	gw := lt.Wallet(gone.Client, "Bank", api.WalletTypeBank, 0)
	lt.Entry(gone.Client, lt.Expense(lt.Date(2026, 11, 3), 5, gw.ID))
	gone.Do(http.MethodDelete, "/api/auth/me", nil).Want(http.StatusNoContent)
	if n := notes(gone.ID); n != 0 {
		t.Fatalf("%d notes of a deleted member", n)
	}
	// A note of a member that no longer exists (as no path leaves one).
	env.Exec(`INSERT INTO ledger_change_pending (xid, member_id, kind, record_id, deleted) VALUES (1, $1, 'ENTRY', 1, true)`, gone.ID)
	env.Clock.Advance(2 * time.Minute)
	if ran, err := env.App.Jobs.Run(context.Background(), changes.FoldJobName); err != nil || !ran {
		t.Fatalf("fold job ran %v: %v", ran, err)
	}
	if n := notes(gone.ID); n != 0 {
		t.Fatalf("%d notes of a deleted member after the fold job", n)
	}
}
