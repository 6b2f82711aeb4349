package apitest

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/database"
)

// CountWithin runs work in a transaction of its own, which commits, and
// answers how much each of counts moved during work. counts is a SELECT of
// one bigint[] built from PostgreSQL's statistics of the current
// transaction (pg_stat_get_xact_*: scans, tuples written, function calls;
// track_functions is on for the transaction), with args.
//
// PostgreSQL (15) keeps those statistics in the backend until it reports
// them, which it does only outside a transaction: their difference within
// one is what work's own statements did, whatever runs beside the test.
func (e *Env) CountWithin(work func(q *db.Queries) error, counts string, args ...any) []int64 {
	e.T.Helper()
	ctx := context.Background()
	var before, after []int64
	err := database.InTxRaw(ctx, e.Pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SET LOCAL track_functions = 'all'`); err != nil {
			return err
		}
		if err := tx.QueryRow(ctx, counts, args...).Scan(&before); err != nil {
			return fmt.Errorf("counts before: %w", err)
		}
		if err := work(db.New(tx)); err != nil {
			return err
		}
		if err := tx.QueryRow(ctx, counts, args...).Scan(&after); err != nil {
			return fmt.Errorf("counts after: %w", err)
		}
		return nil
	})
	if err != nil {
		e.T.Fatalf("apitest: counting within a transaction: %v", err)
	}
	if len(after) != len(before) {
		e.T.Fatalf("apitest: %d counts before and %d after", len(before), len(after))
	}
	moved := make([]int64, len(after))
	for i := range after {
		moved[i] = after[i] - before[i]
	}
	return moved
}
