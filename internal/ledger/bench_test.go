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
	if _, err := ledger.ListEntriesTx(context.Background(), db.New(rec), m.ID, ledger.EntryFilter{From: from, To: to, Page: 1, Size: size}); err != nil {
		b.Fatal(err)
	}
	env.BenchAgainstFloor(b, m, apitest.BenchRequest{
		Method: http.MethodGet, Path: fmt.Sprintf("/api/account/entries?year=2026&month=3&size=%d", size), Want: http.StatusOK,
	}, rec.Sent)
}

// BenchmarkEntryCreate creates entries, against a raw single-row INSERT.
// Target: at least 60 %floor.
func BenchmarkEntryCreate(b *testing.B) {
	env := apitest.New(b)
	m := env.NewMember()
	insert := apitest.Statement{
		SQL:  `INSERT INTO account_entry (member_id, type, amount, entry_date, memo) VALUES ($1, 'expense', 4500, DATE '2026-11-16', 'Coffee') RETURNING id`,
		Args: []any{m.ID},
	}
	env.BenchAgainstFloor(b, m, apitest.BenchRequest{
		Method: http.MethodPost, Path: "/api/account/entries", Want: http.StatusCreated,
		Body: `{"date":"2026-11-16","type":"expense","amount":4500,"memo":"Coffee"}`,
	}, []apitest.Statement{insert})
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
