package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/nestegg/nestegg/internal/dbtest"
)

// buildBinary builds cmd/nestegg once for the tests of this file.
func buildBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "nestegg")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

func TestBinaryServesAndShutsDownOnSIGTERM(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	addr := freeAddr(t)
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(),
		"HTTP_ADDR="+addr,
		"DATABASE_URL="+dbtest.NewDatabase(t),
		"REDIS_URL="+dbtest.RedisURL(),
		"LOG_LEVEL=warn",
	)
	stdout, _ := cmd.StdoutPipe()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill() //nolint:errcheck

	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("no start-up line: %v; stderr: %s", err, stderr.String())
	}
	if want := fmt.Sprintf("nestegg listening on http://%s (API reference: http://%s/docs)", addr, addr); strings.TrimSpace(line) != want {
		t.Fatalf("start-up line %q, want %q", line, want)
	}
	res, err := http.Get("http://" + addr + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("/readyz %d", res.StatusCode)
	}

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("exit after SIGTERM: %v; stderr: %s", err, stderr.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("still running 30s after SIGTERM")
	}
}

func TestBinaryRefusesABadSettingByName(t *testing.T) {
	t.Parallel()
	cmd := exec.Command(buildBinary(t))
	cmd.Env = append(os.Environ(), "SQL_INIT_MODE=sometimes", "HTTP_ADDR="+freeAddr(t))
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatal("started with SQL_INIT_MODE=sometimes")
	}
	if !strings.Contains(string(out), "SQL_INIT_MODE") {
		t.Fatalf("output does not name the variable:\n%s", out)
	}
}

func TestBinaryStartsWithoutRedisAndSaysSo(t *testing.T) {
	t.Parallel()
	addr, redisAddr := freeAddr(t), freeAddr(t) // nothing listens on redisAddr
	cmd := exec.Command(buildBinary(t))
	cmd.Env = append(os.Environ(),
		"HTTP_ADDR="+addr,
		"DATABASE_URL="+dbtest.NewDatabase(t),
		"REDIS_URL=redis://"+redisAddr+"/0",
		"LOG_LEVEL=error",
	)
	stdout, _ := cmd.StdoutPipe()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()

	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("no start-up line: %v; stderr: %s", err, stderr.String())
	}
	want := fmt.Sprintf("nestegg listening on http://%s (API reference: http://%s/docs); Redis at %s does not answer: sessions are served from PostgreSQL until it does", addr, addr, redisAddr)
	if strings.TrimSpace(line) != want {
		t.Fatalf("start-up line %q, want %q", line, want)
	}
	res, err := http.Get("http://" + addr + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("/healthz %d", res.StatusCode)
	}
}

func TestBinaryNamesDatabaseURLInOneLineWhenNoPostgreSQLAnswers(t *testing.T) {
	t.Parallel()
	dbAddr := freeAddr(t) // nothing listens there
	cmd := exec.Command(buildBinary(t))
	cmd.Env = append(os.Environ(), "HTTP_ADDR="+freeAddr(t),
		"DATABASE_URL=postgres://postgres@"+dbAddr+"/nestegg?sslmode=disable")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatal("started without PostgreSQL")
	}
	want := "nestegg: DATABASE_URL: no PostgreSQL answers at " + dbAddr + " (connect: connection refused); " +
		"start it (`make run` starts it for you), or set DATABASE_URL to one that runs\n"
	if string(out) != want {
		t.Fatalf("output:\n%s\nwant one line:\n%s", out, want)
	}
}

// Issue 42: with SQL_INIT_MODE=never on a database nobody migrated, the
// service does not start (every request would fail on a missing table) and
// says how to migrate.
func TestBinaryRefusesAnUnmigratedDatabaseWithInitModeNever(t *testing.T) {
	t.Parallel()
	url := dbtest.NewDatabase(t)
	// The same server, a database that exists but holds nothing.
	empty := strings.Replace(url, "/nestegg_test_", "/nestegg_test_empty_", 1)
	if empty == url {
		t.Fatalf("unexpected test database URL %s", url)
	}
	ctx := context.Background()
	admin, err := pgx.Connect(ctx, dbtest.AdminURL())
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	name := empty[strings.LastIndex(empty, "/")+1 : strings.Index(empty, "?")]
	if _, err := admin.Exec(ctx, `CREATE DATABASE "`+name+`"`); err != nil {
		t.Fatal(err)
	}
	defer admin.Exec(ctx, `DROP DATABASE IF EXISTS "`+name+`" WITH (FORCE)`) //nolint:errcheck // best effort

	cmd := exec.Command(buildBinary(t))
	cmd.Env = append(os.Environ(), "SQL_INIT_MODE=never", "DATABASE_URL="+empty, "HTTP_ADDR="+freeAddr(t), "LOG_LEVEL=error")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("started on an unmigrated database:\n%s", out)
	}
	if !strings.Contains(string(out), "SQL_INIT_MODE=always") || !strings.Contains(string(out), "no migrations applied") {
		t.Fatalf("the output does not say how to migrate:\n%s", out)
	}
}
