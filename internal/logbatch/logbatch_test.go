package logbatch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"
)

// sink records each write it is given.
type sink struct {
	mu     sync.Mutex
	writes []string
	fail   error
}

func (s *sink) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fail != nil {
		return 0, s.fail
	}
	s.writes = append(s.writes, string(p))
	return len(p), nil
}

func (s *sink) got() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.writes...)
}

// hour is an interval no test waits for.
const hour = time.Hour

func TestLinesWaitAndGoOutTogetherInOrder(t *testing.T) {
	out := &sink{}
	w := New(out, hour)
	defer w.Close()
	for i := range 3 {
		fmt.Fprintf(w, "line %d\n", i)
	}
	if got := out.got(); len(got) != 0 {
		t.Fatalf("written before a flush: %q", got)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if got := out.got(); len(got) != 1 || got[0] != "line 0\nline 1\nline 2\n" {
		t.Fatalf("writes %q, want the three lines in one write", got)
	}
	if err := w.Flush(); err != nil || len(out.got()) != 1 {
		t.Fatalf("a flush with nothing held wrote %q (%v)", out.got(), err)
	}
}

func TestTheIntervalWritesWhatIsHeld(t *testing.T) {
	out := &sink{}
	w := New(out, 5*time.Millisecond)
	defer w.Close()
	fmt.Fprint(w, "waiting\n")
	deadline := time.Now().Add(10 * time.Second)
	for len(out.got()) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the held line was never written")
		}
		time.Sleep(time.Millisecond)
	}
	if got := out.got(); got[0] != "waiting\n" {
		t.Fatalf("wrote %q", got)
	}
}

func TestAFullBatchIsWrittenWithoutWaiting(t *testing.T) {
	out := &sink{}
	w := New(out, hour)
	defer w.Close()
	line := strings.Repeat("x", 1023) + "\n"
	for range maxHeld / len(line) {
		fmt.Fprint(w, line)
	}
	got := writesOf(t, out, 1)
	if len(got[0]) != maxHeld {
		t.Fatalf("after %d bytes: a write of %d", maxHeld, len(got[0]))
	}
	// One line far past the batch's size is written whole, and the batch
	// does not stay that large.
	long := strings.Repeat("z", 16*maxHeld) + "\n"
	fmt.Fprint(w, long)
	if got := writesOf(t, out, 2); got[1] != long {
		t.Fatalf("the long line was not written whole at once: %d bytes", len(got[1]))
	}
	if err := w.Flush(); err != nil { // the batch's buffer is back
		t.Fatal(err)
	}
	w.mu.Lock()
	held := cap(w.held)
	w.mu.Unlock()
	if held > bufCap {
		t.Fatalf("the batch kept %d bytes after a long line", held)
	}
}

// Batches that go past maxHeld by a few lines, as they do under load (the
// lines that come while a full batch waits for the writer's goroutine),
// cost no allocation: the two buffers take turns.
func TestSteadyBatchesAllocateNothing(t *testing.T) {
	w := New(io.Discard, hour)
	defer w.Close()
	line := []byte(strings.Repeat("x", 255) + "\n")
	allocs := testing.AllocsPerRun(50, func() {
		for range maxHeld/len(line) + 8 {
			_, _ = w.Write(line)
		}
		_ = w.Flush()
	})
	if allocs != 0 {
		t.Fatalf("%.1f allocations a batch", allocs)
	}
}

// writesOf waits until out has n writes (the writer's goroutine writes a
// full batch), and answers them.
func writesOf(t *testing.T, out *sink, n int) []string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		got := out.got()
		if len(got) >= n {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d writes, want %d", len(got), n)
		}
		time.Sleep(time.Millisecond)
	}
}

// stuckSink takes no write until it is released, as a file on a busy disk
// or a pipe whose reader stalls.
type stuckSink struct {
	sink
	started chan struct{} // a write began
	release chan struct{}
	once    sync.Once
}

func (s *stuckSink) Write(p []byte) (int, error) {
	s.once.Do(func() { close(s.started) })
	<-s.release
	return s.sink.Write(p)
}

// While out takes no write, a Write still returns at once: it only appends
// to the batch, which the writer's goroutine writes outside the lock that
// writers append under (before, a request's log line waited for the
// write(2) of the batch ahead of it). Past maxBacklog writers wait, so
// memory stays bounded; released, every line goes out whole and in order.
func TestAStuckOutputHoldsUpNoWriteUntilTheBacklog(t *testing.T) {
	out := &stuckSink{started: make(chan struct{}), release: make(chan struct{})}
	w := New(out, hour)
	line := strings.Repeat("y", 1023) + "\n"
	for range maxHeld / len(line) {
		fmt.Fprint(w, line)
	}
	<-out.started // the full batch is being written, and is stuck

	returned := make(chan int)
	go func() {
		n := 0
		for range (maxBacklog - maxHeld) / len(line) {
			fmt.Fprintf(w, "%04d%s", n, line[4:])
			n++
		}
		returned <- n
	}()
	var n int
	select {
	case n = <-returned:
	case <-time.After(10 * time.Second):
		t.Fatal("writes under the backlog waited for the stuck output")
	}

	past := make(chan struct{})
	go func() {
		fmt.Fprint(w, strings.Repeat("p", 2*maxHeld)+"\n") // to past the backlog
		fmt.Fprint(w, "last\n")
		close(past)
	}()
	waiting := time.After(200 * time.Millisecond)
	select {
	case <-past:
		t.Fatal("a write past the backlog did not wait for the stuck output")
	case <-waiting:
	}
	close(out.release)
	<-past
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	all := strings.Join(out.got(), "")
	if !strings.HasSuffix(all, "last\n") {
		t.Fatal("the last line is not last")
	}
	for i := range n {
		if !strings.Contains(all, fmt.Sprintf("%04d%s", i, line[4:])) {
			t.Fatalf("line %d is missing or cut", i)
		}
	}
	if strings.Index(all, "0000") > strings.Index(all, fmt.Sprintf("%04d", n-1)) {
		t.Fatal("the lines are out of order")
	}
}

func TestWarningsAreWrittenAtOnceWithWhatCameBefore(t *testing.T) {
	out := &sink{}
	w := New(out, hour)
	defer w.Close()
	log := slog.New(w.Handler(slog.NewJSONHandler(w, nil), slog.LevelWarn)).With("service", "nestegg").WithGroup("g")
	log.Info("request", "status", 200)
	if got := out.got(); len(got) != 0 {
		t.Fatalf("an info line was written at once: %q", got)
	}
	log.Warn("slow", "ms", 900)
	got := out.got()
	if len(got) != 1 {
		t.Fatalf("writes %q, want one", got)
	}
	lines := strings.Split(strings.TrimSuffix(got[0], "\n"), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], `"msg":"request"`) || !strings.Contains(lines[1], `"msg":"slow"`) ||
		!strings.Contains(lines[1], `"service":"nestegg"`) || !strings.Contains(lines[1], `"g":{"ms":900}`) {
		t.Fatalf("lines %q", lines)
	}
	log.Error("down")
	if got := out.got(); len(got) != 2 || !strings.Contains(got[1], `"msg":"down"`) {
		t.Fatalf("an error was not written at once: %q", got)
	}
	if !log.Enabled(context.Background(), slog.LevelInfo) || log.Enabled(context.Background(), slog.LevelDebug) {
		t.Fatal("the wrapper changed what is enabled")
	}
}

func TestCloseWritesWhatIsHeldThenWritesThrough(t *testing.T) {
	out := &sink{}
	w := New(out, hour)
	fmt.Fprint(w, "held\n")
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatalf("second close: %v", err)
	}
	fmt.Fprint(w, "after\n")
	if got := out.got(); len(got) != 2 || got[0] != "held\n" || got[1] != "after\n" {
		t.Fatalf("writes %q", got)
	}
}

func TestAFailedWriteIsReportedAndNotRetained(t *testing.T) {
	out := &sink{fail: errors.New("disk full")}
	w := New(out, hour)
	defer w.Close()
	fmt.Fprint(w, "lost\n")
	if err := w.Flush(); err == nil {
		t.Fatal("a failed write was not reported")
	}
	out.mu.Lock()
	out.fail = nil
	out.mu.Unlock()
	fmt.Fprint(w, "next\n")
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if got := out.got(); len(got) != 1 || got[0] != "next\n" {
		t.Fatalf("writes %q, want only the line after the failure", got)
	}
}

func TestParallelWritersKeepEveryLineWhole(t *testing.T) {
	out := &sink{}
	w := New(out, time.Millisecond)
	const writers, lines = 16, 500
	var wg sync.WaitGroup
	for g := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range lines {
				fmt.Fprintf(w, "writer %02d line %04d %s\n", g, i, strings.Repeat("y", i%300))
			}
		}()
	}
	wg.Wait()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	var all bytes.Buffer
	for _, s := range out.got() {
		all.WriteString(s)
	}
	next := make([]int, writers)
	for _, l := range strings.Split(strings.TrimSuffix(all.String(), "\n"), "\n") {
		var g, i int
		var pad string
		if _, err := fmt.Sscanf(l, "writer %d line %d %s", &g, &i, &pad); err != nil && i%300 != 0 {
			t.Fatalf("broken line %q: %v", l, err)
		}
		if i != next[g] || len(pad) != i%300 {
			t.Fatalf("writer %d: line %d (padding %d) where line %d was due", g, i, len(pad), next[g])
		}
		next[g]++
	}
	for g, n := range next {
		if n != lines {
			t.Fatalf("writer %d: %d lines of %d", g, n, lines)
		}
	}
}
