// Package idempotency answers a retried create with its first answer (the
// IETF httpapi draft's Idempotency-Key header, issue 22).
//
// A create that takes a key runs its write through Once, from its handler,
// with the key the generated IdempotencyKey parameter carries (issue 41: the
// handler shows it, no middleware holds a transaction for it). Once runs the
// write in one transaction and stores the answer the write returns in that
// same transaction, so a crash before the commit leaves neither the effect
// nor the key (a retry creates once) and a crash after it leaves both (a
// retry replays the answer). The answer is the value the write returns
// (the body and the ETag its 201 carries), stored as JSON and returned as
// is on a retry, which the handler answers with Idempotent-Replayed.
//
// Concurrency. The transaction's first statement takes a try-advisory
// transaction lock on (member, book, key): a retry that arrives while the
// first request runs does not get it and answers 409
// IDEMPOTENCY_KEY_IN_FLIGHT with Retry-After. A retry that gets it runs, and
// its answer's INSERT finds the key answered (the primary key, one indexed
// write either way): its writes roll back and the stored answer is replayed,
// so parallel retries make one record. The stored answer is read only when
// it can matter (a write that failed, or an INSERT that found the key), so a
// first request pays the lock and one INSERT in the transaction it needs
// anyway.
//
// Only answers of writes that succeeded are stored: a failed write changed
// nothing (its transaction rolls back), so its retry runs again.
package idempotency

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/clock"
	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/internal/etag"
	"github.com/nestegg/nestegg/internal/jobs"
	"github.com/nestegg/nestegg/internal/problem"
	"github.com/nestegg/nestegg/internal/session"
)

// Header is the request header carrying the key; ReplayedHeader marks a
// replayed answer.
const (
	Header         = "Idempotency-Key"
	ReplayedHeader = "Idempotent-Replayed"
)

// MaxKeyLen is the longest key (the contract refuses a longer one with 400).
const MaxKeyLen = 255

// Window is how long a key's answer is kept and replayed.
const Window = 24 * time.Hour

// CleanupJobName is the hourly deletion of keys past the window.
const CleanupJobName = "idempotency-key-cleanup"

// storedHeaders are the answer headers a replay repeats.
var storedHeaders = []string{"Content-Type", "Location", "ETag"}

// Hooks let tests stand for a crash around the commit: a hook that panics
// with http.ErrAbortHandler drops the connection unanswered.
type Hooks struct {
	BeforeCommit func(ctx context.Context)
	AfterCommit  func(ctx context.Context)
}

// Store keeps the answers of keys.
type Store struct {
	pool  *pgxpool.Pool
	clock clock.Clock
	hooks Hooks
}

// New returns the store of keys.
func New(pool *pgxpool.Pool, c clock.Clock, hooks Hooks) *Store {
	return &Store{pool: pool, clock: c, hooks: hooks}
}

// errBusy answers a request whose key another request under it holds.
var errBusy = &problem.Error{
	Status: http.StatusConflict, Code: problem.CodeIdempotencyInFlight,
	Detail:  "a request with this Idempotency-Key is still running; retry after it has answered",
	Headers: map[string]string{"Retry-After": "1"},
}

// errAnswered ends the transaction of a request whose key got an answer
// while it ran (another request under the key committed first): its writes
// roll back and the stored answer is replayed.
var errAnswered = errors.New("the idempotency key has an answer already")

// ErrKeyReused answers a key sent again with another request.
var ErrKeyReused = problem.New(http.StatusUnprocessableEntity, problem.CodeIdempotencyKeyReused,
	"this Idempotency-Key was used with another request (operation, path, parameters or body) in the last 24 hours; use a new key for a new request")

// Key is the Idempotency-Key a create was sent with, scoped to the member
// and the book (DECISIONS section 10), with the fingerprint of the request.
// The zero Key is a request without one.
type Key struct {
	member, book int64
	value        string
	fingerprint  []byte
}

// KeyOf is the key a create of operation op sent with value (the generated
// IdempotencyKey parameter; nil: none), for the member and the book (0: the
// personal ledger). req is what the request asks, as the handler decoded it
// (the generated request object: path, parameters and body); its JSON is
// fingerprinted, so the same request sent again with other spacing or key
// order is the same request. A multipart body is fingerprinted by the
// handler from its parts (req is then what they held).
func KeyOf(member, book int64, value *string, op string, req any) (Key, error) {
	if value == nil || *value == "" {
		return Key{}, nil
	}
	asked, err := json.Marshal(req)
	if err != nil {
		return Key{}, fmt.Errorf("fingerprint %s: %w", op, err)
	}
	h := sha256.New()
	h.Write([]byte(op))
	h.Write([]byte{0})
	h.Write(asked)
	return Key{member: member, book: book, value: *value, fingerprint: h.Sum(nil)}, nil
}

// Once runs write in one transaction and answers its answer. With a key,
// the answer is stored in that transaction, and a request sent again under
// the key answers the stored answer instead (replayed true) without
// keeping any write of its own; a key in use by a request still running
// answers 409 IDEMPOTENCY_KEY_IN_FLIGHT, and a key used with another
// request 422 IDEMPOTENCY_KEY_REUSED. Without one it is database.InTxRaw.
//
// write may run twice (InTxRaw runs a transaction again after a deadlock):
// it must do nothing outside tx. Work that must follow the commit (hooks,
// outside calls) belongs after Once returns, when replayed is false.
func Once[T any](ctx context.Context, s *Store, k Key, write func(tx pgx.Tx) (T, error)) (answer T, replayed bool, err error) {
	var zero T
	if k.value == "" {
		err := database.InTxRaw(ctx, s.pool, func(tx pgx.Tx) error {
			var err error
			answer, err = write(tx)
			return err
		})
		if err != nil {
			return zero, false, err
		}
		return answer, false, nil
	}
	err = database.InTxRaw(ctx, s.pool, func(tx pgx.Tx) error {
		q := db.New(tx)
		locked, err := q.TryLockIdempotencyKey(ctx, db.TryLockIdempotencyKeyParams{MemberID: k.member, BookID: k.book, Key: k.value})
		if err != nil {
			return fmt.Errorf("lock idempotency key: %w", err)
		}
		if !locked {
			return errBusy
		}
		if answer, err = write(tx); err != nil {
			return err
		}
		stored, err := json.Marshal(answer)
		if err != nil {
			return fmt.Errorf("encode answer to store: %w", err)
		}
		if s.hooks.BeforeCommit != nil {
			s.hooks.BeforeCommit(ctx)
		}
		now := s.clock.Now()
		n, err := q.InsertIdempotencyKey(ctx, db.InsertIdempotencyKeyParams{
			MemberID: k.member, BookID: k.book, Key: k.value, Fingerprint: k.fingerprint,
			Answer: stored, CreatedAt: now, Since: now.Add(-Window),
		})
		switch {
		case err != nil:
			return fmt.Errorf("store idempotency key: %w", err)
		case n == 0:
			return errAnswered
		}
		return nil
	})
	switch {
	case err == nil:
		if s.hooks.AfterCommit != nil {
			s.hooks.AfterCommit(ctx)
		}
		return answer, false, nil
	case errors.Is(err, errBusy):
		return zero, false, errBusy
	}
	// The write failed, or the key was answered meanwhile: a retry of a
	// create that succeeded often fails the write's own checks (the
	// purchase token is used, the tag name is taken), so the stored answer,
	// when there is one, answers.
	row, lerr := db.New(s.pool).GetIdempotencyKey(ctx, db.GetIdempotencyKeyParams{
		MemberID: k.member, BookID: k.book, Key: k.value, Since: s.clock.Now().Add(-Window),
	})
	switch {
	case errors.Is(lerr, pgx.ErrNoRows):
		if errors.Is(err, errAnswered) {
			// Gone again in between (the cleanup): rare enough to ask for
			// a retry.
			return zero, false, errBusy
		}
		return zero, false, err
	case lerr != nil:
		return zero, false, fmt.Errorf("look up idempotency key: %w", lerr)
	case !bytes.Equal(row.Fingerprint, k.fingerprint):
		return zero, false, ErrKeyReused
	}
	var first T
	if err := json.Unmarshal(row.Answer, &first); err != nil {
		return zero, false, fmt.Errorf("decode stored answer: %w", err)
	}
	return first, true, nil
}

// Replayed is the Idempotent-Replayed header of an answer: "true" when it
// was replayed, none otherwise.
func Replayed(replayed bool) *string {
	if !replayed {
		return nil
	}
	t := "true"
	return &t
}

// CleanupJob deletes, hourly, the keys past the window.
func CleanupJob(pool *pgxpool.Pool) jobs.Job {
	return jobs.Job{
		Name:  CleanupJobName,
		Every: time.Hour,
		Run: func(ctx context.Context, now time.Time) error {
			n, err := db.New(pool).DeleteIdempotencyKeysBefore(ctx, now.Add(-Window))
			if err != nil {
				return fmt.Errorf("delete old idempotency keys: %w", err)
			}
			if n > 0 {
				slog.InfoContext(ctx, "old idempotency keys deleted", "keys", n)
			}
			return nil
		},
	}
}

// KeyFor is KeyOf for the request's caller: keys are scoped to the member
// who writes and the book they write in.
func KeyFor(p *session.Principal, value *string, op string, req any) (Key, error) {
	return KeyOf(p.ActorID(), p.BookID(), value, op, req)
}

// Create runs a create's write once under the Idempotency-Key its request
// carries (value, of operation op asking req: KeyFor), in one transaction
// that stores the answer (Once). It answers the created record with its
// ETag, and the Idempotent-Replayed header of a replayed answer (no write
// of this request was kept then: work that follows a create runs only when
// it is nil).
func Create[B any](ctx context.Context, s *Store, op string, value *string, req any,
	write func(q *db.Queries) (etag.Tagged[B], error)) (etag.Tagged[B], *string, error) {
	k, err := KeyFor(session.PrincipalFrom(ctx), value, op, req)
	if err != nil {
		return etag.Tagged[B]{}, nil, err
	}
	out, replayed, err := Once(ctx, s, k, func(tx pgx.Tx) (etag.Tagged[B], error) {
		return write(db.New(tx))
	})
	return out, Replayed(replayed), err
}

// Given reports whether the request was sent with a key.
func (k Key) Given() bool { return k.value != "" }
