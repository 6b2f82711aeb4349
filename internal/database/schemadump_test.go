package database_test

import (
	"bytes"
	"flag"
	"os"
	"os/exec"
	"regexp"
	"testing"

	"github.com/nestegg/nestegg/internal/dbtest"
)

var updateDump = flag.Bool("update-schema-dump", false, "write generated/schema.sql from the migrations")

const dumpPath = "../../generated/schema.sql"

// generated/schema.sql is the schema as the migrations leave it, tables,
// indexes, functions and triggers in one file, for reading: the one place
// that shows everything a write sets off in the database. `make generate`
// writes it (this test with -update-schema-dump); this test, and so
// `make test` and `make check`, fail when the migrations and the file differ.
func TestSchemaDumpIsCurrent(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("pg_dump"); err != nil {
		t.Fatal("pg_dump is not installed: it comes with PostgreSQL's client package (postgresql-client)")
	}
	url := dbtest.NewDatabase(t)
	out, err := exec.CommandContext(t.Context(), "pg_dump", "--schema-only", "--no-owner", "--no-privileges",
		"--no-comments", "--exclude-table=goose_db_version", "--exclude-table=goose_db_version_id_seq", url).Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("pg_dump: %v: %s", err, stderr)
	}
	got := tidyDump(out)
	if *updateDump {
		if err := os.WriteFile(dumpPath, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(dumpPath)
	if err != nil {
		t.Fatalf("%v: run make generate", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("generated/schema.sql differs from what the migrations in schema/ make: run make generate and commit it")
	}
}

var (
	// Lines that depend on the pg_dump and server versions, not the schema.
	dumpNoise = regexp.MustCompile(`(?m)^(-- Dumped (from|by) .*|\\(un)?restrict .*|SET .*|SELECT pg_catalog\.set_config.*)\n`)
	blankRuns = regexp.MustCompile(`\n{3,}`)
)

func tidyDump(b []byte) []byte {
	b = dumpNoise.ReplaceAll(b, nil)
	b = blankRuns.ReplaceAll(b, []byte("\n\n"))
	b = bytes.TrimSpace(b)
	header := "-- The schema the migrations in schema/ make, written by `make generate` (pg_dump).\n" +
		"-- Do not edit: change a migration, then run make generate.\n\n"
	return append([]byte(header), append(b, '\n')...)
}
