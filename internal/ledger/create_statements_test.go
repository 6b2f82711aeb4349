package ledger_test

import (
	"context"
	"testing"
	"time"

	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/internal/ledger"
)

// An entry create is one statement that checks what the entry names and
// inserts it, answering the whole row; tags add one statement that makes,
// links and names them. Only a refused entry reads again, to say why.
func TestEntryCreateIsOneStatementAndOneForTags(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	other := env.NewMember()
	ctx := context.Background()
	var wallet, category, foreignWallet int64
	if err := env.Pool.QueryRow(ctx, `INSERT INTO wallet (member_id, name, type, sort_order) VALUES ($1, 'Card', 'CARD', 1) RETURNING id`, m.ID).Scan(&wallet); err != nil {
		t.Fatal(err)
	}
	if err := env.Pool.QueryRow(ctx, `INSERT INTO account_category (member_id, name, type, sort_order) VALUES ($1, 'Food', 'expense', 1) RETURNING id`, m.ID).Scan(&category); err != nil {
		t.Fatal(err)
	}
	if err := env.Pool.QueryRow(ctx, `INSERT INTO wallet (member_id, name, type, sort_order) VALUES ($1, 'Bank', 'BANK', 1) RETURNING id`, other.ID).Scan(&foreignWallet); err != nil {
		t.Fatal(err)
	}
	in := ledger.EntryInput{Date: time.Date(2026, 11, 16, 0, 0, 0, 0, time.UTC), Type: "expense", Amount: 4500, WalletID: &wallet, CategoryID: &category, Memo: "Coffee"}

	rec := &apitest.RecordingDB{DBTX: env.Pool}
	e, err := ledger.CreateEntryTx(ctx, db.New(rec), m.ID, in)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Sent) != 1 || e.ID == 0 || !e.NewDay || e.Memo != "Coffee" || *e.WalletID != wallet {
		t.Errorf("create without tags: %d statements, entry %+v; want 1 statement and the whole row", len(rec.Sent), e)
	}

	tagged := in
	tagged.Tags = []string{"coffee", "morning"}
	err = database.InTx(ctx, env.Pool, func(q *db.Queries) error {
		_, err := ledger.CreateEntryTx(ctx, q, m.ID, ledger.EntryInput{Date: in.Date, Type: "expense", Amount: 1, Tags: []string{"morning"}})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	rec = &apitest.RecordingDB{DBTX: env.Pool}
	e, err = ledger.CreateEntryTx(ctx, db.New(rec), m.ID, tagged)
	if err != nil {
		t.Fatal(err)
	}
	// "morning" existed (sort order 1), "coffee" is new (placed last).
	if len(rec.Sent) != 2 || len(e.Tags) != 2 || e.Tags[0] != "morning" || e.Tags[1] != "coffee" || e.NewDay {
		t.Errorf("create with tags: %d statements, tags %v, new day %v; want 2 statements, [morning coffee], false", len(rec.Sent), e.Tags, e.NewDay)
	}

	refused := in
	refused.WalletID = &foreignWallet
	rec = &apitest.RecordingDB{DBTX: env.Pool}
	if _, err := ledger.CreateEntryTx(ctx, db.New(rec), m.ID, refused); err != ledger.ErrWalletNotFound {
		t.Errorf("another member's wallet: %v, want ErrWalletNotFound", err)
	}
}
