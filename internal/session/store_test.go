package session

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/redis/go-redis/v9"

	"github.com/nestegg/nestegg/internal/dbtest"
)

type storeEnv struct {
	store  *Store
	pool   *pgxpool.Pool
	redis  *redis.Client
	prefix string
	member int64
}

func newStoreEnv(t *testing.T) storeEnv {
	t.Helper()
	pool := dbtest.NewPool(t)
	rdb, prefix := dbtest.NewRedis(t)
	return storeEnv{
		store: NewStore(pool, rdb, StoreConfig{Prefix: prefix, IdleTimeout: time.Hour}),
		pool:  pool, redis: rdb, prefix: prefix + "session:", member: newMember(t, pool, "s"),
	}
}

func newMember(t *testing.T, pool *pgxpool.Pool, name string) int64 {
	t.Helper()
	var id int64
	if err := pool.QueryRow(context.Background(), "INSERT INTO member (name) VALUES ($1) RETURNING id", name).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id
}

// durable returns the auth_session row's expiry and data, or the zero time.
func (e storeEnv) durable(t *testing.T, hash string) (time.Time, []byte) {
	t.Helper()
	var exp time.Time
	var data []byte
	err := e.pool.QueryRow(context.Background(), "SELECT expires_at, data FROM auth_session WHERE token_hash = $1", hash).Scan(&exp, &data)
	if err != nil {
		return time.Time{}, nil
	}
	return exp, data
}

func encode(t *testing.T, memberID int64, name string) []byte {
	t.Helper()
	b, err := codec{}.Encode(time.Now().Add(24*time.Hour), map[string]any{keyMemberID: memberID, keyName: name, keyEpoch: int64(0)})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// start stores a new session, as a sign-in does.
func (e storeEnv) start(t *testing.T, hash string, deadline time.Time) []byte {
	t.Helper()
	data := encode(t, e.member, hash)
	if err := e.store.CommitCtx(asNewSession(context.Background()), hash, data, deadline); err != nil {
		t.Fatal(err)
	}
	return data
}

func TestNewSessionWritesBothAndFindPrefersRedis(t *testing.T) {
	t.Parallel()
	e := newStoreEnv(t)
	ctx := context.Background()
	deadline := time.Now().Add(24 * time.Hour)
	data := e.start(t, "h1", deadline)
	if got, _ := e.redis.Get(ctx, e.prefix+"h1").Bytes(); string(got) != string(data) {
		t.Fatal("Redis copy missing")
	}
	// The durable expiry is the idle one (an hour here), not the deadline.
	if exp, got := e.durable(t, "h1"); exp.After(time.Now().Add(time.Hour)) || exp.Before(time.Now().Add(59*time.Minute)) || string(got) != string(data) {
		t.Fatalf("durable copy expires %v", exp)
	}
	// Redis answers first: change only the durable copy and see Redis's value.
	if _, err := e.pool.Exec(ctx, "UPDATE auth_session SET data = 'stale' WHERE token_hash = 'h1'"); err != nil {
		t.Fatal(err)
	}
	got, found, err := e.store.FindCtx(ctx, "h1")
	if err != nil || !found || string(got) != string(data) {
		t.Fatalf("find: %v %v", found, err)
	}
}

func TestRedisMissFallsBackToPostgresAndWritesBack(t *testing.T) {
	t.Parallel()
	e := newStoreEnv(t)
	ctx := context.Background()
	data := e.start(t, "h2", time.Now().Add(24*time.Hour))
	e.redis.Del(ctx, e.prefix+"h2")
	got, found, err := e.store.FindCtx(ctx, "h2")
	if err != nil || !found || string(got) != string(data) {
		t.Fatalf("fallback find: found=%v err=%v", found, err)
	}
	if back, _ := e.redis.Get(ctx, e.prefix+"h2").Bytes(); string(back) != string(data) {
		t.Fatal("session not written back to Redis")
	}
	if ttl := e.redis.PTTL(ctx, e.prefix+"h2").Val(); ttl <= 0 || ttl > time.Hour {
		t.Fatalf("written-back TTL %v, want the durable expiry", ttl)
	}
}

func TestExpiredDurableSessionIsNotRestored(t *testing.T) {
	t.Parallel()
	e := newStoreEnv(t)
	ctx := context.Background()
	e.start(t, "h3", time.Now().Add(24*time.Hour))
	e.redis.Del(ctx, e.prefix+"h3")
	if _, err := e.pool.Exec(ctx, "UPDATE auth_session SET expires_at = now() - interval '1 second'"); err != nil {
		t.Fatal(err)
	}
	if _, found, err := e.store.FindCtx(ctx, "h3"); err != nil || found {
		t.Fatalf("expired session found=%v err=%v", found, err)
	}
}

// Only a sign-in inserts: a save of a session that was ended meanwhile (an
// in-flight request re-saving it) writes neither store.
func TestSaveOfAnEndedSessionDoesNotBringItBack(t *testing.T) {
	t.Parallel()
	e := newStoreEnv(t)
	ctx := context.Background()
	data := e.start(t, "h4", time.Now().Add(24*time.Hour))
	if err := e.store.DeleteCtx(ctx, "h4"); err != nil {
		t.Fatal(err)
	}
	if err := e.store.CommitCtx(ctx, "h4", data, time.Now().Add(24*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if exp, _ := e.durable(t, "h4"); !exp.IsZero() {
		t.Fatal("a save brought the ended session back to PostgreSQL")
	}
	if e.redis.Exists(ctx, e.prefix+"h4").Val() != 0 {
		t.Fatal("a save brought the ended session back to Redis")
	}
}

func TestDeleteRemovesBothCopies(t *testing.T) {
	t.Parallel()
	e := newStoreEnv(t)
	ctx := context.Background()
	e.start(t, "h6", time.Now().Add(24*time.Hour))
	if err := e.store.DeleteCtx(ctx, "h6"); err != nil {
		t.Fatal(err)
	}
	if e.redis.Exists(ctx, e.prefix+"h6").Val() != 0 {
		t.Fatal("Redis copy left behind")
	}
	if exp, _ := e.durable(t, "h6"); !exp.IsZero() {
		t.Fatal("durable copy left behind")
	}
	if _, found, _ := e.store.FindCtx(ctx, "h6"); found {
		t.Fatal("deleted session found")
	}
}

func TestDeleteExpiredAndEndMemberSessions(t *testing.T) {
	t.Parallel()
	e := newStoreEnv(t)
	ctx := context.Background()
	for _, h := range []string{"keep", "end1", "end2", "old"} {
		e.start(t, h, time.Now().Add(24*time.Hour))
	}
	if _, err := e.pool.Exec(ctx, "UPDATE auth_session SET expires_at = now() + interval '1 minute' WHERE token_hash = 'old'"); err != nil {
		t.Fatal(err)
	}
	if err := e.store.EndMemberSessions(ctx, e.member, "keep"); err != nil {
		t.Fatal(err)
	}
	for h, want := range map[string]bool{"keep": true, "end1": false, "end2": false, "old": false} {
		if _, found, _ := e.store.FindCtx(ctx, h); found != want {
			t.Errorf("%s found=%v, want %v", h, found, want)
		}
	}
	e.start(t, "old2", time.Now().Add(24*time.Hour))
	if _, err := e.pool.Exec(ctx, "UPDATE auth_session SET expires_at = now() + interval '1 minute' WHERE token_hash = 'old2'"); err != nil {
		t.Fatal(err)
	}
	n, err := e.store.DeleteExpired(ctx, time.Now().Add(30*time.Minute))
	if err != nil || n != 1 {
		t.Fatalf("deleted %d expired (%v), want 1", n, err)
	}
	if exp, _ := e.durable(t, "keep"); exp.IsZero() {
		t.Fatal("live session deleted")
	}
}

// A caller that hangs up mid-request cancels its context: the Redis call
// fails, but that is no Redis fault and must not send every other request
// to PostgreSQL.
func TestCancelledCallerIsNotARedisFault(t *testing.T) {
	t.Parallel()
	e := newStoreEnv(t)
	e.start(t, "h7", time.Now().Add(24*time.Hour))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, _, _ = e.store.FindCtx(ctx, "h7")
	if !e.store.breaker.allow() {
		t.Fatal("a cancelled caller opened the Redis breaker")
	}
}

// With Redis dead, the first failure opens the breaker: the requests that
// follow go straight to PostgreSQL (they do not wait on Redis), and one probe
// per back-off finds Redis again when it returns.
func TestDeadRedisIsProbedOncePerBackoff(t *testing.T) {
	t.Parallel()
	pool := dbtest.NewPool(t)
	r := dbtest.StartRedis(t)
	store := NewStore(pool, r.Client(), StoreConfig{Prefix: "t:", Backoff: time.Hour})
	e := storeEnv{store: store, pool: pool, member: newMember(t, pool, "d")}
	ctx := context.Background()
	data := e.start(t, "h8", time.Now().Add(24*time.Hour))
	r.Kill()
	for range 20 {
		got, found, err := store.FindCtx(ctx, "h8")
		if err != nil || !found || string(got) != string(data) {
			t.Fatalf("find with Redis dead: %v %v", found, err)
		}
	}
	if store.breaker.allow() {
		t.Fatal("the breaker let a request through to a dead Redis within the back-off")
	}
	// The back-off ends: exactly one request probes.
	store.breaker.openUntil.Store(time.Now().Add(-time.Millisecond).UnixNano())
	if !store.breaker.allow() || store.breaker.allow() {
		t.Fatal("half-open breaker must let exactly one probe through")
	}
	store.breaker.abandoned()
	r.Start()
	dbtest.Eventually(t, "Redis answers again", func() bool { return r.Client().Ping(ctx).Err() == nil })
	if _, _, err := store.FindCtx(ctx, "h8"); err != nil {
		t.Fatal(err)
	}
	if !store.breaker.allow() || !store.breaker.allow() {
		t.Fatal("a successful probe did not close the breaker")
	}
}

func TestBreaker(t *testing.T) {
	t.Parallel()
	b := newBreaker(time.Hour)
	if !b.allow() {
		t.Fatal("a closed breaker refused")
	}
	if !b.failed() {
		t.Fatal("the first failure is the start of an outage")
	}
	if b.failed() {
		t.Fatal("a second failure is not a new outage")
	}
	if b.allow() {
		t.Fatal("an open breaker allowed a call")
	}
	b.succeeded()
	if !b.allow() {
		t.Fatal("a success did not close the breaker")
	}
}
