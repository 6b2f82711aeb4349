package database

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/nestegg/nestegg/generated/db"
)

// Pipeline is a db.DBTX that sends the statements of several sqlc
// :batchmany (or :batchone, :batchexec) queries together: each query's
// batch is held, and the first read of any of their answers sends every
// statement held so far as one pgx batch, in one round trip. A read made
// of several queries (the forecast's six) then costs one round trip, not
// one each. Outside a transaction the batch is one implicit transaction;
// each statement still sees what was committed when it started (READ
// COMMITTED), as in an explicit one.
//
// Answers are read in the order the queries were made: a query's results
// read before an earlier query's are an error, not another query's rows.
// Exec, Query, QueryRow and CopyFrom are sent at once, after the batch in
// flight is ended (its answers not read by then are dropped: reading them
// later is an error); held queries stay held until one of them is read. A
// query made after a batch was sent goes in the next batch. Close ends the
// batch in flight and drops what is held; a Pipeline is one goroutine's.
type Pipeline struct {
	dbtx     db.DBTX
	held     *pipelineBatch // made, not sent yet
	inFlight *pipelineBatch // sent, its answers being read
}

// NewPipeline returns a Pipeline sending through dbtx (a pool, a
// connection or a transaction).
func NewPipeline(dbtx db.DBTX) *Pipeline { return &Pipeline{dbtx: dbtx} }

// ErrPipelineOrder and ErrPipelineEnded are the reads a Pipeline refuses.
var (
	ErrPipelineOrder = errors.New("pipeline: answers read out of the order their queries were made")
	ErrPipelineEnded = errors.New("pipeline: the batch was ended before this answer was read")
)

type pipelineBatch struct {
	ctx     context.Context
	batch   pgx.Batch
	results pgx.BatchResults
	read    int // answers read so far
	ended   bool
}

// SendBatch holds b's statements; they are sent with the others held when
// the first answer of any of them is read.
func (p *Pipeline) SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults {
	if p.held == nil {
		p.held = &pipelineBatch{ctx: ctx}
	}
	h := p.held
	first := len(h.batch.QueuedQueries)
	h.batch.QueuedQueries = append(h.batch.QueuedQueries, b.QueuedQueries...)
	return &pipelinePart{p: p, b: h, next: first}
}

// send sends b (held) once, ending the batch in flight first: a connection
// reads one batch at a time.
func (p *Pipeline) send(b *pipelineBatch) error {
	if b.ended {
		return ErrPipelineEnded
	}
	if b.results != nil {
		return nil
	}
	if err := p.end(); err != nil {
		return err
	}
	b.results = p.dbtx.SendBatch(b.ctx, &b.batch)
	p.held, p.inFlight = nil, b
	return nil
}

// end closes the batch in flight, if any.
func (p *Pipeline) end() error {
	b := p.inFlight
	if b == nil {
		return nil
	}
	p.inFlight, b.ended = nil, true
	return b.results.Close()
}

// Close ends the batch in flight and drops the queries held.
func (p *Pipeline) Close() error {
	if p.held != nil {
		p.held.ended = true
		p.held = nil
	}
	return p.end()
}

func (p *Pipeline) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	if err := p.end(); err != nil {
		return pgconn.CommandTag{}, err
	}
	return p.dbtx.Exec(ctx, sql, args...)
}

func (p *Pipeline) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	if err := p.end(); err != nil {
		return nil, err
	}
	return p.dbtx.Query(ctx, sql, args...)
}

func (p *Pipeline) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	if err := p.end(); err != nil {
		return errRow{err}
	}
	return p.dbtx.QueryRow(ctx, sql, args...)
}

func (p *Pipeline) CopyFrom(ctx context.Context, table pgx.Identifier, columns []string, src pgx.CopyFromSource) (int64, error) {
	if err := p.end(); err != nil {
		return 0, err
	}
	return p.dbtx.CopyFrom(ctx, table, columns, src)
}

// pipelinePart is one query's answers in a Pipeline's batch, as sqlc's
// batch results read them: Query (or Exec, QueryRow) once per statement the
// query queued, then Close.
type pipelinePart struct {
	p    *Pipeline
	b    *pipelineBatch
	next int // the batch's index of this part's next answer
}

// ready sends the batch if it is held and checks that this part's next
// answer is the batch's next.
func (r *pipelinePart) ready() error {
	if err := r.p.send(r.b); err != nil {
		return err
	}
	if r.b.read != r.next {
		return ErrPipelineOrder
	}
	r.b.read++
	r.next++
	return nil
}

func (r *pipelinePart) Exec() (pgconn.CommandTag, error) {
	if err := r.ready(); err != nil {
		return pgconn.CommandTag{}, err
	}
	return r.b.results.Exec()
}

func (r *pipelinePart) Query() (pgx.Rows, error) {
	if err := r.ready(); err != nil {
		return nil, err
	}
	return r.b.results.Query()
}

func (r *pipelinePart) QueryRow() pgx.Row {
	if err := r.ready(); err != nil {
		return errRow{err}
	}
	return r.b.results.QueryRow()
}

// Close does nothing: the batch is the Pipeline's, which its owner closes
// (sqlc's results close theirs after reading each query).
func (r *pipelinePart) Close() error { return nil }

// Tx is nil: a Pipeline begins no transaction (sqlc's batches do not ask
// for one).
func (r *pipelinePart) Tx() pgx.Tx { return nil }

type errRow struct{ err error }

func (e errRow) Scan(...any) error { return e.err }

// Rows reads one sqlc :batchmany query of a single statement (its Query
// method): its rows, or the error.
func Rows[T any](query func(func(int, []T, error))) ([]T, error) {
	var out []T
	var err error
	query(func(_ int, rows []T, e error) { out, err = rows, e })
	return out, err
}
