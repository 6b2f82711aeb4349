package server_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/app"
)

// requestCounts reads nestegg_http_requests_total from a server's /metrics:
// "operation status" to its count.
func requestCounts(t *testing.T, base string) map[string]int {
	t.Helper()
	res, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	out := map[string]int{}
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "nestegg_http_requests_total{") {
			continue
		}
		var op, status string
		var n int
		labels, value, _ := strings.Cut(strings.TrimPrefix(line, "nestegg_http_requests_total{"), "} ")
		for _, kv := range strings.Split(labels, ",") {
			k, v, _ := strings.Cut(kv, "=")
			switch k {
			case "operation":
				op = strings.Trim(v, `"`)
			case "status":
				status = strings.Trim(v, `"`)
			}
		}
		_, _ = fmt.Sscan(value, &n)
		out[op+" "+status] = n
	}
	return out
}

// While PostgreSQL cannot be reached, the session layer answers 503 before
// the handler runs; the answer is still counted and logged under the
// operation the request was for, not "unmatched", and logged with the member
// the session names. Not parallel: it reads the process's log.
func TestOutageIsCountedUnderItsOperation(t *testing.T) {
	var logs syncBuffer
	defer slog.SetDefault(slog.Default())
	slog.SetDefault(slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelInfo})))
	env := apitest.New(t)
	m := env.NewMember()
	broken, err := pgxpool.New(context.Background(), "postgres://postgres@127.0.0.1:1/nestegg?sslmode=disable&connect_timeout=1")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(broken.Close)
	down := env.NewReplica(func(o *app.Options) { o.Pool = broken })
	c := down.Client().WithToken(m.Token)
	c.Do(http.MethodGet, "/api/auth/session", nil).WantProblem(http.StatusServiceUnavailable, "DEPENDENCY_UNAVAILABLE")
	c.Do(http.MethodPost, "/api/account/entries", map[string]any{"date": "2026-11-16", "type": "expense", "amount": 4500}).
		WantProblem(http.StatusServiceUnavailable, "DEPENDENCY_UNAVAILABLE")
	c.Do(http.MethodPost, "/api/board/posts/1/vote", map[string]any{"direction": "UP"}).
		WantProblem(http.StatusServiceUnavailable, "DEPENDENCY_UNAVAILABLE")

	counts := requestCounts(t, down.Server.URL)
	for _, op := range []string{"getSession", "createEntry", "votePost"} {
		if counts[op+" 503"] != 1 {
			t.Errorf("%s: counted %d answers of 503, want 1 (all: %v)", op, counts[op+" 503"], counts)
		}
	}
	if n := counts["unmatched 503"]; n != 0 {
		t.Errorf(`%d answers of 503 counted under "unmatched" (all: %v)`, n, counts)
	}
	logged := map[string]bool{}
	for _, line := range strings.Split(logs.String(), "\n") {
		var l struct {
			Msg, Operation string
			Status         int
			MemberID       int64 `json:"member_id"`
		}
		if json.Unmarshal([]byte(line), &l) == nil && l.Msg == "request" && l.Status == http.StatusServiceUnavailable {
			logged[fmt.Sprintf("%s %d", l.Operation, l.MemberID)] = true
		}
	}
	for _, op := range []string{"getSession", "createEntry", "votePost"} {
		if !logged[fmt.Sprintf("%s %d", op, m.ID)] {
			t.Errorf("no 503 of %s logged for member %d (logged: %v)", op, m.ID, logged)
		}
	}
}

// syncBuffer is a bytes.Buffer the server's goroutines may write at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// A client that hangs up while its request waits is counted as 499 (client
// closed request), not as a 503 the service failed to give.
func TestClientThatHangsUpIsCounted499(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	var id int64
	if err := env.Pool.QueryRow(context.Background(),
		`INSERT INTO account_entry (member_id, type, amount, entry_date) VALUES ($1, 'expense', 100, DATE '2026-11-16') RETURNING id`,
		m.ID).Scan(&id); err != nil {
		t.Fatal(err)
	}
	// Hold the entry's row lock, so the delete waits for it.
	tx, err := env.Pool.Begin(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tx.Rollback(context.Background()) }()
	if _, err := tx.Exec(context.Background(), `SELECT 1 FROM account_entry WHERE id = $1 FOR UPDATE`, id); err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodDelete, fmt.Sprintf("%s/api/account/entries/%d", env.Server.URL, id), nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+m.Token)
	done := make(chan error, 1)
	go func() {
		res, err := http.DefaultClient.Do(req)
		if err == nil {
			_, _ = io.Copy(io.Discard, res.Body)
			res.Body.Close()
		}
		done <- err
	}()
	// Wait until the delete waits for the lock, then hang up.
	waiting := false
	for range 500 {
		var n int
		if err := env.Pool.QueryRow(context.Background(),
			`SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			waiting = true
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !waiting {
		t.Fatal("the delete never waited for the entry's lock")
	}
	cancel()
	if err := <-done; err == nil {
		t.Fatal("the cancelled request was answered")
	}
	// The server notices the hang-up, cancels the query and answers to
	// nobody; its count follows.
	var counts map[string]int
	for range 500 {
		counts = requestCounts(t, env.Server.URL)
		if counts["deleteEntry 499"]+counts["deleteEntry 503"] > 0 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if counts["deleteEntry 499"] != 1 || counts["deleteEntry 503"] != 0 {
		t.Errorf("counted %d answers of 499 and %d of 503 for the hung-up delete, want 1 and 0 (all: %v)",
			counts["deleteEntry 499"], counts["deleteEntry 503"], counts)
	}
}
