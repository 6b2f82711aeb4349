// Package etag names the versions of the records a member edits (issue 22:
// ETag, If-Match, If-None-Match) and reads the If-Match a write is sent
// with (issue 41: the precondition is checked in the write itself).
//
// Every versioned table has a version column that the record_version
// trigger raises on every UPDATE (generated/schema.sql). An ETag names that
// version and, for a record a GET answers, a digest of the answer too: an
// answer shows more than its row (a wallet's balance, an entry's tag names,
// a post's author), and those change without a write of the row, so a
// version alone would let If-None-Match answer 304 over a body the client
// no longer holds. If-Match compares the version part only: whether the
// record itself was written since, which is what an edit must not
// overwrite.
//
// A write reads its request's If-Match (Parse, from the generated IfMatch
// parameter) and passes Match.Versions to its UPDATE or DELETE, whose WHERE
// holds "version = ANY(...)": a write that finds no row then asks whether
// the record is there (404) or was written since (Failed, 412 with its
// current ETag).
package etag

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/nestegg/nestegg/internal/problem"
)

// Version is the strong ETag of a record no GET answers: its version.
func Version(v int64) string { return `"` + strconv.FormatInt(v, 10) + `"` }

// OfBytes is the strong ETag of a record at version v that a GET answers
// with body: "<version>-<first 8 bytes of the body's SHA-256, in hex>".
func OfBytes(v int64, body []byte) string {
	sum := sha256.Sum256(body)
	return `"` + strconv.FormatInt(v, 10) + "-" + hex.EncodeToString(sum[:8]) + `"`
}

// Of is OfBytes of body encoded as the strict server encodes an answer
// (json.Encoder, newline included), so a write's ETag is the one a GET of
// the same record answers.
func Of(v int64, body any) (string, error) {
	var buf bytes.Buffer
	if err := json.NewEncoder(&buf).Encode(body); err != nil {
		return "", fmt.Errorf("encode answer for its ETag: %w", err)
	}
	return OfBytes(v, buf.Bytes()), nil
}

// Ptr is tag as the generated response headers take it.
func Ptr(tag string) *string {
	if tag == "" {
		return nil
	}
	return &tag
}

// Match is a write's If-Match.
type Match struct {
	present, any bool
	versions     []int64
}

// Parse reads an If-Match header (nil: none sent). "*" matches any
// version; otherwise the strong tags listed name versions, whatever digest
// they carry (RFC 9110 13.1.1 compares strongly: a weak tag or one that is
// not ours matches nothing).
func Parse(header *string) Match {
	if header == nil || strings.TrimSpace(*header) == "" {
		return Match{}
	}
	m := Match{present: true, versions: []int64{}}
	for _, t := range strings.Split(*header, ",") {
		t = strings.TrimSpace(t)
		if t == "*" {
			return Match{present: true, any: true}
		}
		if len(t) < 2 || t[0] != '"' || t[len(t)-1] != '"' {
			continue
		}
		digits, _, _ := strings.Cut(t[1:len(t)-1], "-")
		if n, err := strconv.ParseInt(digits, 10, 64); err == nil {
			m.versions = append(m.versions, n)
		}
	}
	return m
}

// Present reports whether the write was sent with If-Match.
func (m Match) Present() bool { return m.present }

// Versions are the versions the write may change, for its WHERE clause
// ("sqlc.narg(if_versions)::bigint[] IS NULL OR version = ANY(...)"): nil
// when any will do (no If-Match, or "*"), else those listed (none when no
// tag could match).
func (m Match) Versions() []int64 {
	if !m.present || m.any {
		return nil
	}
	return m.versions
}

// Hits reports whether version v satisfies the If-Match.
func (m Match) Hits(v int64) bool {
	if !m.present || m.any {
		return true
	}
	for _, w := range m.versions {
		if w == v {
			return true
		}
	}
	return false
}

// Failed is the answer to a write whose If-Match names a version the
// record no longer has: 412 PRECONDITION_FAILED, nothing changed, with the
// record's current ETag (current "" sends none; the client reads the record
// again, as it must anyway).
func Failed(current string) error {
	e := problem.New(http.StatusPreconditionFailed, problem.CodePreconditionFailed,
		"the record changed since the version If-Match names; read it again (its ETag is the current version) and retry")
	if current != "" {
		e.Headers = map[string]string{"ETag": current}
	}
	return e
}

// Tagged is a write's answer with the ETag it carries: what a create hands
// idempotency.Once to store and replay, and an edit answers.
type Tagged[B any] struct {
	Body B      `json:"body"`
	ETag string `json:"etag,omitempty"`
}

// Answered is body, a record at version v that a GET answers, with its ETag.
func Answered[B any](v int64, body B) (Tagged[B], error) {
	tag, err := Of(v, body)
	if err != nil {
		return Tagged[B]{}, err
	}
	return Tagged[B]{Body: body, ETag: tag}, nil
}

// Versioned is body, a record at version v that no GET answers, with its
// ETag.
func Versioned[B any](v int64, body B) Tagged[B] {
	return Tagged[B]{Body: body, ETag: Version(v)}
}

// Missed answers a write that found no row to change under its If-Match:
// notFound when the record is not there for the caller (current answers
// found false), else 412 with the ETag current answers.
func Missed(m Match, notFound error, current func() (tag string, found bool, err error)) error {
	tag, found, err := current()
	switch {
	case err != nil:
		return err
	case !found || !m.Present():
		return notFound
	}
	return Failed(tag)
}

// ErrMissed ends a write whose If-Match names a version the record no
// longer has (or that found no record): its transaction rolls back, and the
// handler answers 412 with the record's current ETag, or 404 (Missed).
var ErrMissed = errors.New("If-Match names another version")

// CurrentVersion is the current ETag of a record no GET answers, as
// Missed's current asks it, from a read of its version (pgx.ErrNoRows: the
// record is not there).
func CurrentVersion(v int64, err error) (string, bool, error) {
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return "", false, nil
	case err != nil:
		return "", false, fmt.Errorf("current version: %w", err)
	}
	return Version(v), true, nil
}
