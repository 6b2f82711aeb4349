// Package dbtest gives each test its own PostgreSQL database, cloned from a
// template that the migrations built once, and its own Redis key space, so
// tests run in parallel against the real servers.
package dbtest

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/redis/go-redis/v9"

	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/schema"
)

// AdminURL is the maintenance database tests create their databases through.
func AdminURL() string {
	if v := os.Getenv("NESTEGG_TEST_DATABASE_URL"); v != "" {
		return v
	}
	return "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"
}

// RedisURL is the Redis tests use.
func RedisURL() string {
	if v := os.Getenv("NESTEGG_TEST_REDIS_URL"); v != "" {
		return v
	}
	return "redis://127.0.0.1:6379/0"
}

// templateName names the template after the migrations' content, so a changed
// migration builds a new template and an unchanged one is reused across runs.
func templateName() string {
	h := sha256.New()
	names, _ := fs.Glob(schema.Migrations, "*.sql")
	sort.Strings(names)
	for _, n := range names {
		b, _ := fs.ReadFile(schema.Migrations, n)
		h.Write([]byte(n))
		h.Write(b)
	}
	return "nestegg_tpl_" + hex.EncodeToString(h.Sum(nil))[:16]
}

// ensureTemplate builds the template database once. An advisory lock on the
// maintenance database serialises test binaries that start together.
func ensureTemplate(ctx context.Context, admin *pgx.Conn, name string) error {
	if _, err := admin.Exec(ctx, "SELECT pg_advisory_lock(774411)"); err != nil {
		return err
	}
	defer admin.Exec(ctx, "SELECT pg_advisory_unlock(774411)") //nolint:errcheck
	var exists bool
	if err := admin.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&exists); err != nil {
		return err
	}
	if exists {
		return nil
	}
	dropStaleTemplates(ctx, admin, name)
	building := name + "_build"
	_, _ = admin.Exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{building}.Sanitize()+" WITH (FORCE)")
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{building}.Sanitize()); err != nil {
		return err
	}
	pool, err := database.Open(ctx, urlFor(admin, building))
	if err != nil {
		return err
	}
	err = database.Migrate(ctx, pool)
	pool.Close()
	if err != nil {
		return err
	}
	_, err = admin.Exec(ctx, "COMMENT ON DATABASE "+pgx.Identifier{building}.Sanitize()+" IS '"+templateComment+time.Now().UTC().Format(time.RFC3339)+"'")
	if err != nil {
		return err
	}
	// Renamed only once complete, so a half-built template is never cloned.
	_, err = admin.Exec(ctx, "ALTER DATABASE "+pgx.Identifier{building}.Sanitize()+" RENAME TO "+pgx.Identifier{name}.Sanitize())
	return err
}

// dropStaleTemplates removes templates of earlier migrations that were built
// more than a day ago (their comment says when). Younger ones stay: another
// checkout with other migrations (a branch being built beside this one) is
// still using them. One being cloned right now is left alone (the drop fails)
// and goes next time.
func dropStaleTemplates(ctx context.Context, admin *pgx.Conn, current string) {
	rows, err := admin.Query(ctx, `
		SELECT datname, COALESCE(shobj_description(oid, 'pg_database'), '')
		FROM pg_database WHERE datname LIKE 'nestegg\_tpl\_%' AND datname <> $1`, current)
	if err != nil {
		return
	}
	type template struct{ name, comment string }
	all, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (template, error) {
		var t template
		return t, row.Scan(&t.name, &t.comment)
	})
	if err != nil {
		return
	}
	for _, t := range all {
		built, err := time.Parse(time.RFC3339, strings.TrimPrefix(t.comment, templateComment))
		if err == nil && time.Since(built) < 24*time.Hour {
			continue
		}
		_, _ = admin.Exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{t.name}.Sanitize())
	}
}

const templateComment = "nestegg test template built "

func urlFor(admin *pgx.Conn, dbName string) string {
	cfg := admin.Config()
	return fmt.Sprintf("postgres://%s@%s:%d/%s?sslmode=disable", cfg.User, cfg.Host, cfg.Port, dbName)
}

// NewDatabase returns the URL of a fresh, migrated database that is dropped
// when t ends.
func NewDatabase(t testing.TB) string {
	t.Helper()
	ctx := context.Background()
	admin, err := pgx.Connect(ctx, AdminURL())
	if err != nil {
		t.Fatalf("dbtest: connect to PostgreSQL at %s: %v", AdminURL(), err)
	}
	defer admin.Close(ctx)
	tpl := templateName()
	name := "nestegg_test_" + randomHex(8)
	// A shared hold on the template lock while cloning: a run of other
	// migrations (another checkout) drops stale templates only under the
	// exclusive lock. One that dropped this template between the check and
	// the clone makes the clone fail; the template is then built again.
	for attempt := 0; attempt < 10; attempt++ {
		if err = ensureTemplate(ctx, admin, tpl); err != nil {
			t.Fatalf("dbtest: template: %v", err)
		}
		if _, err = admin.Exec(ctx, "SELECT pg_advisory_lock_shared(774411)"); err != nil {
			t.Fatalf("dbtest: template lock: %v", err)
		}
		_, err = admin.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()+" TEMPLATE "+pgx.Identifier{tpl}.Sanitize())
		_, _ = admin.Exec(ctx, "SELECT pg_advisory_unlock_shared(774411)")
		if err == nil {
			break
		}
	}
	if err != nil {
		t.Fatalf("dbtest: clone template: %v", err)
	}
	url := urlFor(admin, name)
	t.Cleanup(func() {
		conn, err := pgx.Connect(context.Background(), AdminURL())
		if err != nil {
			t.Errorf("dbtest: drop %s: %v", name, err)
			return
		}
		defer conn.Close(context.Background())
		if _, err := conn.Exec(context.Background(), "DROP DATABASE IF EXISTS "+pgx.Identifier{name}.Sanitize()+" WITH (FORCE)"); err != nil {
			t.Errorf("dbtest: drop %s: %v", name, err)
		}
	})
	return url
}

// NewPool returns a pool on a fresh, migrated database of its own.
//
// Its breaker against a hung PostgreSQL (database.Options.HangTimeout)
// waits 5 s, not the production second: many race-detector test binaries on
// a shared two-core machine can keep a healthy server from answering its
// probe in half a second, and a trip would fail unrelated tests with 503.
// The breaker's own tests open their pools with the production value.
func NewPool(t testing.TB) *pgxpool.Pool {
	t.Helper()
	pool, err := database.OpenWith(context.Background(), NewDatabase(t), database.Options{HangTimeout: 5 * time.Second})
	if err != nil {
		t.Fatalf("dbtest: open: %v", err)
	}
	t.Cleanup(pool.Close) // runs before the drop: cleanups are last in, first out
	return pool
}

// NewRedis returns a client of the test Redis and a key prefix of this test's
// own; the test's keys are deleted when it ends.
func NewRedis(t testing.TB) (*redis.Client, string) {
	t.Helper()
	opts, err := redis.ParseURL(RedisURL())
	if err != nil {
		t.Fatalf("dbtest: REDIS url: %v", err)
	}
	rdb := redis.NewClient(opts)
	if err := rdb.Ping(context.Background()).Err(); err != nil {
		t.Fatalf("dbtest: Redis at %s: %v", RedisURL(), err)
	}
	prefix := "nestegg-test:" + randomHex(8) + ":"
	t.Cleanup(func() {
		ctx := context.Background()
		iter := rdb.Scan(ctx, 0, prefix+"*", 1000).Iterator()
		for iter.Next(ctx) {
			rdb.Del(ctx, iter.Val())
		}
		_ = rdb.Close()
	})
	return rdb, prefix
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// Eventually polls cond until it holds, failing the test after ten seconds:
// the one way tests wait for something that happens in the background
// (never a fixed sleep).
func Eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within 10s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
