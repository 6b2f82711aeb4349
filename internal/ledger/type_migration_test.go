package ledger_test

import (
	"testing"

	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"

	"github.com/nestegg/nestegg/internal/dbtest"
	"github.com/nestegg/nestegg/schema"
)

// Migration 00199 turns the stored upper-case entry types into SPEC.md's
// lower-case values in every table that holds one, and from then on the
// database refuses any other value.
func TestEntryTypeLowerCaseMigration(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	pool := dbtest.NewPool(t)
	sqlDB := stdlib.OpenDBFromPool(pool)
	defer sqlDB.Close()
	provider, err := goose.NewProvider(goose.DialectPostgres, sqlDB, schema.Migrations)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := provider.ApplyVersion(ctx, 199, false); err != nil {
		t.Fatal(err)
	}
	for _, sql := range []string{
		`INSERT INTO member (email, name) VALUES ('a@x.example', 'a')`,
		`INSERT INTO account_category (member_id, name, type, sort_order) SELECT id, 'Food', 'EXPENSE', 1 FROM member`,
		`INSERT INTO account_entry (member_id, type, amount, entry_date) SELECT id, t, 1, '2026-11-02' FROM member, unnest(ARRAY['INCOME', 'EXPENSE']) t`,
		`INSERT INTO recurring (member_id, name, type, amount, day) SELECT id, 'Rent', 'EXPENSE', 1, 25 FROM member`,
		`INSERT INTO quick_entry (member_id, name, type, amount) SELECT id, 'Pay', 'INCOME', 1 FROM member`,
		`INSERT INTO default_category (name, type, sort_order) VALUES ('Old', 'INCOME', 9999)`,
	} {
		if _, err := pool.Exec(ctx, sql); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := provider.ApplyVersion(ctx, 199, true); err != nil {
		t.Fatal(err)
	}
	var upper, lower int
	err = pool.QueryRow(ctx, `
		WITH t (type) AS (
		    SELECT type FROM account_entry UNION ALL SELECT type FROM account_category
		    UNION ALL SELECT type FROM recurring UNION ALL SELECT type FROM quick_entry
		    UNION ALL SELECT type FROM default_category)
		SELECT count(*) FILTER (WHERE type <> lower(type)), count(*) FILTER (WHERE type IN ('income', 'expense')) FROM t`).Scan(&upper, &lower)
	if err != nil {
		t.Fatal(err)
	}
	if upper != 0 || lower < 6 {
		t.Fatalf("after the migration: %d upper-case types, %d lower-case", upper, lower)
	}
	for _, table := range []string{"account_category", "account_entry", "recurring", "quick_entry", "default_category"} {
		if _, err := pool.Exec(ctx, `UPDATE `+table+` SET type = 'EXPENSE'`); err == nil {
			t.Errorf("%s accepts an upper-case type after the migration", table)
		}
	}
}
