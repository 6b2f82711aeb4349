package database

import (
	"context"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nestegg/nestegg/generated/db"
)

// Exec runs fn straight on the pool, without a transaction: for writes of
// one statement, which need none.
//
// As InTx does, it runs fn once more when PostgreSQL aborted it as a
// deadlock victim or a serialization failure: the failed statement left
// nothing behind.
func Exec(ctx context.Context, pool *pgxpool.Pool, fn func(q *db.Queries) error) error {
	run := func() error { return fn(db.New(pool)) }
	err := run()
	if IsContention(err) && ctx.Err() == nil {
		retriedOn(pool).Add(1)
		err = run()
	}
	return err
}

// ExecV is Exec for work that answers a value.
func ExecV[T any](ctx context.Context, pool *pgxpool.Pool, fn func(q *db.Queries) (T, error)) (T, error) {
	var out T
	err := Exec(ctx, pool, func(q *db.Queries) error {
		var err error
		out, err = fn(q)
		return err
	})
	if err != nil {
		var zero T
		return zero, err
	}
	return out, nil
}
