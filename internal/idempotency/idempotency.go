// Package idempotency answers a retried creating POST with its first answer
// (the IETF httpapi draft's Idempotency-Key header, issue 22).
//
// How the answer is stored with the effect. Strict handlers build their
// answer after their write transaction returns, so the answer is not known
// inside it. Rather than re-render a stored resource identity on replay
// (which would answer the resource as it is now, or nothing once it is
// deleted, instead of the first answer), the request's writes share one
// transaction (database.RequestTx) that stays open until the handler has
// answered: the answer, recorded in memory, is inserted into idempotency_key
// in that transaction, then it commits, then the answer is sent. A crash
// before the commit leaves neither the effect nor the key (a retry creates
// once); a crash after it leaves both (a retry replays the answer).
//
// The transaction opens at the request's first write, not before, so the
// outside calls a handler makes before its write (FX, the store) hold no
// connection; the operations with an Idempotency-Key make none after it
// (the month-complete hook that runs after an entry is written is deferred
// past the commit with database.AfterCommit).
//
// Concurrency. The transaction's first statement takes a try-advisory
// transaction lock on (member, key): a retry that arrives while the first
// request runs does not get it and answers 409 CONFLICT with Retry-After. A
// retry that gets it runs, and its answer's INSERT finds the key answered
// (the primary key, one indexed write either way): its writes roll back and
// the stored answer is replayed, so parallel retries make one record. The
// stored answer is read only when it can matter (see Serve), so a first
// request pays the lock, its transaction and one INSERT.
//
// Only 2xx answers are stored: a failed request changed nothing (its
// transaction rolls back), so its retry runs again.
package idempotency

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/clock"
	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/internal/jobs"
	"github.com/nestegg/nestegg/internal/problem"
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
	BeforeCommit func(r *http.Request)
	AfterCommit  func(r *http.Request)
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

// errBusy ends the write that opened the request transaction when another
// request under the key holds its lock; Serve answers it, whatever the
// handler made of it.
var errBusy = &problem.Error{
	Status: http.StatusConflict, Code: problem.CodeIdempotencyInFlight,
	Detail:  "a request with this Idempotency-Key is still running; retry after it has answered",
	Headers: map[string]string{"Retry-After": "1"},
}

// errAnswered ends the commit of a request whose key got an answer while it
// ran (another request under the key committed first): its writes roll back
// and the stored answer is replayed.
var errAnswered = errors.New("the idempotency key has an answer already")

// ErrKeyReused answers a key sent again with another request.
var ErrKeyReused = problem.New(http.StatusUnprocessableEntity, problem.CodeIdempotencyKeyReused,
	"this Idempotency-Key was used with another request (method, path or body) in the last 24 hours; use a new key for a new request")

// Serve runs next for a member's request carrying key, its writes in a
// request transaction that stores its answer; or answers the key's stored
// answer.
//
// The stored answer is looked for only when it can matter, so that a first
// request (nearly every request) pays no read for it: when the handler
// answers anything but 2xx (a retry of a create that succeeded often fails
// the handler's own checks: the purchase token is used, the tag name is
// taken), when it wrote nothing, and when storing the answer finds the key
// taken. A retry's handler thus runs up to its first write (checks and reads;
// the outside calls before it are the ones a first request makes, and a
// repeated FX lookup of a stored rate is free), and its writes roll back.
func (s *Store) Serve(w http.ResponseWriter, r *http.Request, memberID, bookID int64, key string, next http.Handler) {
	ctx := r.Context()
	fp, err := fingerprint(r)
	if err != nil {
		problem.Write(w, r, err)
		return
	}
	var busy bool
	rt := database.NewRequestTx(s.pool, func(ctx context.Context, tx pgx.Tx) error {
		locked, err := db.New(tx).TryLockIdempotencyKey(ctx, db.TryLockIdempotencyKeyParams{MemberID: memberID, BookID: bookID, Key: key})
		if err != nil {
			return fmt.Errorf("lock idempotency key: %w", err)
		}
		if !locked {
			busy = true
			return errBusy
		}
		return nil
	})
	defer rt.Rollback(ctx)

	rec := &recorder{header: http.Header{}}
	next.ServeHTTP(rec, r.WithContext(database.WithRequestTx(ctx, rt)))

	// stored answers the key's stored answer, when it has one, instead of
	// this request's.
	stored := func() bool {
		row, err := db.New(s.pool).GetIdempotencyKey(ctx, db.GetIdempotencyKeyParams{
			MemberID: memberID, BookID: bookID, Key: key, Since: s.clock.Now().Add(-Window),
		})
		switch {
		case err == nil:
			replay(w, r, row, fp)
			return true
		case !errors.Is(err, pgx.ErrNoRows):
			problem.Write(w, r, fmt.Errorf("look up idempotency key: %w", err))
			return true
		}
		return false
	}
	switch {
	case busy:
		rt.Rollback(ctx)
		problem.Write(w, r, errBusy)
		return
	case rec.status < 200 || rec.status > 299:
		// Nothing of a failed request is kept, its key neither: a retry
		// runs it again.
		rt.Rollback(ctx)
		if !stored() {
			rec.writeTo(w)
		}
		return
	case !rt.Begun():
		// Nothing written (a notification ignored): no answer to keep,
		// only the deferred hooks to run.
		if stored() {
			rt.Rollback(ctx)
			return
		}
		if err := rt.Commit(ctx, nil); err != nil {
			problem.Write(w, r, err)
			return
		}
		rec.writeTo(w)
		return
	}
	headers, err := json.Marshal(rec.stored())
	if err != nil {
		problem.Write(w, r, fmt.Errorf("encode answer headers: %w", err))
		return
	}
	now := s.clock.Now()
	err = rt.Commit(ctx, func(ctx context.Context, tx pgx.Tx) error {
		if s.hooks.BeforeCommit != nil {
			s.hooks.BeforeCommit(r)
		}
		n, err := db.New(tx).InsertIdempotencyKey(ctx, db.InsertIdempotencyKeyParams{
			MemberID: memberID, BookID: bookID, Key: key, Fingerprint: fp, Status: int16(rec.status),
			Headers: headers, Body: rec.body.Bytes(), CreatedAt: now, Since: now.Add(-Window),
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
	case errors.Is(err, errAnswered):
		if !stored() {
			// Gone again in between (the cleanup): rare enough to ask
			// for a retry.
			problem.Write(w, r, errBusy)
		}
		return
	case err != nil:
		problem.Write(w, r, err)
		return
	}
	if s.hooks.AfterCommit != nil {
		s.hooks.AfterCommit(r)
	}
	rec.writeTo(w)
}

// fingerprint is the sha256 of the request's method, path, query and body.
// A multipart body's boundary is left out, as a client building the same
// request again draws a new one.
func fingerprint(r *http.Request) ([]byte, error) {
	var body []byte
	if r.Body != nil {
		var err error
		if body, err = io.ReadAll(r.Body); err != nil {
			return nil, problem.Invalid("body", "the request body could not be read")
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%s\n%s\n", r.Method, r.URL.Path, r.URL.RawQuery)
	if mt, params, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err == nil && strings.HasPrefix(mt, "multipart/") && params["boundary"] != "" {
		body = bytes.ReplaceAll(body, []byte(params["boundary"]), nil)
	}
	h.Write(body)
	return h.Sum(nil), nil
}

// replay answers a stored answer, or 422 when it answered another request.
func replay(w http.ResponseWriter, r *http.Request, row db.GetIdempotencyKeyRow, fp []byte) {
	if !bytes.Equal(row.Fingerprint, fp) {
		problem.Write(w, r, ErrKeyReused)
		return
	}
	var headers map[string]string
	if err := json.Unmarshal(row.Headers, &headers); err != nil {
		problem.Write(w, r, fmt.Errorf("decode stored answer headers: %w", err))
		return
	}
	for k, v := range headers {
		w.Header().Set(k, v)
	}
	w.Header().Set(ReplayedHeader, "true")
	w.WriteHeader(int(row.Status))
	_, _ = w.Write(row.Body)
}

// recorder holds a handler's answer until it is stored.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (rec *recorder) Header() http.Header { return rec.header }

func (rec *recorder) WriteHeader(status int) {
	if rec.status == 0 {
		rec.status = status
	}
}

func (rec *recorder) Write(b []byte) (int, error) {
	if rec.status == 0 {
		rec.status = http.StatusOK
	}
	return rec.body.Write(b)
}

func (rec *recorder) stored() map[string]string {
	out := map[string]string{}
	for _, k := range storedHeaders {
		if v := rec.header.Get(k); v != "" {
			out[k] = v
		}
	}
	return out
}

func (rec *recorder) writeTo(w http.ResponseWriter) {
	for k, v := range rec.header {
		w.Header()[k] = v
	}
	if rec.status == 0 {
		rec.status = http.StatusOK
	}
	w.WriteHeader(rec.status)
	_, _ = w.Write(rec.body.Bytes())
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
