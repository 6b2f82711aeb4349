package database

import (
	"context"
	"crypto/tls"
	"errors"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// ErrUnavailable is the error of a statement, or of a wait for a connection,
// that the pool cut short or refused because PostgreSQL stopped answering
// (the problem mapper answers it 503 DEPENDENCY_UNAVAILABLE with Retry-After).
var ErrUnavailable = errors.New("PostgreSQL is not answering")

// DefaultHangTimeout is about how long an ordinary statement waits on a
// PostgreSQL that stopped answering before it fails with ErrUnavailable.
const DefaultHangTimeout = time.Second

// Patient marks ctx as the context of work that keeps its own, longer
// deadline (backup, restore, CSV import and export): its statements are not
// cut short when PostgreSQL stops answering, so a restore outlives a pause
// shorter than its deadline. While PostgreSQL is known not to answer, its
// waits for a connection still fail at once.
func Patient(ctx context.Context) context.Context {
	return context.WithValue(ctx, patientKey{}, true)
}

type patientKey struct{}

func isPatient(ctx context.Context) bool {
	v, _ := ctx.Value(patientKey{}).(bool)
	return v
}

// hangWatch is the pool's breaker against a PostgreSQL that stops answering
// (a stopped process, a vanished host: the socket stays open and nothing
// comes back, so nothing fails until each request's own deadline).
//
// It costs a healthy request no round trip: every connection of the pool is
// dialled through it and notes, with two atomic stores per read, since when
// it has been waiting for the server. A watchdog goroutine, running while
// the pool has connections, looks every hang/4. Only when a read has waited
// hang/4 does it probe: a `-- ping` on a connection of its own, outside the
// pool (a pool full of slow work does not delay it), allowed hang/2. A slow
// statement or a lock wait does not trip it, as the server still answers the
// probe; a probe left unanswered while that read still waits does. Then
// (open) the reads and connections of ordinary work are cut (their deadline
// set to now: each fails with ErrUnavailable and its connection is dropped),
// new connections and acquires fail at once, and the probe runs every tick;
// its first answer closes the breaker. So a hung PostgreSQL costs a request
// about hang (hang/4 + hang/4 + hang/2 at worst), and requests flow again
// within about hang/2 of its first answer.
//
// A probe refused rather than unanswered (connection refused, too many
// connections, shutting down) is an answer: those failures are fast, and
// the problem mapper answers them 503 on its own.
type hangWatch struct {
	hang     time.Duration
	probeCfg *pgx.ConnConfig

	open atomic.Bool
	// refusedAt is when a request was last refused while open (nanoseconds
	// since epoch): with no connection left, the watchdog keeps probing only
	// while requests keep coming, so a closed pool's watchdog ends.
	refusedAt atomic.Int64

	mu      sync.Mutex
	conns   map[*watchedConn]struct{}
	running bool

	// probe is the watchdog's own connection; only the watchdog uses it.
	probe *pgx.Conn
}

// epoch anchors the monotonic nanosecond stamps of reads.
var epoch = time.Now()

func sinceEpoch() int64 { return int64(time.Since(epoch)) + 1 }

// watchHangs puts the breaker into cfg's dialling and acquiring.
func watchHangs(cfg *pgxpool.Config, hang time.Duration) {
	if hang <= 0 {
		hang = DefaultHangTimeout
	}
	w := &hangWatch{hang: hang, probeCfg: cfg.ConnConfig.Copy(), conns: map[*watchedConn]struct{}{}}
	w.probeCfg.Tracer = nil // a probe every tick of an outage is not a statement to trace
	dial := cfg.ConnConfig.DialFunc
	if dial == nil { // ParseConfig sets one; as pgconn's default otherwise
		dial = (&net.Dialer{KeepAlive: 5 * time.Minute}).DialContext
	}
	cfg.ConnConfig.DialFunc = func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := dial(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return w.track(c), nil
	}
	cfg.BeforeConnect = func(context.Context, *pgx.ConnConfig) error {
		if w.open.Load() {
			return w.refuse()
		}
		return nil
	}
	// pgxpool pings a connection idle for over a second before handing it
	// out (its default); while open the acquire is refused instead.
	cfg.ShouldPing = func(_ context.Context, p pgxpool.ShouldPingParams) bool {
		return !w.open.Load() && p.IdleDuration > time.Second
	}
	cfg.PrepareConn = func(ctx context.Context, conn *pgx.Conn) (bool, error) {
		if w.open.Load() {
			return true, w.refuse() // the connection stays in the pool for later
		}
		if c := watchedOf(conn); c != nil {
			c.patient.Store(isPatient(ctx))
			c.inUse.Store(true)
		}
		return true, nil
	}
	cfg.AfterRelease = func(conn *pgx.Conn) bool {
		c := watchedOf(conn)
		if c == nil {
			return true
		}
		c.inUse.Store(false)
		c.patient.Store(false)
		return !c.cut.Load()
	}
}

// refuse answers an acquire or a connection while open, and makes sure the
// watchdog runs to close the breaker again.
func (w *hangWatch) refuse() error {
	w.refusedAt.Store(sinceEpoch())
	w.mu.Lock()
	start := !w.running
	w.running = true
	w.mu.Unlock()
	if start {
		go w.run()
	}
	return ErrUnavailable
}

func (w *hangWatch) track(c net.Conn) *watchedConn {
	wc := &watchedConn{Conn: c, w: w}
	w.mu.Lock()
	w.conns[wc] = struct{}{}
	start := !w.running
	w.running = true
	w.mu.Unlock()
	if start {
		go w.run()
	}
	return wc
}

func (w *hangWatch) forget(c *watchedConn) {
	w.mu.Lock()
	delete(w.conns, c)
	w.mu.Unlock()
}

// run is the watchdog: it ends when the pool has no connection left and
// nothing is waiting for the breaker to close.
func (w *hangWatch) run() {
	tick := time.NewTicker(w.hang / 4)
	defer tick.Stop()
	for range tick.C {
		if !w.check() {
			return
		}
	}
}

// check is one look of the watchdog; false ends it.
func (w *hangWatch) check() bool {
	waited, conns := w.longestRead()
	open := w.open.Load()
	if !open && waited < w.hang/4 {
		return w.keepRunning(conns, false)
	}
	if open && conns == 0 && time.Duration(sinceEpoch()-w.refusedAt.Load()) > 5*w.hang {
		return w.keepRunning(conns, true) // nobody is asking (a closed pool)
	}
	probed := sinceEpoch()
	if w.answers() {
		if w.open.Swap(false) {
			slog.Warn("PostgreSQL answers again; requests use it again")
		}
		return true
	}
	if !open {
		if !w.waitingSince(probed) {
			return true // the slow read ended meanwhile: PostgreSQL answers
		}
		w.open.Store(true)
		slog.Warn("PostgreSQL stopped answering; requests fail at once (503) until it answers again",
			"probe_timeout", w.hang/2)
	}
	w.cutOrdinary()
	return true
}

// keepRunning ends the watchdog when the pool has no connection (and, with
// giveUp, leaves the breaker as it is: the next refusal starts it again).
func (w *hangWatch) keepRunning(conns int, giveUp bool) bool {
	if conns > 0 {
		return true
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.conns) > 0 || (w.open.Load() && !giveUp) {
		return true
	}
	w.running = false
	if w.probe != nil {
		ctx, cancel := context.WithTimeout(context.Background(), w.hang/2)
		_ = w.probe.Close(ctx)
		cancel()
		w.probe = nil
	}
	return false
}

// longestRead answers how long the longest waiting read of the pool's
// connections has waited, and how many connections the pool has.
func (w *hangWatch) longestRead() (time.Duration, int) {
	now := sinceEpoch()
	var longest int64
	w.mu.Lock()
	defer w.mu.Unlock()
	for c := range w.conns {
		if since := c.readingSince.Load(); since != 0 {
			longest = max(longest, now-since)
		}
	}
	return time.Duration(longest), len(w.conns)
}

// waitingSince reports whether a read that began before t still waits.
func (w *hangWatch) waitingSince(t int64) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	for c := range w.conns {
		if since := c.readingSince.Load(); since != 0 && since < t {
			return true
		}
	}
	return false
}

// cutOrdinary fails the waiting reads, and the next ones, of every
// connection that ordinary work holds or is making; patient work and idle
// connections are left alone.
func (w *hangWatch) cutOrdinary() {
	w.mu.Lock()
	defer w.mu.Unlock()
	for c := range w.conns {
		if c.patient.Load() || (!c.inUse.Load() && c.readingSince.Load() == 0) {
			continue
		}
		c.cut.Store(true)
		_ = c.Conn.SetDeadline(time.Now())
	}
}

// answers probes PostgreSQL on the watchdog's own connection and reports
// whether it answered within hang/2 (an error it answered counts).
func (w *hangWatch) answers() bool {
	ctx, cancel := context.WithTimeout(context.Background(), w.hang/2)
	defer cancel()
	if w.probe == nil || w.probe.IsClosed() {
		c, err := pgx.ConnectConfig(ctx, w.probeCfg)
		if err != nil {
			return ctx.Err() == nil
		}
		w.probe = c
	}
	if err := w.probe.Ping(ctx); err != nil {
		_ = w.probe.Close(context.Background()) // pgconn closed it already on a timeout
		w.probe = nil
		return ctx.Err() == nil
	}
	return true
}

// watchedConn is one connection of the pool, as dialled.
type watchedConn struct {
	net.Conn
	w *hangWatch
	// readingSince is when the read under way began (sinceEpoch), 0 when
	// none is.
	readingSince atomic.Int64
	// inUse and patient are set while a request holds the connection.
	inUse, patient atomic.Bool
	// cut is set once the breaker cut the connection: it is not reused.
	cut atomic.Bool
}

func (c *watchedConn) Read(b []byte) (int, error) {
	c.readingSince.Store(sinceEpoch())
	n, err := c.Conn.Read(b)
	c.readingSince.Store(0)
	if err != nil && c.cut.Load() {
		err = &cutError{err: err}
	}
	return n, err
}

func (c *watchedConn) Write(b []byte) (int, error) {
	n, err := c.Conn.Write(b)
	if err != nil && c.cut.Load() {
		err = &cutError{err: err}
	}
	return n, err
}

func (c *watchedConn) Close() error {
	c.w.forget(c)
	return c.Conn.Close()
}

// watchedOf finds the watchedConn under a pool connection.
func watchedOf(conn *pgx.Conn) *watchedConn {
	nc := conn.PgConn().Conn()
	if t, ok := nc.(*tls.Conn); ok {
		nc = t.NetConn()
	}
	c, _ := nc.(*watchedConn)
	return c
}

// cutError is a read or write the breaker cut: a net.Error timeout (as
// pgconn expects of a deadline) that is ErrUnavailable.
type cutError struct{ err error }

func (e *cutError) Error() string   { return ErrUnavailable.Error() + ": " + e.err.Error() }
func (e *cutError) Timeout() bool   { return true }
func (e *cutError) Temporary() bool { return true }
func (e *cutError) Is(target error) bool {
	return target == ErrUnavailable
}
func (e *cutError) Unwrap() error { return e.err }
