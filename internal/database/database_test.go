package database_test

import (
	"context"
	"sync"
	"testing"

	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/internal/dbtest"
)

// Replicas start together: migrating concurrently and again must both succeed
// and leave one copy of the schema.
func TestMigrateIsIdempotentAndSafeConcurrently(t *testing.T) {
	t.Parallel()
	pool := dbtest.NewPool(t) // already migrated from the template
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, 3)
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- database.Migrate(ctx, pool)
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatalf("migrate: %v", err)
		}
	}
	var n int
	if err := pool.QueryRow(ctx, "SELECT count(*) FROM information_schema.tables WHERE table_name = 'app_setting'").Scan(&n); err != nil || n != 1 {
		t.Fatalf("app_setting tables: %d (%v)", n, err)
	}
}

func TestOpenCreatesAMissingDatabase(t *testing.T) {
	t.Parallel()
	url := dbtest.NewDatabase(t)
	ctx := context.Background()
	// A database name nobody made yet.
	missing := url[:len(url)-len("?sslmode=disable")] + "_fresh?sslmode=disable"
	fresh, err := database.Open(ctx, missing)
	if err != nil {
		t.Fatalf("open a missing database: %v", err)
	}
	defer func() {
		fresh.Close()
		admin, err := database.Open(ctx, dbtest.AdminURL())
		if err == nil {
			_, _ = admin.Exec(ctx, "DROP DATABASE IF EXISTS "+dbNameOf(missing)+" WITH (FORCE)")
			admin.Close()
		}
	}()
	if err := database.Migrate(ctx, fresh); err != nil {
		t.Fatalf("migrate the new database: %v", err)
	}
	var n int
	if err := fresh.QueryRow(ctx, "SELECT count(*) FROM member").Scan(&n); err != nil {
		t.Fatalf("schema missing after migrate: %v", err)
	}
}

func dbNameOf(url string) string {
	s := url[:len(url)-len("?sslmode=disable")]
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '/' {
			return s[i+1:]
		}
	}
	return s
}
