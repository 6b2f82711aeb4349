package ledger_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/apitest"
	lt "github.com/nestegg/nestegg/internal/apitest/ledgertest"
	"github.com/nestegg/nestegg/internal/calendar"
	"github.com/nestegg/nestegg/internal/ledger"
)

func TestEntryLifecycleWithTags(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	card := lt.Wallet(m.Client, "Card", api.WalletTypeCard, 0)
	food := lt.Category(m.Client, "Food", api.EntryTypeExpense, nil)

	body := lt.Expense(lt.Date(2026, 11, 10), 12000, card.ID)
	body.CategoryID = &food.ID
	body.Memo = lt.Ptr("  Lunch  ")
	body.Tags = &[]string{"work", "lunch", " work"}
	body.InstallmentMonths = lt.Ptr[int32](3)
	e := lt.Entry(m.Client, body)
	if e.Memo != "Lunch" || len(e.Tags) != 2 || e.Pending || *e.InstallmentMonths != 3 || e.TransferID != nil {
		t.Fatalf("created %+v", e)
	}
	var tags api.TagList
	m.Do(http.MethodGet, "/api/account/tags", nil).Want(http.StatusOK).JSON(&tags)
	if len(tags.Items) != 2 {
		t.Fatalf("tags %+v, want the two new names as tags", tags.Items)
	}

	path := fmt.Sprintf("/api/account/entries/%d", e.ID)
	// Without tags an update keeps them; an empty list removes them.
	upd := lt.Expense(lt.Date(2026, 11, 11), 13000, card.ID)
	var got api.Entry
	m.Do(http.MethodPut, path, upd).Want(http.StatusOK).JSON(&got)
	if got.Amount != 13000 || len(got.Tags) != 2 || got.CategoryID != nil || got.InstallmentMonths != nil {
		t.Fatalf("updated %+v", got)
	}
	upd.Tags = &[]string{}
	m.Do(http.MethodPut, path, upd).Want(http.StatusOK).JSON(&got)
	if len(got.Tags) != 0 {
		t.Fatalf("tags %v after clearing", got.Tags)
	}
	m.Do(http.MethodDelete, path, nil).Want(http.StatusNoContent)
	m.Do(http.MethodGet, path, nil).WantProblem(http.StatusNotFound, "NOT_FOUND")
}

func TestEntryRules(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	free := env.NewMember()
	card := lt.Wallet(free.Client, "Card", api.WalletTypeCard, 0)
	cash := lt.Wallet(free.Client, "Cash", api.WalletTypeCash, 0)
	salary := lt.Category(free.Client, "Salary", api.EntryTypeIncome, nil)
	date := lt.Date(2026, 11, 10)

	// Tags are PREMIUM: refused, never dropped.
	withTags := lt.Expense(date, 100, cash.ID)
	withTags.Tags = &[]string{"x"}
	free.Do(http.MethodPost, "/api/account/entries", withTags).WantProblem(http.StatusForbidden, "PREMIUM_REQUIRED")

	for name, tc := range map[string]struct {
		body  api.EntryRequest
		field string
	}{
		"installments on cash": {func() api.EntryRequest {
			b := lt.Expense(date, 100, cash.ID)
			b.InstallmentMonths = lt.Ptr[int32](3)
			return b
		}(), "/installmentMonths"},
		"installments on income": {func() api.EntryRequest {
			b := lt.Income(date, 100, card.ID)
			b.InstallmentMonths = lt.Ptr[int32](3)
			return b
		}(), "/installmentMonths"},
		"category of other type": {func() api.EntryRequest { b := lt.Expense(date, 100, cash.ID); b.CategoryID = &salary.ID; return b }(), "/categoryId"},
		"no amount at all":       {api.EntryRequest{Date: date, Type: api.EntryTypeExpense}, "/amount"},
		"no rate nor currency":   {api.EntryRequest{Date: date, Type: api.EntryTypeExpense, OriginalAmount: lt.Ptr("12.5")}, "/exchangeRate"},
		"control in memo":        {func() api.EntryRequest { b := lt.Expense(date, 100, cash.ID); b.Memo = lt.Ptr("a\x1bb"); return b }(), "/memo"},
	} {
		p := free.Do(http.MethodPost, "/api/account/entries", tc.body).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
		if len(p.Errors) != 1 || p.Errors[0].Field != tc.field {
			t.Errorf("%s: %+v, want %s", name, p.Errors, tc.field)
		}
	}
	for name, raw := range map[string]string{
		"installments 1":  `{"date":"2026-11-10","type":"expense","amount":1,"installmentMonths":1}`,
		"installments 25": `{"date":"2026-11-10","type":"expense","amount":1,"installmentMonths":25}`,
		"negative amount": `{"date":"2026-11-10","type":"expense","amount":-1}`,
		"huge memo":       `{"date":"2026-11-10","type":"expense","amount":1,"memo":"` + strings.Repeat("x", 201) + `"}`,
		"NUL in memo":     `{"date":"2026-11-10","type":"expense","amount":1,"memo":"a\u0000"}`,
		"bad date":        `{"date":"2026-13-10","type":"expense","amount":1}`,
		"bad currency":    `{"date":"2026-11-10","type":"expense","amount":1,"currency":"usd"}`,
		"bad rate":        `{"date":"2026-11-10","type":"expense","originalAmount":"1","exchangeRate":"1e5"}`,
		"bad type":        `{"date":"2026-11-10","type":"TRANSFER","amount":1}`,
	} {
		if res := free.Raw().Do(http.MethodPost, "/api/account/entries", raw); res.Status != http.StatusBadRequest {
			t.Errorf("%s: %d %s", name, res.Status, res.Body)
		}
	}

	// A foreign payment: amount = 12.5 × 1,385.55 = 17,319.375 → 17,319.
	var e api.Entry
	free.Do(http.MethodPost, "/api/account/entries", api.EntryRequest{
		Date: date, Type: api.EntryTypeExpense, WalletID: &card.ID, Currency: lt.Ptr("USD"),
		OriginalAmount: lt.Ptr("12.5"), ExchangeRate: lt.Ptr("1385.55"), InstallmentMonths: lt.Ptr[int32](24),
	}).Want(http.StatusCreated).JSON(&e)
	if e.Amount != 17319 || *e.OriginalAmount != "12.5" || *e.ExchangeRate != "1385.55" || *e.Currency != "USD" {
		t.Fatalf("foreign entry %+v", e)
	}
	// Half up: 0.5 × 1 = 0.5 → 1.
	free.Do(http.MethodPost, "/api/account/entries", api.EntryRequest{
		Date: date, Type: api.EntryTypeExpense, Currency: lt.Ptr("USD"), OriginalAmount: lt.Ptr("0.5"), ExchangeRate: lt.Ptr("1"),
	}).Want(http.StatusCreated).JSON(&e)
	if e.Amount != 1 {
		t.Fatalf("0.5 rounded to %d", e.Amount)
	}

	// One side of a transfer changes only through the transfer.
	env.Exec(`WITH t AS (INSERT INTO transfer (member_id, transfer_date, amount) VALUES ($2, '2026-11-16', 5) RETURNING id)
		UPDATE account_entry SET transfer_id = (SELECT id FROM t) WHERE id = $1`, e.ID, free.ID)
	free.Do(http.MethodPut, fmt.Sprintf("/api/account/entries/%d", e.ID), lt.Expense(date, 5, cash.ID)).WantProblem(http.StatusConflict, "CONFLICT")
	free.Do(http.MethodDelete, fmt.Sprintf("/api/account/entries/%d", e.ID), nil).WantProblem(http.StatusConflict, "CONFLICT")
}

func TestPendingEntries(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	cash := lt.Wallet(m.Client, "Cash", api.WalletTypeCash, 0)
	a := lt.Entry(m.Client, lt.Expense(lt.Date(2026, 11, 1), 100, cash.ID))
	b := lt.Entry(m.Client, lt.Expense(lt.Date(2026, 11, 2), 200, cash.ID))
	env.Exec(`UPDATE account_entry SET pending = true WHERE id = ANY($1)`, []int64{a.ID, b.ID})
	var c api.PendingCount
	m.Do(http.MethodGet, "/api/account/entries/pending/count", nil).Want(http.StatusOK).JSON(&c)
	if c.Count != 2 {
		t.Fatalf("pending count %d", c.Count)
	}
	var page api.EntryPage
	m.Do(http.MethodGet, "/api/account/entries?year=2026&month=11&pending=true", nil).Want(http.StatusOK).JSON(&page)
	if page.Total != 2 || page.Summary.Expense != 0 || !page.Items[0].Pending {
		t.Fatalf("pending list %+v: pending entries are listed but count in no total", page)
	}
	m.Do(http.MethodPost, fmt.Sprintf("/api/account/entries/%d/confirm", a.ID), nil).Want(http.StatusOK)
	m.Do(http.MethodPost, fmt.Sprintf("/api/account/entries/%d/confirm", a.ID), nil).Want(http.StatusOK)
	m.Do(http.MethodGet, "/api/account/entries/pending/count", nil).Want(http.StatusOK).JSON(&c)
	m.Do(http.MethodGet, "/api/account/entries?year=2026&month=11", nil).Want(http.StatusOK).JSON(&page)
	if c.Count != 1 || page.Summary.Expense != 100 {
		t.Fatalf("after confirming: count %d, expense %d", c.Count, page.Summary.Expense)
	}
}

func TestListEntriesFiltersAndSummary(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	bank := lt.Wallet(m.Client, "Bank", api.WalletTypeBank, 0)
	cash := lt.Wallet(m.Client, "Cash", api.WalletTypeCash, 0)
	food := lt.Category(m.Client, "Food", api.EntryTypeExpense, nil)
	lunch := lt.Category(m.Client, "Lunch", api.EntryTypeExpense, &food.ID)
	make := func(d int, typ api.EntryType, amount int64, w int64, cat *int64, memo string, tags ...string) api.Entry {
		b := api.EntryRequest{Date: lt.Date(2026, 11, d), Type: typ, Amount: &amount, WalletID: &w, CategoryID: cat, Memo: &memo}
		if len(tags) > 0 {
			b.Tags = &tags
		}
		return lt.Entry(m.Client, b)
	}
	salary := make(25, api.EntryTypeIncome, 3_000_000, bank.ID, nil, "Salary")
	make(10, api.EntryTypeExpense, 9000, cash.ID, &lunch.ID, "Kimchi 100% stew", "work")
	make(10, api.EntryTypeExpense, 20000, bank.ID, &food.ID, "Groceries")
	make(1, api.EntryTypeExpense, 5000, cash.ID, nil, "Bus_card", "work")
	lt.Entry(m.Client, lt.Expense(lt.Date(2026, 10, 31), 777, cash.ID)) // another month
	lt.Entry(m.Client, lt.Expense(lt.Date(2026, 12, 1), 888, cash.ID))

	list := func(query string) api.EntryPage {
		var p api.EntryPage
		m.Do(http.MethodGet, "/api/account/entries?"+query, nil).Want(http.StatusOK).JSON(&p)
		return p
	}
	all := list("year=2026&month=11")
	if all.Total != 4 || all.Summary.Income != 3_000_000 || all.Summary.Expense != 34000 || all.Items[0].ID != salary.ID {
		t.Fatalf("month %+v", all)
	}
	// Same date: the newer created first.
	if all.Items[1].Memo != "Groceries" || all.Items[2].Memo != "Kimchi 100% stew" {
		t.Fatalf("order %q, %q", all.Items[1].Memo, all.Items[2].Memo)
	}
	// The current month (November 2026 in Asia/Seoul) without parameters.
	if p := list(""); p.Total != 4 {
		t.Fatalf("default period: %d entries", p.Total)
	}
	for query, want := range map[string]int64{
		fmt.Sprintf("year=2026&month=11&walletId=%d", cash.ID):    2,
		fmt.Sprintf("year=2026&month=11&categoryId=%d", food.ID):  2, // with its sub-category
		fmt.Sprintf("year=2026&month=11&categoryId=%d", lunch.ID): 1,
		"year=2026&month=11&tag=work":                             2,
		"year=2026&month=11&type=income":                          1,
		"year=2026&month=11&q=" + url.QueryEscape("100%"):         1,
		"year=2026&month=11&q=bus_":                               1,
		"year=2026&month=11&q=_":                                  1, // a literal underscore, not a wildcard
		"from=2026-10-31&to=2026-11-01":                           2,
		"from=2026-11-01&to=2026-12-31":                           5,
		"year=2026&month=11&size=1&page=2":                        4,
	} {
		if p := list(query); p.Total != want {
			t.Errorf("%s: total %d, want %d", query, p.Total, want)
		}
	}
	if p := list("year=2026&month=11&size=1&page=2"); len(p.Items) != 1 || p.Page != 2 || p.Size != 1 {
		t.Errorf("paging: %+v", p)
	}
	for _, query := range []string{"year=2026", "month=11", "from=2026-11-01", "from=2026-11-02&to=2026-11-01", "from=2025-01-01&to=2026-11-01", "year=2026&month=11&from=2026-11-01&to=2026-11-02", "size=101", "q="} {
		if res := m.Raw().Do(http.MethodGet, "/api/account/entries?"+query, nil); res.Status != http.StatusBadRequest {
			t.Errorf("%s: %d, want 400", query, res.Status)
		}
	}
}

func TestMonthRangeIsCalendarMonth(t *testing.T) {
	t.Parallel()
	december := calendar.NewMonth(2026, time.December, 1)
	from, to := december.From(), december.To()
	if from.Format(time.DateOnly) != "2026-12-01" || to.Format(time.DateOnly) != "2027-01-01" {
		t.Fatalf("December 2026 is %s to %s", from, to)
	}
}

// seedYear gives the member about 1,500 entries over 2026, a third of them
// tagged, and a few other members the same, so the table looks like a
// shared one. It answers the member's bank wallet.
func seedYear(t testing.TB, env *apitest.Env, members ...*apitest.Member) {
	t.Helper()
	for _, m := range members {
		env.Exec(`INSERT INTO wallet (member_id, name, type, sort_order) VALUES ($1, 'Seed', 'BANK', 99)`, m.ID)
		env.Exec(`INSERT INTO account_tag (member_id, name, sort_order) VALUES ($1, 'seed', 99), ($1, 'other', 100)`, m.ID)
		env.Exec(`
			INSERT INTO account_entry (member_id, wallet_id, type, amount, entry_date, memo)
			SELECT $1, (SELECT id FROM wallet WHERE member_id = $1 AND name = 'Seed'),
			       CASE WHEN g % 10 = 0 THEN 'income' ELSE 'expense' END, 1000 + g, DATE '2026-01-01' + (g % 365), 'seed ' || g
			FROM generate_series(1, 1500) g`, m.ID)
		env.Exec(`
			INSERT INTO account_entry_tag (entry_id, tag_id)
			SELECT e.id, t.id FROM account_entry e JOIN account_tag t ON t.member_id = e.member_id
			WHERE e.member_id = $1 AND e.id % 3 = 0`, m.ID)
	}
	env.Exec(`ANALYZE`)
}

// TestMonthListIsAFixedNumberOfIndexedQueries: a month of a seeded year is
// listed in two statements sent in one round trip whatever the page size,
// the page's query uses an index with sequential scans allowed, and its
// tags' subquery runs once for each entry of the page, not for every entry
// of the month.
func TestMonthListIsAFixedNumberOfIndexedQueries(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	var members []*apitest.Member
	for range 4 {
		members = append(members, env.NewMember())
	}
	seedYear(t, env, members...)
	m := members[0]
	ctx := context.Background()
	march := calendar.NewMonth(2026, time.March, 1)
	from, to := march.From(), march.To()
	for _, size := range []int32{1, 20, 100} {
		c := &apitest.RecordingDB{DBTX: env.Pool}
		list, err := ledger.ReadEntryPage(ctx, c, m.ID, ledger.EntryFilter{From: from, To: to, Page: 1, Size: size})
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Sent) != 2 || c.Trips != 1 || len(list.Items) != int(size) {
			t.Fatalf("a page of %d took %d statements in %d round trips (%d items), want 2 in 1", size, len(c.Sent), c.Trips, len(list.Items))
		}
		tagged := 0
		for _, e := range list.Items {
			tagged += len(e.Tags)
		}
		if size == 100 && tagged == 0 {
			t.Fatal("no tags loaded for a page of 100 seeded entries")
		}
	}

	conn, err := env.Pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	var seqscan string
	if err := conn.QueryRow(ctx, "SHOW enable_seqscan").Scan(&seqscan); err != nil || seqscan != "on" {
		t.Fatalf("enable_seqscan is %q (%v): the plan must hold with sequential scans allowed", seqscan, err)
	}
	x := &apitest.ExplainingDB{DBTX: conn}
	if _, err := ledger.ReadEntryPage(ctx, x, m.ID, ledger.EntryFilter{From: from, To: to, Page: 1, Size: 20}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(x.Plan, "Index") || strings.Contains(x.Plan, "Seq Scan on account_entry") {
		t.Fatalf("the month query does not use an index:\n%s", x.Plan)
	}
	// The tags' subquery runs once for each row the page reads: run the
	// page's statement, as sent, under EXPLAIN ANALYZE.
	rec := &apitest.RecordingDB{DBTX: env.Pool}
	if _, err := ledger.ReadEntryPage(ctx, rec, m.ID, ledger.EntryFilter{From: from, To: to, Page: 1, Size: 20}); err != nil {
		t.Fatal(err)
	}
	rows, err := conn.Query(ctx, "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) "+rec.Sent[0].SQL, rec.Sent[0].Args...)
	if err != nil {
		t.Fatal(err)
	}
	analyzed, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	if loops := subPlanLoops(analyzed, "SubPlan 1"); loops != 20 {
		t.Fatalf("the tags' subquery ran %d times for a page of 20:\n%s", loops, strings.Join(analyzed, "\n"))
	}
	t.Logf("month query plan:\n%s", x.Plan)
}

// subPlanLoops answers how many times the node under the plan line naming
// sub ran (EXPLAIN ANALYZE's loops; -1: no such line).
func subPlanLoops(plan []string, sub string) int {
	for i, line := range plan {
		if strings.TrimSpace(line) != sub || i+1 == len(plan) {
			continue
		}
		var loops int
		if at := strings.Index(plan[i+1], "loops="); at >= 0 {
			if _, err := fmt.Sscanf(plan[i+1][at+len("loops="):], "%d", &loops); err == nil {
				return loops
			}
		}
	}
	return -1
}

// An entry is the first of its day only if no other counting entry (one
// that is confirmed and not a transfer side) was on that day: only such a
// write can complete a month, so only it runs the month-complete check.
func TestCreateTellsTheFirstCountingEntryOfItsDay(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	other := env.NewMember()
	ctx := context.Background()
	q := db.New(env.Pool)
	day := func(d int) time.Time { return time.Date(2026, 11, d, 0, 0, 0, 0, time.UTC) }
	create := func(memberID int64, in ledger.EntryInput) bool {
		t.Helper()
		e, err := ledger.CreateEntryTx(ctx, q, memberID, in)
		if err != nil {
			t.Fatal(err)
		}
		return e.NewDay
	}
	expense := func(d int) ledger.EntryInput {
		return ledger.EntryInput{Date: day(d), Type: ledger.TypeExpense, Amount: 1000, ProbeNewDay: true}
	}
	pending := expense(3)
	pending.Pending = true

	if !create(other.ID, expense(1)) {
		t.Fatal("another member's first entry of a day is not the first")
	}
	if !create(m.ID, expense(1)) {
		t.Fatal("another member's entry on the day counted for this member")
	}
	if create(m.ID, expense(1)) {
		t.Fatal("the second entry of a day is said to be the first")
	}
	create(m.ID, pending)
	if !create(m.ID, expense(3)) {
		t.Fatal("a pending entry on the day counted")
	}
	env.Exec(`INSERT INTO transfer (member_id, transfer_date, amount) VALUES ($1, DATE '2026-11-05', 1)`, m.ID)
	env.Exec(`INSERT INTO account_entry (member_id, type, amount, entry_date, transfer_id)
		SELECT member_id, 'expense', 1, transfer_date, id FROM transfer WHERE member_id = $1`, m.ID)
	if !create(m.ID, expense(5)) {
		t.Fatal("a transfer side on the day counted")
	}
	unasked := expense(7)
	unasked.ProbeNewDay = false
	if create(m.ID, unasked) {
		t.Fatal("a create that did not ask says it is the first of its day")
	}
}

// A create reads the member's entries of its day only when asked
// (ProbeNewDay: the handler asks on the last day of the member's month,
// when the answer can complete it). On a table whose statistics make the
// probe's generic plan a sequential scan (one member's thousands of entries
// on one day, as make load writes), an unasked probe read the whole table
// for every create on a day of its own.
func TestCreateReadsTheDayOnlyWhenAsked(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	ctx := context.Background()
	for _, probe := range []bool{false, true} {
		// Sequential scans of the table, index scans of its indexes.
		scans := env.CountWithin(func(q *db.Queries) error {
			in := ledger.EntryInput{Date: time.Date(2026, 11, 16, 0, 0, 0, 0, time.UTC), Type: ledger.TypeExpense, Amount: 1000, ProbeNewDay: probe}
			_, err := ledger.CreateEntryTx(ctx, q, m.ID, in)
			return err
		}, `SELECT ARRAY[pg_stat_get_xact_numscans('account_entry'::regclass)
			+ (SELECT sum(pg_stat_get_xact_numscans(indexrelid)) FROM pg_index WHERE indrelid = 'account_entry'::regclass)]::bigint[]`)[0]
		if probe != (scans > 0) {
			t.Errorf("a create with ProbeNewDay %v scanned account_entry %d times", probe, scans)
		}
	}
}

// TestEntryListShowsTags: the month list answer carries each entry's tags, as
// the entry itself does.
func TestEntryListShowsTags(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	cash := lt.Wallet(m.Client, "Cash", api.WalletTypeCash, 0)
	body := lt.Expense(lt.Date(2026, 11, 5), 100, cash.ID)
	body.Tags = &[]string{"travel", "work"}
	tagged := lt.Entry(m.Client, body)
	plain := lt.Entry(m.Client, lt.Expense(lt.Date(2026, 11, 4), 200, cash.ID))
	if len(tagged.Tags) != 2 {
		t.Fatalf("created with tags %v", tagged.Tags)
	}

	var page api.EntryPage
	m.Do(http.MethodGet, "/api/account/entries?year=2026&month=11", nil).Want(http.StatusOK).JSON(&page)
	if len(page.Items) != 2 || page.Items[0].ID != tagged.ID || page.Items[1].ID != plain.ID {
		t.Fatalf("items %+v", page.Items)
	}
	got := map[string]bool{}
	for _, tag := range page.Items[0].Tags {
		got[tag] = true
	}
	if len(page.Items[0].Tags) != 2 || !got["travel"] || !got["work"] {
		t.Fatalf("listed tags %v, want travel and work", page.Items[0].Tags)
	}
	if fmt.Sprint(page.Items[0].Tags) != fmt.Sprint(tagged.Tags) {
		t.Errorf("listed tags %v, the entry answered %v", page.Items[0].Tags, tagged.Tags)
	}
	if len(page.Items[1].Tags) != 0 {
		t.Errorf("untagged entry listed with tags %v", page.Items[1].Tags)
	}
}
