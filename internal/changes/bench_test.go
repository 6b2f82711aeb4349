package changes_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/apitest"
	lt "github.com/nestegg/nestegg/internal/apitest/ledgertest"
	"github.com/nestegg/nestegg/internal/changes"
	"github.com/nestegg/nestegg/internal/ledger"
)

// BenchmarkFeedPage500: a full page of 500 changes (entries and their wallet)
// from the empty cursor, against its floor: the statements the page sends
// (the feed's epoch, one indexed read of the change rows, then one read per
// kind on the page: wallets, entries and their tags, the profile; not the
// fold the service sends before them), as
// apitest.BenchAgainstFloor measures every request.
func BenchmarkFeedPage500(b *testing.B) {
	env := apitest.New(b)
	m := env.NewMember()
	w := lt.Wallet(m.Client, "Bank", api.WalletTypeBank, 0)
	env.Exec(`INSERT INTO account_entry (member_id, wallet_id, type, amount, entry_date, memo)
		SELECT $1, $2, 'expense', 100 + g, DATE '2026-11-01' + (g % 28), 'coffee ' || g
		FROM generate_series(1, 600) g`, m.ID, w.ID)
	l, err := ledger.NewHandler(env.Pool, env.Clock, env.Config.Timezone, env.Config.AccountCryptoKey)
	if err != nil {
		b.Fatal(err)
	}
	h := changes.NewHandler(env.Pool, l)
	// The inserts' notes get their positions (as the first request's fold
	// would); the floor is the page's statements, without the fold that
	// each request sends first (with nothing to fold, in the loop).
	if err := changes.Fold(context.Background(), env.Pool, m.ID); err != nil {
		b.Fatal(err)
	}
	rec := &apitest.RecordingDB{DBTX: env.Pool}
	page, err := h.PageTx(context.Background(), db.New(rec), m.ID, nil, 500)
	if err != nil {
		b.Fatal(err)
	}
	if len(page.Changes) != 500 || !page.HasMore {
		b.Fatalf("%d changes on the page", len(page.Changes))
	}
	env.BenchAgainstFloor(b, m, apitest.BenchRequest{Method: http.MethodGet, Path: "/api/account/changes?limit=500", Want: http.StatusOK}, rec.Sent)
}
