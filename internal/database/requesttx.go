package database

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nestegg/nestegg/generated/db"
)

// RequestTx is one transaction that every write of a request shares, opened
// by the request's first write and committed only once the request's answer
// is known (the Idempotency-Key middleware stores that answer in it, so the
// effect and the stored answer commit together or not at all).
//
// It opens lazily, at the first InTx (or Exec) of the request and not
// before: a handler asks outside services (FX, the store) before its write
// transaction, and no connection is held while it does. From then on the
// transaction stays open until the request's answer is written to it, so
// the handler must not call outside services after its write; none of the
// operations with an Idempotency-Key does (their outside calls come before
// the write, and hooks that run after a write are deferred with AfterCommit).
//
// Every InTx of the request runs in this transaction. A failing one rolls the
// whole transaction back (nothing is stored for an answer that is not 2xx,
// so nothing of a failed request must survive), and a later InTx opens a new
// one. Reads on the pool do not see the request's uncommitted writes: a
// handler reads what it wrote inside its InTx, as they all do.
type RequestTx struct {
	pool *pgxpool.Pool
	// open runs once in each transaction the request opens, before any of
	// the request's own statements (the key's lock and lookup). An error
	// rolls the transaction back and fails the write that opened it.
	open func(ctx context.Context, tx pgx.Tx) error

	tx          pgx.Tx
	afterCommit []func(context.Context)
	// wrote: a write of this request already ran in tx. lost: a later one
	// failed, and rolling back took the earlier ones with it, so nothing
	// more may run or commit as if they had been kept.
	wrote bool
	lost  error
}

// NewRequestTx returns a request transaction on pool; open runs first in it.
func NewRequestTx(pool *pgxpool.Pool, open func(ctx context.Context, tx pgx.Tx) error) *RequestTx {
	return &RequestTx{pool: pool, open: open}
}

type requestTxKey struct{}

// WithRequestTx makes every InTx on rt's pool under ctx run in rt.
func WithRequestTx(ctx context.Context, rt *RequestTx) context.Context {
	return context.WithValue(ctx, requestTxKey{}, rt)
}

// WithoutRequestTx is ctx without a request transaction: work in it commits
// on its own.
func WithoutRequestTx(ctx context.Context) context.Context {
	return context.WithValue(ctx, requestTxKey{}, (*RequestTx)(nil))
}

func requestTxOf(ctx context.Context, pool *pgxpool.Pool) *RequestTx {
	rt, _ := ctx.Value(requestTxKey{}).(*RequestTx)
	if rt == nil || rt.pool != pool {
		return nil
	}
	return rt
}

// Begun reports whether a transaction is open (a write ran and succeeded).
func (rt *RequestTx) Begun() bool { return rt.tx != nil }

// run runs fn in the request's transaction, opening it first if none is open.
// A request's handler runs on one goroutine, so rt needs no lock.
func (rt *RequestTx) run(ctx context.Context, fn func(tx pgx.Tx) error) error {
	if rt.lost != nil {
		return rt.lost
	}
	if rt.tx == nil {
		tx, err := rt.pool.Begin(ctx)
		if err != nil {
			return fmt.Errorf("begin: %w", err)
		}
		if err := rt.open(ctx, tx); err != nil {
			_ = tx.Rollback(context.WithoutCancel(ctx))
			return err
		}
		rt.tx = tx
	}
	if err := fn(rt.tx); err != nil {
		if rt.wrote {
			// Not retried alone (InTxRaw would run only this write again,
			// in a new transaction, without the ones rolled back).
			rt.lost = fmt.Errorf("a write failed after others of the request, which were rolled back with it: %w", err)
		}
		rt.Rollback(ctx)
		return err
	}
	rt.wrote = true
	return nil
}

// Commit runs last(tx) (which stores the answer) and commits, then runs the
// work AfterCommit deferred. With no transaction open it only runs that work.
func (rt *RequestTx) Commit(ctx context.Context, last func(ctx context.Context, tx pgx.Tx) error) error {
	if rt.lost != nil {
		rt.Rollback(ctx)
		return rt.lost
	}
	if rt.tx != nil {
		tx := rt.tx
		rt.tx = nil
		defer tx.Rollback(context.WithoutCancel(ctx)) //nolint:errcheck // a no-op after Commit
		if err := last(ctx, tx); err != nil {
			return err
		}
		if err := tx.Commit(ctx); err != nil {
			return fmt.Errorf("commit: %w", err)
		}
	}
	hooks := rt.afterCommit
	rt.afterCommit = nil
	for _, h := range hooks {
		h(ctx)
	}
	return nil
}

// Rollback ends the open transaction, if any, and drops the deferred work.
func (rt *RequestTx) Rollback(ctx context.Context) {
	rt.afterCommit = nil
	if rt.tx != nil {
		_ = rt.tx.Rollback(context.WithoutCancel(ctx))
		rt.tx = nil
	}
}

// AfterCommit runs fn once the request's writes have committed: at once when
// ctx carries no request transaction (the caller's write committed already),
// else after the request transaction commits (never when it rolls back). fn
// gets a context without the request transaction.
func AfterCommit(ctx context.Context, fn func(ctx context.Context)) {
	rt, _ := ctx.Value(requestTxKey{}).(*RequestTx)
	ctx = WithoutRequestTx(ctx)
	if rt == nil {
		fn(ctx)
		return
	}
	rt.afterCommit = append(rt.afterCommit, func(context.Context) { fn(ctx) })
}

// Exec runs fn on the request transaction when ctx carries one (the request
// has an Idempotency-Key), else straight on the pool without a transaction.
// It is for writes of one statement that need no transaction of their own,
// but must commit with the request's stored answer when there is one.
//
// As InTx does, it runs fn once more when PostgreSQL aborted it as a
// deadlock victim or a serialization failure (a statement that raises one
// to be run again whole: CreateEntryChecked): the failed statement left
// nothing behind. A request transaction is run again only when the failed
// write was its first (RequestTx.run): it was rolled back whole.
func Exec(ctx context.Context, pool *pgxpool.Pool, fn func(q *db.Queries) error) error {
	run := func() error { return fn(db.New(pool)) }
	if rt := requestTxOf(ctx, pool); rt != nil {
		run = func() error { return rt.run(ctx, func(tx pgx.Tx) error { return fn(db.New(tx)) }) }
	}
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

// HasRequestTx reports whether ctx carries a request transaction on pool.
func HasRequestTx(ctx context.Context, pool *pgxpool.Pool) bool { return requestTxOf(ctx, pool) != nil }
