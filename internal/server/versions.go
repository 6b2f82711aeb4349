package server

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/internal/problem"
	"github.com/nestegg/nestegg/internal/session"
)

// versioned are the records a member edits, by the contract path that
// answers one (issue 22: ETag, If-Match, If-None-Match). Each table has a
// version column that a trigger raises on every UPDATE (record_version, schema/00005_record_version.sql).
//
// The ETag names that version, and, for a record with a single-record GET
// (answered), a digest of the answer too: an answer shows more than its
// row (a wallet's balance, an entry's tag names, a post's author, hot mark
// and the viewer's vote, the profile's plan), and those change without a
// write of the row, so a version alone would let If-None-Match answer 304
// over a body the client no longer holds. If-Match compares the version
// part only: whether the record itself was written since, which is what
// an edit must not overwrite.
//
// One place serves every family, rather than each handler: the version is
// read and compared here, by table name, around the area's own handler.
// This reads (never writes) the owners' tables' version column, the one
// crossing of the ownership rule this adds; the triggers that keep the
// versions belong to the schema, not to an area.
var versioned = map[string]versionedTable{
	"/api/account/wallets/{id}":         {table: "wallet", member: true, answered: true},
	"/api/account/categories/{id}":      {table: "account_category", member: true},
	"/api/account/tags/{id}":            {table: "account_tag", member: true},
	"/api/account/entries/{id}":         {table: "account_entry", member: true, answered: true},
	"/api/account/recurrings/{id}":      {table: "recurring", member: true},
	"/api/account/quick-entries/{id}":   {table: "quick_entry", member: true},
	"/api/account/budgets/{id}":         {table: "budget", member: true},
	"/api/account/budgets/onetime/{id}": {table: "budget_onetime", member: true},
	"/api/account/transfers/{id}":       {table: "transfer", member: true, answered: true},
	"/api/account/invest/stocks/{id}":   {table: "stock", member: true},
	"/api/account/invest/trades/{id}":   {table: "invest_trade", member: true},
	"/api/board/posts/{id}":             {table: "post", answered: true},
	"/api/board/comments/{id}":          {table: "comment"},
	"/api/auth/profile":                 {table: "member", self: true, answered: true},
}

// createdAt maps each operation that creates a versioned record to the path
// that answers the record: its 201 carries the new record's ETag.
var createdAt = map[string]string{
	"/api/account/wallets":           "/api/account/wallets/{id}",
	"/api/account/categories":        "/api/account/categories/{id}",
	"/api/account/tags":              "/api/account/tags/{id}",
	"/api/account/entries":           "/api/account/entries/{id}",
	"/api/account/recurrings":        "/api/account/recurrings/{id}",
	"/api/account/quick-entries":     "/api/account/quick-entries/{id}",
	"/api/account/budgets":           "/api/account/budgets/{id}",
	"/api/account/budgets/onetime":   "/api/account/budgets/onetime/{id}",
	"/api/account/transfers":         "/api/account/transfers/{id}",
	"/api/account/invest/stocks":     "/api/account/invest/stocks/{id}",
	"/api/account/invest/trades":     "/api/account/invest/trades/{id}",
	"/api/board/posts":               "/api/board/posts/{id}",
	"/api/board/posts/{id}/comments": "/api/board/comments/{id}",
}

type versionedTable struct {
	table string
	// member: the table has member_id, and a member sees only their own
	// rows; self: the record is the caller's member row; answered: the
	// contract has a GET of the record, and its ETag carries the digest of
	// the answer (the test TestVersionedRecordsAnsweredAsTheContractSays
	// holds this to the contract).
	member, self, answered bool
}

// versionTag is the strong ETag of a record no GET answers: its version.
func versionTag(v int64) string { return `"` + strconv.FormatInt(v, 10) + `"` }

// answerTag is the strong ETag of a record's answer: the record's version
// and the first 8 bytes of the answer's SHA-256, "<version>-<16 hex>".
func answerTag(v int64, body []byte) string {
	sum := sha256.Sum256(body)
	return `"` + strconv.FormatInt(v, 10) + "-" + hex.EncodeToString(sum[:8]) + `"`
}

// tagOf is the ETag of vt's record at version v answered by body.
func tagOf(vt versionedTable, v int64, body []byte) string {
	if vt.answered {
		return answerTag(v, body)
	}
	return versionTag(v)
}

// ifMatchHits reports whether an If-Match header is * or lists a strong tag
// of version v, whatever digest it carries (RFC 9110 13.1.1 compares
// strongly: a weak tag never matches).
func ifMatchHits(header string, v int64) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimSpace(t)
		if t == "*" {
			return true
		}
		if len(t) < 2 || t[0] != '"' || t[len(t)-1] != '"' {
			continue
		}
		digits, _, _ := strings.Cut(t[1:len(t)-1], "-")
		if n, err := strconv.ParseInt(digits, 10, 64); err == nil && n == v {
			return true
		}
	}
	return false
}

// ifNoneMatchHits reports whether an If-None-Match header is * or lists tag
// (RFC 9110 13.1.2 compares weakly: W/ is ignored).
func ifNoneMatchHits(header, tag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == "*" || t == tag {
			return true
		}
	}
	return false
}

// withVersions gives single-record answers an ETag and applies If-Match and
// If-None-Match:
//   - GET: the version is read before the handler runs, so the ETag's
//     version is never newer than the body (a write in between makes
//     If-Match fail, never pass over a change the client did not see); the
//     answer is held, its digest completes the ETag, and If-None-Match
//     naming that ETag answers 304 instead of the body. The handler always
//     runs, so a record the viewer may not see (a blocked author's post)
//     answers its 404 whatever the header says.
//   - PUT and DELETE: the request's writes run in one request transaction
//     (database.RequestTx) that first names the record it watches; the
//     version trigger remembers the version the row had when the write
//     locked it, and before the commit, with the row still locked, that
//     version is compared with If-Match (412 PRECONDITION_FAILED with the
//     current ETag, and nothing is changed) and the new version read for the
//     answer's ETag. Without If-Match they work as before.
//   - POST of a create: the 201 carries the new record's ETag
//     (serveVersionedCreate).
func withVersions(c *Contract, pool *pgxpool.Pool, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		route, params, err := find(c, r)
		if err != nil {
			next.ServeHTTP(w, r)
			return
		}
		p := session.PrincipalFrom(r.Context())
		if item, creates := createdAt[route.Path]; creates && r.Method == http.MethodPost && p != nil {
			serveVersionedCreate(w, r, pool, versioned[item], p.MemberID, notesCreated[route.Path], next)
			return
		}
		vt, ok := versioned[route.Path]
		if !ok || p == nil {
			next.ServeHTTP(w, r)
			return
		}
		id := p.MemberID
		if !vt.self {
			if id, err = strconv.ParseInt(params["id"], 10, 64); err != nil {
				next.ServeHTTP(w, r)
				return
			}
		}
		switch r.Method {
		case http.MethodGet, http.MethodHead:
			serveVersionedGet(w, r, pool, vt, id, p.MemberID, next)
		case http.MethodPut, http.MethodDelete:
			serveVersionedWrite(w, r, pool, vt, id, p.MemberID, next)
		default:
			next.ServeHTTP(w, r)
		}
	})
}

func versionQuery(vt versionedTable) string {
	q := "SELECT version FROM " + vt.table + " WHERE id = $1"
	if vt.member {
		q += " AND member_id = $2"
	}
	return q
}

func readVersion(ctx context.Context, q interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}, vt versionedTable, id, memberID int64) (int64, bool, error) {
	args := []any{id}
	if vt.member {
		args = append(args, memberID)
	}
	var v int64
	err := q.QueryRow(ctx, versionQuery(vt), args...).Scan(&v)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("version of %s %d: %w", vt.table, id, err)
	}
	return v, true, nil
}

func serveVersionedGet(w http.ResponseWriter, r *http.Request, pool *pgxpool.Pool, vt versionedTable, id, memberID int64, next http.Handler) {
	v, found, err := readVersion(r.Context(), pool, vt, id, memberID)
	if err != nil {
		problem.Write(w, r, err)
		return
	}
	if !found { // the handler answers its 404
		next.ServeHTTP(w, r)
		return
	}
	rec := &bufferedAnswer{header: http.Header{}}
	next.ServeHTTP(rec, r)
	if rec.status != 0 && rec.status != http.StatusOK {
		rec.writeTo(w)
		return
	}
	tag := tagOf(vt, v, rec.body)
	if inm := r.Header.Get("If-None-Match"); inm != "" && ifNoneMatchHits(inm, tag) {
		w.Header().Set("ETag", tag)
		w.WriteHeader(http.StatusNotModified)
		return
	}
	rec.header.Set("ETag", tag)
	rec.writeTo(w)
}

// currentTag is the ETag a GET of the record would answer now, for a 412
// (a record without a GET: its version; "" if it is gone for the caller).
// The GET runs on a copy of the request, outside the refused transaction.
func currentTag(r *http.Request, pool *pgxpool.Pool, vt versionedTable, id, memberID int64, next http.Handler) (string, error) {
	v, found, err := readVersion(r.Context(), pool, vt, id, memberID)
	if err != nil || !found {
		return "", err
	}
	if !vt.answered {
		return versionTag(v), nil
	}
	get := r.Clone(r.Context())
	get.Method = http.MethodGet
	get.Body, get.ContentLength = http.NoBody, 0
	for _, h := range []string{"If-Match", "If-None-Match", "Content-Type", "Content-Length"} {
		get.Header.Del(h)
	}
	rec := &bufferedAnswer{header: http.Header{}}
	next.ServeHTTP(rec, get)
	if rec.status != 0 && rec.status != http.StatusOK {
		// Gone or hidden since: the version still serves If-Match.
		return versionTag(v), nil
	}
	return answerTag(v, rec.body), nil
}

// errPrecondition carries the current version of a record If-Match missed
// (0: the record is not there for the caller, and no ETag is sent).
type errPrecondition struct{ current int64 }

// lockingTx reads a version FOR UPDATE through readVersion.
type lockingTx struct{ pgx.Tx }

func (l lockingTx) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	return l.Tx.QueryRow(ctx, sql+" FOR UPDATE", args...)
}

func (e *errPrecondition) Error() string { return "precondition failed" }

func serveVersionedWrite(w http.ResponseWriter, r *http.Request, pool *pgxpool.Pool, vt versionedTable, id, memberID int64, next http.Handler) {
	ctx := r.Context()
	ifMatch := r.Header.Get("If-Match")
	watch := vt.table + "." + strconv.FormatInt(id, 10)
	rt := database.NewRequestTx(pool, func(ctx context.Context, tx pgx.Tx) error {
		_, err := tx.Exec(ctx, "SELECT set_config('nestegg.watch', $1, true)", watch)
		if err != nil {
			return fmt.Errorf("watch %s: %w", watch, err)
		}
		return nil
	})
	defer rt.Rollback(ctx)
	rec := &bufferedAnswer{header: http.Header{}}
	next.ServeHTTP(rec, r.WithContext(database.WithRequestTx(ctx, rt)))
	if rec.status < 200 || rec.status > 299 {
		rt.Rollback(ctx)
		rec.writeTo(w)
		return
	}
	err := rt.Commit(ctx, func(ctx context.Context, tx pgx.Tx) error {
		var watched string
		if err := tx.QueryRow(ctx, "SELECT coalesce(current_setting('nestegg.watched_version', true), '')").Scan(&watched); err != nil {
			return fmt.Errorf("watched version: %w", err)
		}
		before, err := strconv.ParseInt(watched, 10, 64)
		if err != nil {
			// The handler wrote other rows but not this one (or
			// nothing): lock it now, in its place at the end of the order,
			// read as the caller may see it (a record that is not the
			// caller's, or is gone, has no version to match).
			v, found, err := readVersion(ctx, lockingTx{tx}, vt, id, memberID)
			if err != nil {
				return fmt.Errorf("lock %s: %w", watch, err)
			}
			if !found && ifMatch != "" {
				return &errPrecondition{}
			}
			before = v
		}
		if ifMatch != "" && !ifMatchHits(ifMatch, before) {
			return &errPrecondition{current: before}
		}
		if r.Method == http.MethodPut {
			var after int64
			if err := tx.QueryRow(ctx, "SELECT version FROM "+vt.table+" WHERE id = $1", id).Scan(&after); err == nil {
				rec.header.Set("ETag", tagOf(vt, after, rec.body))
			}
		}
		return nil
	})
	var pre *errPrecondition
	switch {
	case errors.As(err, &pre):
		if pre.current != 0 {
			rt.Rollback(ctx)
			// The refusal stands whatever the read of the current tag
			// meets: without it the 412 goes out with no ETag, and the
			// client reads the record again, as it must anyway.
			tag, err := currentTag(r, pool, vt, id, memberID, next)
			if err != nil {
				slog.WarnContext(ctx, "current ETag for a 412", "request_id", problem.RequestID(ctx), "error", err)
			}
			if tag != "" {
				w.Header().Set("ETag", tag)
			}
		}
		problem.Write(w, r, problem.New(http.StatusPreconditionFailed, problem.CodePreconditionFailed,
			"the record changed since the version If-Match names; read it again (its ETag is the current version) and retry"))
		return
	case err != nil:
		problem.Write(w, r, err)
		return
	}
	rec.writeTo(w)
}

// bufferedAnswer holds a handler's answer until the request's transaction
// has committed.
type bufferedAnswer struct {
	header http.Header
	status int
	body   []byte
}

func (b *bufferedAnswer) Header() http.Header { return b.header }

func (b *bufferedAnswer) WriteHeader(status int) {
	if b.status == 0 {
		b.status = status
	}
}

func (b *bufferedAnswer) Write(p []byte) (int, error) {
	if b.status == 0 {
		b.status = http.StatusOK
	}
	b.body = append(b.body, p...)
	return len(p), nil
}

func (b *bufferedAnswer) writeTo(w http.ResponseWriter) {
	for k, v := range b.header {
		w.Header()[k] = v
	}
	if b.status == 0 {
		b.status = http.StatusOK
	}
	w.WriteHeader(b.status)
	_, _ = w.Write(b.body)
}

// notesCreated are the creates whose handler notes the record it created
// (database.NoteCreated), at the version its commit kept: they run without a
// request transaction of this middleware's, so a create of one statement
// commits in it (the request transaction added BEGIN, the version read and
// COMMIT, three round trips under which the connection was held, to the
// request members send most).
var notesCreated = map[string]bool{
	"/api/account/entries": true,
}

// serveVersionedCreate gives a create's 201 the new record's ETag, the
// version the body shows. Where the handler notes the version it committed
// (notes), the middleware takes it from there. Else it reads it in the
// transaction that wrote the record, before it commits: the request's writes
// run in a request transaction (the Idempotency-Key middleware's when the
// request has a key, else one of its own here) and the answer is sent after
// the commit.
func serveVersionedCreate(w http.ResponseWriter, r *http.Request, pool *pgxpool.Pool, vt versionedTable, memberID int64, notes bool, next http.Handler) {
	ctx := r.Context()
	tagCreated := func(ctx context.Context, q db.DBTX, rec *bufferedAnswer) error {
		id, ok := createdID(rec)
		if !ok {
			return nil
		}
		v, found, err := readVersion(ctx, q, vt, id, memberID)
		if found {
			rec.header.Set("ETag", tagOf(vt, v, rec.body))
		}
		return err
	}
	rec := &bufferedAnswer{header: http.Header{}}
	if database.HasRequestTx(ctx, pool) {
		// The outer middleware commits; the tag is read in its transaction.
		next.ServeHTTP(rec, r)
		if rec.status == http.StatusCreated {
			err := database.InTxRaw(ctx, pool, func(tx pgx.Tx) error { return tagCreated(ctx, tx, rec) })
			if err != nil {
				problem.Write(w, r, err)
				return
			}
		}
		rec.writeTo(w)
		return
	}
	if notes {
		ctx, created := database.WithCreated(ctx)
		next.ServeHTTP(rec, r.WithContext(ctx))
		if id, ok := createdID(rec); ok {
			if v, ok := created.Version(id); ok {
				rec.header.Set("ETag", tagOf(vt, v, rec.body))
			} else {
				// A defect of the handler: it committed without noting.
				// The version read after the commit is the record's unless
				// a write that knew the new id came in between.
				slog.ErrorContext(ctx, "create did not note the version it committed", "request_id", problem.RequestID(ctx), "table", vt.table, "id", id)
				if err := tagCreated(ctx, pool, rec); err != nil {
					slog.ErrorContext(ctx, "read a created record's version", "request_id", problem.RequestID(ctx), "error", err)
				}
			}
		}
		rec.writeTo(w)
		return
	}
	rt := database.NewRequestTx(pool, func(context.Context, pgx.Tx) error { return nil })
	defer rt.Rollback(ctx)
	next.ServeHTTP(rec, r.WithContext(database.WithRequestTx(ctx, rt)))
	if rec.status < 200 || rec.status > 299 {
		rt.Rollback(ctx)
		rec.writeTo(w)
		return
	}
	if err := rt.Commit(ctx, func(ctx context.Context, tx pgx.Tx) error { return tagCreated(ctx, tx, rec) }); err != nil {
		problem.Write(w, r, err)
		return
	}
	rec.writeTo(w)
}

// createdID answers the id of the record a 201 answered.
func createdID(rec *bufferedAnswer) (int64, bool) {
	if rec.status != http.StatusCreated {
		return 0, false
	}
	var created struct {
		ID *int64 `json:"id"`
	}
	if json.Unmarshal(rec.body, &created) != nil || created.ID == nil {
		return 0, false
	}
	return *created.ID, true
}
