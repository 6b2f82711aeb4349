package database_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/database"
)

// TestPipelineSendsQueriesTogether: sqlc batch queries made through a
// Pipeline go out in one round trip when the first answer is read, each
// answer is its own query's (as sent one by one), over a pool and inside a
// transaction; a statement sent after them is one more round trip.
func TestPipelineSendsQueriesTogether(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	a, b := env.NewMember(), env.NewMember()
	env.Exec(`INSERT INTO budget_income (member_id, year, month, amount) VALUES ($1, 2026, 10, 100), ($1, 2026, 11, 200), ($2, 2026, 9, 300)`, a.ID, b.ID)
	env.Exec(`INSERT INTO wallet (member_id, name, type, opening_balance, sort_order) VALUES ($1, 'Cash', 'CASH', 5000, 1)`, a.ID)
	ctx := context.Background()
	incomes := []db.ForecastIncomesParams{{MemberID: a.ID, LastKey: 2026*12 + 11}, {MemberID: b.ID, LastKey: 2026*12 + 11}}

	// What each answers sent alone.
	var want []string
	db.New(env.Pool).ForecastIncomes(ctx, incomes).Query(func(_ int, rows []db.ForecastIncomesRow, err error) {
		want = append(want, fmt.Sprint(rows, err))
	})
	wallets, err := database.Rows(db.New(env.Pool).ForecastWallets(ctx, []int64{a.ID}).Query)
	if err != nil || len(wallets) != 1 {
		t.Fatalf("wallets %v: %v", wallets, err)
	}
	want = append(want, fmt.Sprint(wallets, nil))

	run := func(dbtx db.DBTX) {
		rec := &apitest.RecordingDB{DBTX: dbtx}
		pipe := database.NewPipeline(rec)
		defer pipe.Close()
		q := db.New(pipe)
		incomesQ := q.ForecastIncomes(ctx, incomes)
		walletsQ := q.ForecastWallets(ctx, []int64{a.ID})
		if rec.Trips != 0 {
			t.Fatalf("%d round trips before an answer was read", rec.Trips)
		}
		var got []string
		incomesQ.Query(func(_ int, rows []db.ForecastIncomesRow, err error) { got = append(got, fmt.Sprint(rows, err)) })
		rows, err := database.Rows(walletsQ.Query)
		got = append(got, fmt.Sprint(rows, err))
		if fmt.Sprint(got) != fmt.Sprint(want) || rec.Trips != 1 || len(rec.Sent) != 3 {
			t.Errorf("%d statements in %d round trips: %v, want %v", len(rec.Sent), rec.Trips, got, want)
		}
		if _, err := pipe.Exec(ctx, "SELECT 1"); err != nil || rec.Trips != 2 {
			t.Errorf("a statement after the batch: %v, %d round trips", err, rec.Trips)
		}
	}
	run(env.Pool)
	if err := database.InTxRaw(ctx, env.Pool, func(tx pgx.Tx) error { run(tx); return nil }); err != nil {
		t.Fatal(err)
	}
}

// TestPipelineRefusesAnswersOutOfOrder: an answer read before an earlier
// query's, or after its batch was ended by another statement, is an
// error, never another query's rows.
func TestPipelineRefusesAnswersOutOfOrder(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	ctx := context.Background()

	pipe := database.NewPipeline(env.Pool)
	q := db.New(pipe)
	incomesQ := q.ForecastIncomes(ctx, []db.ForecastIncomesParams{{MemberID: m.ID, LastKey: 2026 * 12}})
	walletsQ := q.ForecastWallets(ctx, []int64{m.ID})
	if _, err := database.Rows(walletsQ.Query); !errors.Is(err, database.ErrPipelineOrder) {
		t.Errorf("the second query's answer read first: %v", err)
	}
	if _, err := database.Rows(incomesQ.Query); err != nil {
		t.Errorf("the first query's answer: %v", err)
	}
	if _, err := pipe.Exec(ctx, "SELECT 1"); err != nil {
		t.Fatal(err)
	}
	if _, err := database.Rows(walletsQ.Query); !errors.Is(err, database.ErrPipelineEnded) {
		t.Errorf("an answer read after its batch was ended: %v", err)
	}
	// The pool's connection went back: the pool still answers.
	if err := pipe.Close(); err != nil {
		t.Fatal(err)
	}
	var one int
	if err := env.Pool.QueryRow(ctx, "SELECT 1").Scan(&one); err != nil || one != 1 {
		t.Fatalf("pool after the pipeline: %d, %v", one, err)
	}

	// A query made after a batch was sent goes in the next one.
	pipe = database.NewPipeline(env.Pool)
	defer pipe.Close()
	q = db.New(pipe)
	first, err := database.Rows(q.ForecastWallets(ctx, []int64{m.ID}).Query)
	if err != nil {
		t.Fatal(err)
	}
	second, err := database.Rows(q.ForecastWallets(ctx, []int64{m.ID}).Query)
	if err != nil || fmt.Sprint(first) != fmt.Sprint(second) {
		t.Fatalf("again: %v (%v), first %v", second, err, first)
	}
	dropped := q.ForecastWallets(ctx, []int64{m.ID})
	if err := pipe.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := database.Rows(dropped.Query); !errors.Is(err, database.ErrPipelineEnded) {
		t.Errorf("a query held when the pipeline closed: %v", err)
	}
}
