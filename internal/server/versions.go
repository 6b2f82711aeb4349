package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nestegg/nestegg/internal/etag"
	"github.com/nestegg/nestegg/internal/problem"
	"github.com/nestegg/nestegg/internal/session"
)

// versioned are the records a member edits, by the contract path that
// answers one (issue 22: ETag, If-None-Match; internal/etag says what an ETag
// names). This middleware serves their GETs only: it reads the version
// before the handler runs, so the ETag's version is never newer than the
// body, and answers 304 when If-None-Match names the answer's ETag. Writes
// are their handlers' (issue 41): each reads the generated IfMatch
// parameter, checks it in its UPDATE or DELETE, and answers the new ETag;
// each create answers the new record's (etag.Tagged).
//
// It reads (never writes) the owners' tables' version column by table
// name, the one crossing of the ownership rule this adds; the trigger that
// keeps the versions belongs to the schema, not to an area.
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

type versionedTable struct {
	table string
	// member: the table has member_id, and a member sees only their own
	// rows; self: the record is the caller's member row; answered: the
	// contract has a GET of the record, and its ETag carries the digest of
	// the answer (the test TestVersionedRecordsAnsweredAsTheContractSays
	// holds this to the contract).
	member, self, answered bool
}

// tagOf is the ETag of vt's record at version v answered by body.
func tagOf(vt versionedTable, v int64, body []byte) string {
	if vt.answered {
		return etag.OfBytes(v, body)
	}
	return etag.Version(v)
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

// withVersions gives a GET of a single versioned record its ETag: the
// version is read before the handler runs, so the ETag's version is never
// newer than the body (a write in between makes If-Match fail, never pass
// over a change the client did not see); the answer is held, its digest
// completes the ETag, and If-None-Match naming that ETag answers 304
// instead of the body. The handler always runs, so a record the viewer may
// not see (a blocked author's post) answers its 404 whatever the header
// says.
func withVersions(c *Contract, pool *pgxpool.Pool, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		route, params, err := find(c, r)
		if err != nil {
			next.ServeHTTP(w, r)
			return
		}
		p := session.PrincipalFrom(r.Context())
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
