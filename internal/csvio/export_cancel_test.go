package csvio_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	lt "github.com/nestegg/nestegg/internal/apitest/ledgertest"
	"github.com/nestegg/nestegg/internal/calendar"
	"github.com/nestegg/nestegg/internal/csvio"
)

// cancelAfterFirstWrite cancels the export's context once the first bytes
// are out, as a deadline passing mid-file would.
type cancelAfterFirstWrite struct {
	cancel context.CancelFunc
	n      int
}

func (w *cancelAfterFirstWrite) Write(p []byte) (int, error) {
	w.n += len(p)
	w.cancel()
	return len(p), nil
}

// An export whose context ends mid-file stops with the context's error
// (the answer then cuts the connection) instead of reading on.
func TestExportStopsWhenItsContextEnds(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	w := lt.Wallet(m.Client, "현금", api.WalletTypeCash, 0)
	env.Exec(`INSERT INTO account_entry (member_id, wallet_id, type, amount, entry_date, memo)
		SELECT $1, $2, 'expense', i, DATE '2026-01-01' + (i % 300), 'x' FROM generate_series(1, 5000) AS i`, m.ID, w.ID)
	h := csvio.NewHandler(env.Pool, env.Clock, time.UTC)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s, err := h.StartExport(ctx, m.ID, calendar.Date(2026, 1, 1), calendar.Date(2026, 12, 31))
	if err != nil {
		t.Fatal(err)
	}
	out := &cancelAfterFirstWrite{cancel: cancel}
	if _, err := s.WriteTo(out); !errors.Is(err, context.Canceled) {
		t.Fatalf("export ended with %v after %d bytes", err, out.n)
	}
}
