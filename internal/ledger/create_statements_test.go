package ledger_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/internal/ledger"
)

// An entry create is one statement that checks what the entry names,
// inserts it and makes, links and names its tags, answering the whole row.
// Only a refused entry reads again, to say why.
func TestEntryCreateIsOneStatementWithItsTags(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	other := env.NewMember()
	ctx := context.Background()
	var wallet, category, foreignWallet int64
	if err := env.Pool.QueryRow(ctx, `INSERT INTO wallet (member_id, name, type, sort_order) VALUES ($1, 'Card', 'CARD', 1) RETURNING id`, m.ID).Scan(&wallet); err != nil {
		t.Fatal(err)
	}
	if err := env.Pool.QueryRow(ctx, `INSERT INTO account_category (member_id, name, type, sort_order) VALUES ($1, 'Food', 'expense', 1) RETURNING id`, m.ID).Scan(&category); err != nil {
		t.Fatal(err)
	}
	if err := env.Pool.QueryRow(ctx, `INSERT INTO wallet (member_id, name, type, sort_order) VALUES ($1, 'Bank', 'BANK', 1) RETURNING id`, other.ID).Scan(&foreignWallet); err != nil {
		t.Fatal(err)
	}
	in := ledger.EntryInput{Date: time.Date(2026, 11, 16, 0, 0, 0, 0, time.UTC), Type: "expense", Amount: 4500, WalletID: &wallet, CategoryID: &category, Memo: "Coffee", ProbeNewDay: true}

	rec := &apitest.RecordingDB{DBTX: env.Pool}
	e, err := ledger.CreateEntryTx(ctx, db.New(rec), m.ID, in)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Sent) != 1 || e.ID == 0 || !e.NewDay || e.Memo != "Coffee" || *e.WalletID != wallet {
		t.Errorf("create without tags: %d statements, entry %+v; want 1 statement and the whole row", len(rec.Sent), e)
	}

	tagged := in
	tagged.Tags = []string{"coffee", "morning"}
	err = database.InTx(ctx, env.Pool, func(q *db.Queries) error {
		_, err := ledger.CreateEntryTx(ctx, q, m.ID, ledger.EntryInput{Date: in.Date, Type: "expense", Amount: 1, Tags: []string{"morning"}})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	rec = &apitest.RecordingDB{DBTX: env.Pool}
	e, err = ledger.CreateEntryTx(ctx, db.New(rec), m.ID, tagged)
	if err != nil {
		t.Fatal(err)
	}
	// "morning" existed (sort order 1), "coffee" is new (placed last).
	if len(rec.Sent) != 1 || len(e.Tags) != 2 || e.Tags[0] != "morning" || e.Tags[1] != "coffee" || e.NewDay {
		t.Errorf("create with tags: %d statements, tags %v, new day %v; want 1 statement, [morning coffee], false", len(rec.Sent), e.Tags, e.NewDay)
	}
	// The row answered is the row committed: linking the tags did not
	// raise the new entry's version after the statement returned it.
	var version int64
	var links int
	if err := env.Pool.QueryRow(ctx, `SELECT version, (SELECT count(*) FROM account_entry_tag WHERE entry_id = $1) FROM account_entry WHERE id = $1`, e.ID).Scan(&version, &links); err != nil {
		t.Fatal(err)
	}
	if version != e.Version || links != 2 {
		t.Errorf("the tagged entry has version %d and %d tag links; the create answered version %d (want equal, and 2 links)", version, links, e.Version)
	}

	refused := in
	refused.WalletID = &foreignWallet
	rec = &apitest.RecordingDB{DBTX: env.Pool}
	if _, err := ledger.CreateEntryTx(ctx, db.New(rec), m.ID, refused); err != ledger.ErrWalletNotFound {
		t.Errorf("another member's wallet: %v, want ErrWalletNotFound", err)
	}
}

// TestEntryCreateLinksATagMadeMeanwhile: a tag of the same name that
// another transaction commits while the create's statement waits on it is
// invisible to that statement's snapshot, but not to ensure_member_tags,
// which reads it after the wait: the entry is created once, with every tag
// it named, without running again. (Before ensure_member_tags the statement
// failed and ran again whole; a second such tag during the retry answered 503.)
func TestEntryCreateLinksATagMadeMeanwhile(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	ctx := context.Background()

	// Another request of the member has made the tag "fresh", not yet
	// committed.
	other, err := env.Pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Rollback(ctx) //nolint:errcheck // a no-op after Commit
	if _, err := other.Exec(ctx, `INSERT INTO account_tag (member_id, name, sort_order) VALUES ($1, 'fresh', 5)`, m.ID); err != nil {
		t.Fatal(err)
	}

	type created struct {
		e   ledger.Entry
		err error
	}
	done := make(chan created, 1)
	go func() {
		in := ledger.EntryInput{Date: time.Date(2026, 11, 16, 0, 0, 0, 0, time.UTC), Type: "expense", Amount: 4500, Tags: []string{"fresh", "later"}}
		e, err := database.InTxV(ctx, env.Pool, func(q *db.Queries) (ledger.Entry, error) {
			return ledger.CreateEntryTx(ctx, q, m.ID, in)
		})
		done <- created{e, err}
	}()
	// The create waits for the other transaction's tag (its ON CONFLICT).
	deadline := time.Now().Add(10 * time.Second)
	for {
		var waiting int
		if err := env.Pool.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity
			WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%CreateTaggedEntryChecked%'`).Scan(&waiting); err != nil {
			t.Fatal(err)
		}
		if waiting > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the create never waited for the other transaction's tag")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := other.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	got := <-done
	if got.err != nil {
		t.Fatal(got.err)
	}
	// Both tags, in the member's tag order. "later" was placed after the
	// tags the create could see; "fresh", made meanwhile at sort order 5,
	// comes after it: placing new tags is not serialized with a parallel
	// request's (two parallel CreateTag calls can share a sort order too).
	var order []string
	if err := env.Pool.QueryRow(ctx, `SELECT array_agg(name ORDER BY sort_order, id) FROM account_tag WHERE member_id = $1`, m.ID).Scan(&order); err != nil {
		t.Fatal(err)
	}
	if len(got.e.Tags) != 2 || len(order) != 2 || got.e.Tags[0] != order[0] || got.e.Tags[1] != order[1] {
		t.Errorf("the entry's tags: %v, want fresh and later in the member's tag order %v", got.e.Tags, order)
	}
	var entries, links int
	if err := env.Pool.QueryRow(ctx, `SELECT (SELECT count(*) FROM account_entry WHERE member_id = $1),
		(SELECT count(*) FROM account_entry_tag l JOIN account_tag t ON t.id = l.tag_id WHERE t.member_id = $1)`, m.ID).Scan(&entries, &links); err != nil {
		t.Fatal(err)
	}
	if entries != 1 || links != 2 {
		t.Errorf("%d entries with %d tag links, want 1 with 2", entries, links)
	}
	if n := database.Retried(env.Pool); n != 0 {
		t.Errorf("the create ran again %d times, want 0", n)
	}
}

// TestTagLinksRaiseTheVersionOnce: linking or unlinking tags raises the
// version of an entry another transaction committed, once per statement;
// an entry this transaction wrote (created, or updated: its version was
// raised by that write) keeps the version it has, which no one else has
// seen.
func TestTagLinksRaiseTheVersionOnce(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	ctx := context.Background()
	e, err := ledger.CreateEntryTx(ctx, db.New(env.Pool), m.ID, ledger.EntryInput{
		Date: time.Date(2026, 11, 16, 0, 0, 0, 0, time.UTC), Type: "expense", Amount: 4500, Tags: []string{"a"}})
	if err != nil {
		t.Fatal(err)
	}
	var b, c int64
	if err := env.Pool.QueryRow(ctx, `INSERT INTO account_tag (member_id, name, sort_order) VALUES ($1, 'b', 2), ($1, 'c', 3) RETURNING id`, m.ID).Scan(&b); err != nil {
		t.Fatal(err)
	}
	if err := env.Pool.QueryRow(ctx, `SELECT id FROM account_tag WHERE member_id = $1 AND name = 'c'`, m.ID).Scan(&c); err != nil {
		t.Fatal(err)
	}
	version := func() int64 {
		t.Helper()
		var v int64
		if err := env.Pool.QueryRow(ctx, `SELECT version FROM account_entry WHERE id = $1`, e.ID).Scan(&v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	steps := []struct {
		name string
		sql  []string
		want int64 // raised by
	}{
		{"a link added to a committed entry", []string{`INSERT INTO account_entry_tag (entry_id, tag_id) VALUES ($1, $2)`}, 1},
		{"an update, then a link, in one transaction", []string{
			`UPDATE account_entry SET memo = 'edited' WHERE id = $1 AND $2::bigint > 0`,
			`INSERT INTO account_entry_tag (entry_id, tag_id) VALUES ($1, $2 + 0)`}, 1},
		{"a tag deleted (its links go by cascade)", []string{`DELETE FROM account_tag WHERE id = $2 AND $1::bigint > 0`}, 1},
	}
	tags := []int64{b, c, b}
	for i, s := range steps {
		before := version()
		err := database.InTxRaw(ctx, env.Pool, func(tx pgx.Tx) error {
			for _, stmt := range s.sql {
				if _, err := tx.Exec(ctx, stmt, e.ID, tags[i]); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if got := version() - before; got != s.want {
			t.Errorf("%s raised the version by %d, want %d", s.name, got, s.want)
		}
	}
}

// TestEntryCreateFiresOnlyItsOwnTriggers counts, in the create's own
// transaction, the trigger functions PostgreSQL ran. An entry without tags
// fires none of the tag tables' triggers (a data-modifying CTE fires its
// table's statement triggers even when it writes no row), and linking a
// new entry's tags runs no UPDATE of account_entry (an UPDATE that matches
// no row still fires the feed's and the rollup's statement triggers): the
// feed's and the rollup's triggers on account_entry run once, for the
// entry's INSERT.
func TestEntryCreateFiresOnlyItsOwnTriggers(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	ctx := context.Background()
	var wallet int64
	if err := env.Pool.QueryRow(ctx, `INSERT INTO wallet (member_id, name, type, sort_order) VALUES ($1, 'Card', 'CARD', 1) RETURNING id`, m.ID).Scan(&wallet); err != nil {
		t.Fatal(err)
	}
	functions := []string{"ledger_change_entry", "wallet_net_entries", "ledger_change_tag", "ledger_change_entry_tag", "entry_tags_version"}
	for _, c := range []struct {
		name string
		tags []string
		want []int64 // calls of each of functions
	}{
		{"without tags", nil, []int64{1, 1, 0, 0, 0}},
		{"with tags", []string{"coffee", "morning"}, []int64{1, 1, 1, 1, 1}},
	} {
		calls := env.CountWithin(func(q *db.Queries) error {
			in := ledger.EntryInput{Date: time.Date(2026, 11, 16, 0, 0, 0, 0, time.UTC), Type: "expense", Amount: 4500, WalletID: &wallet, Tags: c.tags}
			_, err := ledger.CreateEntryTx(ctx, q, m.ID, in)
			return err
		}, `SELECT array_agg(COALESCE(pg_stat_get_xact_function_calls(f::regproc), 0) ORDER BY o)
			FROM unnest($1::text[]) WITH ORDINALITY AS u (f, o)`, functions)
		for i, f := range functions {
			if calls[i] != c.want[i] {
				t.Errorf("a create %s ran %s %d times, want %d", c.name, f, calls[i], c.want[i])
			}
		}
	}
}

// TestParallelCreatesMakeTheSameNewTags: a member's parallel creates that
// name the same new tags, in different orders, each land once with every
// tag; each tag is made once; none runs again (the names are made in one
// order, so the creates wait on each other rather than deadlock).
func TestParallelCreatesMakeTheSameNewTags(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	ctx := context.Background()
	names := []string{"t0", "t1", "t2", "t3", "t4", "t5"}
	reversed := make([]string, len(names))
	for i, n := range names {
		reversed[len(names)-1-i] = n
	}
	const creates = 16
	type created struct {
		e   ledger.Entry
		err error
	}
	done := make(chan created, creates)
	for i := range creates {
		tags := names
		if i%2 == 1 {
			tags = reversed
		}
		go func() {
			in := ledger.EntryInput{Date: time.Date(2026, 11, 16, 0, 0, 0, 0, time.UTC), Type: "expense", Amount: 4500, Tags: tags}
			e, err := database.InTxV(ctx, env.Pool, func(q *db.Queries) (ledger.Entry, error) {
				return ledger.CreateEntryTx(ctx, q, m.ID, in)
			})
			done <- created{e, err}
		}()
	}
	for range creates {
		got := <-done
		if got.err != nil {
			t.Error(got.err)
		} else if len(got.e.Tags) != len(names) {
			t.Errorf("a create answered %d tags, want %d", len(got.e.Tags), len(names))
		}
	}
	var entries, tags, links int
	if err := env.Pool.QueryRow(ctx, `SELECT (SELECT count(*) FROM account_entry WHERE member_id = $1),
		(SELECT count(*) FROM account_tag WHERE member_id = $1),
		(SELECT count(*) FROM account_entry_tag l JOIN account_tag t ON t.id = l.tag_id WHERE t.member_id = $1)`, m.ID).Scan(&entries, &tags, &links); err != nil {
		t.Fatal(err)
	}
	if entries != creates || tags != len(names) || links != creates*len(names) {
		t.Errorf("%d entries, %d tags, %d links; want %d, %d, %d", entries, tags, links, creates, len(names), creates*len(names))
	}
	if n := database.Retried(env.Pool); n != 0 {
		t.Errorf("the creates ran again %d times, want 0", n)
	}
}

// A tagged create reads account_entry by key however few entries there were
// when its connection first planned the tag triggers' statements.
// PL/pgSQL keeps a statement's plan for the connection's life: planned over
// a near-empty table, the links' entry lookup was a sequential scan, kept as
// the table grew wherever no ANALYZE replaced it, so every tagged create
// read every entry. The count is the create's own transaction's
// (pg_stat_xact_user_tables), on the connection that planned early.
func TestTaggedCreateReadsEntriesByKeyWhateverTheirNumberWhenPlanned(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	ctx := context.Background()
	conn, err := env.Pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	create := func(tag string) int64 {
		t.Helper()
		in := ledger.EntryInput{Date: time.Date(2026, 11, 16, 0, 0, 0, 0, time.UTC), Type: "expense", Amount: 4500, Tags: []string{"coffee", tag}}
		return createOnConn(t, conn, m.ID, in)["account_entry"].scans
	}
	// Planned while the member's few entries are all there are.
	for i := range 6 {
		create(fmt.Sprintf("t%d", i))
	}
	env.Exec(`INSERT INTO account_entry (member_id, type, amount, entry_date, memo)
		SELECT $1, 'expense', 100, DATE '2026-01-01' + (g % 300), 'bulk' FROM generate_series(1, 20000) g`, m.ID)
	if scans := create("later"); scans != 0 {
		t.Errorf("a tagged create on a connection that planned over a small table: %d sequential scans of account_entry, want 0", scans)
	}
}

// An entry write reads none of the other members' wallets, transfers or
// budgets, however few rows those tables had when its connection first
// planned the feed's trigger: planned over a small wallet table,
// its wallet lookup was a sequential scan, and after another member's
// 5,000 wallets every create read them all.
func TestEntryWriteReadsNoOtherMembersRowsWhateverTheirNumberWhenPlanned(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	other := env.NewMember()
	ctx := context.Background()
	var wallet int64
	if err := env.Pool.QueryRow(ctx, `INSERT INTO wallet (member_id, name, type, sort_order) VALUES ($1, 'Card', 'CARD', 1) RETURNING id`, m.ID).Scan(&wallet); err != nil {
		t.Fatal(err)
	}
	conn, err := env.Pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	create := func() seqReads {
		t.Helper()
		in := ledger.EntryInput{Date: time.Date(2026, 11, 16, 0, 0, 0, 0, time.UTC), Type: "income", Amount: 4500, WalletID: &wallet}
		return createOnConn(t, conn, m.ID, in)
	}
	// Planned while these tables hold a row or two.
	for range 8 {
		create()
	}
	env.Exec(`INSERT INTO wallet (member_id, name, type, sort_order) SELECT $1, 'w' || g, 'BANK', g FROM generate_series(1, 5000) g`, other.ID)
	env.Exec(`INSERT INTO transfer (member_id, transfer_date, amount) SELECT $1, DATE '2026-01-01', 1 FROM generate_series(1, 5000)`, other.ID)
	env.Exec(`INSERT INTO budget_onetime (member_id, name, amount, start_date, end_date) SELECT $1, 'b' || g, 1, DATE '2026-01-01', DATE '2026-12-31' FROM generate_series(1, 5000) g`, other.ID)
	env.Exec(`INSERT INTO budget_income (member_id, year, month, amount) SELECT $1, 2000 + g / 12, 1 + g % 12, 1 FROM generate_series(0, 4999) g`, other.ID)
	read := create()
	for _, table := range []string{"wallet", "transfer", "budget_onetime", "budget_income"} {
		if n := read[table].rows; n >= 5000 {
			t.Errorf("an entry create on a connection that planned over small tables read %d rows of %s by sequential scan, want none of the other member's 5,000", n, table)
		}
	}
}

// seqReads is what one transaction read by sequential scans, by table.
type seqReads map[string]struct{ scans, rows int64 }

// createOnConn creates in on conn, in a transaction of its own, and answers
// what that transaction read by sequential scans (pg_stat_xact_user_tables):
// the plans it used are conn's, made whenever conn first ran them.
func createOnConn(t *testing.T, conn *pgxpool.Conn, memberID int64, in ledger.EntryInput) seqReads {
	t.Helper()
	ctx := context.Background()
	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx) //nolint:errcheck // a no-op after Commit
	if _, err := ledger.CreateEntryTx(ctx, db.New(tx), memberID, in); err != nil {
		t.Fatal(err)
	}
	rows, err := tx.Query(ctx, `SELECT relname, seq_scan, seq_tup_read FROM pg_stat_xact_user_tables WHERE seq_scan > 0`)
	if err != nil {
		t.Fatal(err)
	}
	read := seqReads{}
	for rows.Next() {
		var table string
		var scans, n int64
		if err := rows.Scan(&table, &scans, &n); err != nil {
			t.Fatal(err)
		}
		read[table] = struct{ scans, rows int64 }{scans, n}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	return read
}
