package ledger_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/calendar"
	"github.com/nestegg/nestegg/internal/ledger"
)

// The benchmarks measure requests against their floor
// (apitest.BenchAgainstFloor): a bare HTTP handler doing only the session's
// Redis GET and PostgreSQL read plus the same statements over pgx.

// BenchmarkMonthList lists a month of a member with a seeded year (about
// 1,500 entries, a third tagged), one page of the default size (20) as the
// app asks for it, against the same statements over pgx. Target: at least
// 70 %floor.
func BenchmarkMonthList(b *testing.B) { benchMonthList(b, 20) }

// BenchmarkMonthListFullPage is the same with the largest page (100): most
// of what the service adds to the floor is then decoding and encoding 100
// entries.
func BenchmarkMonthListFullPage(b *testing.B) { benchMonthList(b, 100) }

func benchMonthList(b *testing.B, size int32) {
	env := apitest.New(b)
	m := env.NewMember(apitest.AsPremium())
	seedYear(b, env, m)
	march := calendar.NewMonth(2026, time.March, 1)
	from, to := march.From(), march.To()
	rec := &apitest.RecordingDB{DBTX: env.Pool}
	if _, err := ledger.ReadEntryPage(context.Background(), rec, m.ID, ledger.EntryFilter{From: from, To: to, Page: 1, Size: size}); err != nil {
		b.Fatal(err)
	}
	env.BenchAgainstFloor(b, m, apitest.BenchRequest{
		Method: http.MethodGet, Path: fmt.Sprintf("/api/account/entries?year=2026&month=3&size=%d", size), Want: http.StatusOK,
		OneTrip: rec.Trips == 1,
	}, rec.Sent)
}

// BenchmarkEntryCreate creates entries in the shapes members send, in
// proportion: a wallet and a category always, tags on one in five, and one
// in five the first entry of its day (half of those dated today, the last
// day of the month, so the month-complete probe reads; half on a day of
// their own in the past). The floor is the least a create must do: the
// session's Redis GET and PostgreSQL read, then one statement that checks
// the wallet and the category are the member's and inserts the row.
// Target: at least 60 %floor.
func BenchmarkEntryCreate(b *testing.B) {
	env := apitest.New(b)
	m := env.NewMember(apitest.AsPremium())
	env.Clock.Set(time.Date(2026, time.November, 30, 10, 0, 0, 0, env.Clock.Now().Location()))
	var wallet, category int64
	ctx := context.Background()
	if err := env.Pool.QueryRow(ctx, `INSERT INTO wallet (member_id, name, type, sort_order) VALUES ($1, 'Card', 'CARD', 1) RETURNING id`, m.ID).Scan(&wallet); err != nil {
		b.Fatal(err)
	}
	if err := env.Pool.QueryRow(ctx, `INSERT INTO account_category (member_id, name, type, sort_order) VALUES ($1, 'Food', 'expense', 1) RETURNING id`, m.ID).Scan(&category); err != nil {
		b.Fatal(err)
	}
	env.BenchAgainstFloor(b, m, apitest.BenchRequest{
		Method: http.MethodPost, Path: "/api/account/entries", Want: http.StatusCreated,
		Body:   fmt.Sprintf(`{"date":"2026-11-16","type":"expense","amount":4500,"memo":"Coffee","walletId":%d,"categoryId":%d}`, wallet, category),
		Bodies: func(i int64) string { return entryShape(i, wallet, category) },
	}, []apitest.Statement{createFloor(m.ID, wallet, category)})
}

// entryShape is the i-th entry of a mix members send (see
// BenchmarkEntryCreate).
func entryShape(i, wallet, category int64) string {
	date := "2026-11-16"
	switch i % 10 {
	case 3:
		date = "2026-11-30" // today, the month's last day: the probe reads
	case 7:
		date = time.Date(2000, time.January, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, int(i/10)).Format(time.DateOnly)
	}
	tags := ""
	if i%5 == 1 {
		tags = fmt.Sprintf(`,"tags":["coffee","t%d"]`, i%7)
	}
	return fmt.Sprintf(`{"date":%q,"type":"expense","amount":%d,"memo":"Coffee","walletId":%d,"categoryId":%d%s}`,
		date, 4500+i%100, wallet, category, tags)
}

// createFloor is the floor's create: one statement that checks the wallet
// and the category are the member's and inserts the row.
func createFloor(memberID, wallet, category int64) apitest.Statement {
	return apitest.Statement{
		SQL: `INSERT INTO account_entry (member_id, wallet_id, category_id, type, amount, entry_date, memo)
SELECT $1, $2, $3, 'expense', 4500, DATE '2026-11-16', 'Coffee'
WHERE EXISTS (SELECT 1 FROM wallet WHERE member_id = $1 AND id = $2)
  AND EXISTS (SELECT 1 FROM account_category WHERE member_id = $1 AND id = $3 AND type = 'expense')
RETURNING id`,
		Args: []any{memberID, wallet, category},
	}
}

// BenchmarkWalletList lists six wallets with balances over a seeded year,
// against the same statement over pgx.
func BenchmarkWalletList(b *testing.B) {
	env := apitest.New(b)
	m := env.NewMember(apitest.AsPremium())
	seedYear(b, env, m)
	for _, typ := range []string{"CASH", "BANK", "CARD", "SAVINGS", "POINT"} {
		env.Exec(`INSERT INTO wallet (member_id, name, type, sort_order) VALUES ($1, $2, $2, 1)`, m.ID, typ)
	}
	rec := &apitest.RecordingDB{DBTX: env.Pool}
	if _, err := db.New(rec).ListWalletsWithBalance(context.Background(), m.ID); err != nil {
		b.Fatal(err)
	}
	env.BenchAgainstFloor(b, m, apitest.BenchRequest{Method: http.MethodGet, Path: "/api/account/wallets", Want: http.StatusOK}, rec.Sent)
}
