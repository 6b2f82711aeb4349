package server_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	lt "github.com/nestegg/nestegg/internal/apitest/ledgertest"
	"github.com/nestegg/nestegg/internal/app"
	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/internal/ledger"
)

// sentSQL records every statement a pool sends, BEGIN and COMMIT included
// (pgx sends them as statements too).
type sentSQL struct {
	mu  sync.Mutex
	sql []string
}

func (s *sentSQL) TraceQueryStart(ctx context.Context, _ *pgx.Conn, d pgx.TraceQueryStartData) context.Context {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sql = append(s.sql, d.SQL)
	return ctx
}

func (s *sentSQL) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

// take answers the statements sent since the last take, each as its sqlc
// name ("-- name: X"), or its first word, lowercased.
func (s *sentSQL) take() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, q := range s.sql {
		if _, rest, ok := strings.Cut(q, "-- name: "); ok {
			name, _, _ := strings.Cut(rest, " ")
			out = append(out, name)
			continue
		}
		word, _, _ := strings.Cut(strings.TrimSpace(q), " ")
		out = append(out, strings.ToLower(word))
	}
	s.sql = nil
	return out
}

// TestEntryCreateStatements: an entry create without an Idempotency-Key,
// with tags or without, is one statement that is its own transaction
// (ledger.CreateEntryAlone: the checks, the totals lock and the write
// check's bound in it); with a key, the statement and the write check of
// the totals it moved (ledger/totals.go) run in the key's transaction; past
// the bound, the alone statement writes nothing and the transaction decides.
// Every 201 carries the ETag the entry's GET answers. The statements are
// those a replica of the service sends through a pool that records them.
func TestEntryCreateStatements(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	sent := &sentSQL{}
	pool, err := database.OpenTraced(context.Background(), env.Pool.Config().ConnString(), sent)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	replica := env.NewReplica(func(o *app.Options) { o.Pool = pool })
	m := replica.NewMember(apitest.AsPremium())
	w := lt.Wallet(m.Client, "Cash", api.WalletTypeCash, 0)
	// The day has an entry already, so the create is not the first of its
	// day (which may read whether it completed the month).
	lt.Entry(m.Client, lt.Expense(lt.Date(2026, 11, 16), 100, w.ID))
	// A wallet whose opening balance alone is past what CreateEntryAlone's
	// bound can tell within the limit: a create on it is decided by the
	// transaction's exact check.
	// (Another member's: the bound counts every wallet of the member.)
	rich := replica.NewMember(apitest.AsPremium())
	big := lt.Wallet(rich.Client, "Vault", api.WalletTypeBank, 0)
	if _, err := env.Pool.Exec(context.Background(), `UPDATE wallet SET opening_balance = $1 WHERE id = $2`, int64(ledger.Limit-50), big.ID); err != nil {
		t.Fatal(err)
	}
	keyed := m.Client.WithHeader("Idempotency-Key", "statements-1")
	const check = "TotalsForWriteCheck commit"

	for _, c := range []struct {
		name   string
		client *apitest.Client
		wallet int64
		tags   *[]string
		want   string
	}{
		// Alone: one statement, its own transaction.
		{"no tags", m.Client, w.ID, nil, "GetSessionPrincipal CreateEntryChecked"},
		// Tags: alone too (the totals lock after the tags').
		{"tags", m.Client, w.ID, &[]string{"trip"}, "GetSessionPrincipal CreateTaggedEntryChecked"},
		// An Idempotency-Key's answer is stored in the write's transaction.
		{"keyed", keyed, w.ID, nil, "GetSessionPrincipal begin TryLockIdempotencyKey CreateEntryChecked " +
			"TotalsForWriteCheck InsertIdempotencyKey commit"},
		// Past the bound: refused alone (nothing written), then in a
		// transaction with the exact check.
		{"past the bound", rich.Client, big.ID, nil, "GetSessionPrincipal CreateEntryChecked begin CreateEntryChecked " + check},
		// With tags, the alone statement's tag links find no entry: the
		// whole statement is refused, then the transaction decides.
		{"tags past the bound", rich.Client, big.ID, &[]string{"trip"}, "GetSessionPrincipal CreateTaggedEntryChecked begin CreateTaggedEntryChecked " + check},
	} {
		body := lt.Expense(lt.Date(2026, 11, 16), 200, c.wallet)
		body.Tags = c.tags
		sent.take()
		res := c.client.Do(http.MethodPost, "/api/account/entries", body).Want(http.StatusCreated)
		if got := strings.Join(sent.take(), " "); got != c.want {
			t.Errorf("%s: a create sent %q, want %q", c.name, got, c.want)
		}
		var e api.Entry
		res.JSON(&e)
		tag := res.Header.Get("ETag")
		if got := c.client.Do(http.MethodGet, fmt.Sprintf("/api/account/entries/%d", e.ID), nil).Want(http.StatusOK).Header.Get("ETag"); tag == "" || got != tag {
			t.Errorf("%s: the create answered ETag %q, its GET %q", c.name, tag, got)
		}
	}
}
