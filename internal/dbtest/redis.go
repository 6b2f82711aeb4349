package dbtest

import (
	"context"
	"fmt"
	"net"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// PrivateRedis is a redis-server of one test's own, which the test may stop,
// freeze and restart to see how the service lives through a Redis outage.
type PrivateRedis struct {
	t    testing.TB
	Port int
	cmd  *exec.Cmd
}

// StartRedis starts a redis-server on a free port, stopped when t ends.
func StartRedis(t testing.TB) *PrivateRedis {
	t.Helper()
	if _, err := exec.LookPath("redis-server"); err != nil {
		t.Fatalf("dbtest: redis-server is not installed: %v", err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	r := &PrivateRedis{t: t, Port: port}
	r.Start()
	t.Cleanup(r.Kill)
	return r
}

// URL is the server's address as a REDIS_URL.
func (r *PrivateRedis) URL() string { return fmt.Sprintf("redis://127.0.0.1:%d/0", r.Port) }

// Start (re)starts the server, empty, and waits until it answers.
func (r *PrivateRedis) Start() {
	r.t.Helper()
	r.cmd = exec.Command("redis-server", "--port", strconv.Itoa(r.Port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--daemonize", "no", "--loglevel", "warning")
	if err := r.cmd.Start(); err != nil {
		r.t.Fatalf("dbtest: start redis-server: %v", err)
	}
	c := redis.NewClient(&redis.Options{Addr: fmt.Sprintf("127.0.0.1:%d", r.Port)})
	defer c.Close()
	deadline := time.Now().Add(10 * time.Second)
	for c.Ping(context.Background()).Err() != nil {
		if time.Now().After(deadline) {
			r.t.Fatalf("dbtest: redis-server on %d did not come up", r.Port)
		}
		time.Sleep(20 * time.Millisecond) // polling the server's start, not timing the code under test
	}
}

// Kill stops the server at once (SIGKILL), as a crash would.
func (r *PrivateRedis) Kill() {
	if r.cmd != nil && r.cmd.Process != nil {
		_ = r.cmd.Process.Kill()
		_, _ = r.cmd.Process.Wait()
		r.cmd = nil
	}
}

// Freeze makes the server hang (SIGSTOP): connections open, nothing answers.
func (r *PrivateRedis) Freeze() { _ = r.cmd.Process.Signal(syscall.SIGSTOP) }

// Thaw undoes Freeze.
func (r *PrivateRedis) Thaw() { _ = r.cmd.Process.Signal(syscall.SIGCONT) }

// Client returns a client of the server, closed when the test ends.
func (r *PrivateRedis) Client() *redis.Client {
	c := redis.NewClient(&redis.Options{Addr: fmt.Sprintf("127.0.0.1:%d", r.Port), MaxRetries: -1,
		DialTimeout: 200 * time.Millisecond, ReadTimeout: 200 * time.Millisecond, WriteTimeout: 200 * time.Millisecond})
	r.t.Cleanup(func() { _ = c.Close() })
	return c
}
