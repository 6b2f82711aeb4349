package session_test

import (
	"context"
	"testing"
	"time"

	"github.com/alexedwards/scs/v2"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/redis/go-redis/v9"

	"github.com/nestegg/nestegg/internal/dbtest"
	"github.com/nestegg/nestegg/internal/session"
)

type storeEnv struct {
	store  *session.Store
	pool   *pgxpool.Pool
	redis  *redis.Client
	prefix string
}

func newStoreEnv(t *testing.T) storeEnv {
	t.Helper()
	pool := dbtest.NewPool(t)
	rdb, prefix := dbtest.NewRedis(t)
	return storeEnv{
		store: session.NewStore(pool, rdb, session.StoreConfig{Prefix: prefix}),
		pool:  pool, redis: rdb, prefix: prefix,
	}
}

func (e storeEnv) redisKey(hash string) string { return e.prefix + "session:" + hash }

// durable returns the auth_session row's expiry, or the zero time.
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

func encode(t *testing.T, memberID int64, extra string) []byte {
	t.Helper()
	b, err := scs.GobCodec{}.Encode(time.Now().Add(time.Hour), map[string]any{"memberID": memberID, "x": extra})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestCommitWritesBothAndFindPrefersRedis(t *testing.T) {
	t.Parallel()
	e := newStoreEnv(t)
	ctx := context.Background()
	data := encode(t, 0, "a")
	exp := time.Now().Add(time.Hour).Truncate(time.Microsecond)
	if err := e.store.CommitCtx(ctx, "h1", data, exp); err != nil {
		t.Fatal(err)
	}
	if got, _ := e.redis.Get(ctx, e.redisKey("h1")).Bytes(); string(got) != string(data) {
		t.Fatal("Redis copy missing")
	}
	if gotExp, gotData := e.durable(t, "h1"); !gotExp.Equal(exp) || string(gotData) != string(data) {
		t.Fatalf("durable copy %v, want expiry %v", gotExp, exp)
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
	data := encode(t, 0, "b")
	if err := e.store.CommitCtx(ctx, "h2", data, time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	e.redis.Del(ctx, e.redisKey("h2"))
	got, found, err := e.store.FindCtx(ctx, "h2")
	if err != nil || !found || string(got) != string(data) {
		t.Fatalf("fallback find: found=%v err=%v", found, err)
	}
	if back, _ := e.redis.Get(ctx, e.redisKey("h2")).Bytes(); string(back) != string(data) {
		t.Fatal("session not written back to Redis")
	}
	if ttl := e.redis.PTTL(ctx, e.redisKey("h2")).Val(); ttl <= 0 || ttl > time.Hour {
		t.Fatalf("written-back TTL %v, want the durable expiry", ttl)
	}
}

func TestExpiredDurableSessionIsNotRestored(t *testing.T) {
	t.Parallel()
	e := newStoreEnv(t)
	ctx := context.Background()
	if err := e.store.CommitCtx(ctx, "h3", encode(t, 0, "c"), time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	e.redis.Del(ctx, e.redisKey("h3"))
	if _, err := e.pool.Exec(ctx, "UPDATE auth_session SET expires_at = now() - interval '1 second'"); err != nil {
		t.Fatal(err)
	}
	if _, found, err := e.store.FindCtx(ctx, "h3"); err != nil || found {
		t.Fatalf("expired session found=%v err=%v", found, err)
	}
}

// Sliding the expiry must not write on every request: a session is saved when
// its data changes, and otherwise once per sync period.
func TestSlidingCommitsWritePostgresOnlyWhenNeeded(t *testing.T) {
	t.Parallel()
	e := newStoreEnv(t)
	ctx := context.Background()
	data := encode(t, 0, "d")
	first := time.Now().Add(time.Hour).Truncate(time.Microsecond)
	if err := e.store.CommitCtx(ctx, "h4", data, first); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 5; i++ {
		if err := e.store.CommitCtx(ctx, "h4", data, first.Add(time.Duration(i)*time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	if exp, _ := e.durable(t, "h4"); !exp.Equal(first) {
		t.Fatalf("durable expiry %v moved on an unchanged session; want %v (no write)", exp, first)
	}
	if ttl := e.redis.PTTL(ctx, e.redisKey("h4")).Val(); ttl > time.Hour+time.Minute {
		t.Fatalf("Redis TTL %v moved on an unchanged session (no write expected)", ttl)
	}
	// Changed data is written at once.
	changed := encode(t, 0, "d2")
	later := first.Add(10 * time.Minute)
	if err := e.store.CommitCtx(ctx, "h4", changed, later); err != nil {
		t.Fatal(err)
	}
	if exp, got := e.durable(t, "h4"); !exp.Equal(later) || string(got) != string(changed) {
		t.Fatalf("changed session not written: %v", exp)
	}
	// Once the sync period has passed (its marker expired), the slide is written.
	keys, _ := e.redis.Keys(ctx, e.prefix+"session:synced:h4:*").Result()
	if len(keys) == 0 {
		t.Fatal("no sync marker in Redis")
	}
	e.redis.Del(ctx, keys...)
	latest := first.Add(20 * time.Minute)
	if err := e.store.CommitCtx(ctx, "h4", changed, latest); err != nil {
		t.Fatal(err)
	}
	if exp, _ := e.durable(t, "h4"); !exp.Equal(latest) {
		t.Fatalf("durable expiry %v not refreshed after the sync period; want %v", exp, latest)
	}
	if ttl := e.redis.PTTL(ctx, e.redisKey("h4")).Val(); ttl < time.Hour+19*time.Minute {
		t.Fatalf("Redis TTL %v did not slide after the sync period", ttl)
	}
}

func TestDeleteRemovesBothCopies(t *testing.T) {
	t.Parallel()
	e := newStoreEnv(t)
	ctx := context.Background()
	if err := e.store.CommitCtx(ctx, "h5", encode(t, 0, "e"), time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := e.store.DeleteCtx(ctx, "h5"); err != nil {
		t.Fatal(err)
	}
	if n := e.redis.Exists(ctx, e.redisKey("h5")).Val(); n != 0 {
		t.Fatal("Redis copy left behind")
	}
	if exp, _ := e.durable(t, "h5"); !exp.IsZero() {
		t.Fatal("durable copy left behind")
	}
	if _, found, _ := e.store.FindCtx(ctx, "h5"); found {
		t.Fatal("deleted session found")
	}
}

func TestDeleteExpiredAndEndMemberSessions(t *testing.T) {
	t.Parallel()
	e := newStoreEnv(t)
	ctx := context.Background()
	var memberID int64
	if err := e.pool.QueryRow(ctx, "INSERT INTO member (email, name) VALUES ('s@nestegg.test', 's') RETURNING id").Scan(&memberID); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	for _, h := range []string{"keep", "end1", "end2"} {
		if err := e.store.CommitCtx(ctx, h, encode(t, memberID, h), now.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.store.CommitCtx(ctx, "old", encode(t, 0, "old"), now.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := e.store.EndMemberSessions(ctx, memberID, "keep"); err != nil {
		t.Fatal(err)
	}
	for h, want := range map[string]bool{"keep": true, "end1": false, "end2": false, "old": true} {
		if _, found, _ := e.store.FindCtx(ctx, h); found != want {
			t.Errorf("%s found=%v, want %v", h, found, want)
		}
	}
	n, err := e.store.DeleteExpired(ctx, now.Add(30*time.Minute))
	if err != nil || n != 1 {
		t.Fatalf("deleted %d expired (%v), want 1", n, err)
	}
	if exp, _ := e.durable(t, "old"); !exp.IsZero() {
		t.Fatal("expired session still stored")
	}
	if exp, _ := e.durable(t, "keep"); exp.IsZero() {
		t.Fatal("live session deleted")
	}
}

// A session ended while Redis could not be told must not come back from
// Redis's copy when Redis answers again.
func TestSessionEndedDuringOutageStaysEnded(t *testing.T) {
	t.Parallel()
	pool := dbtest.NewPool(t)
	r := dbtest.StartRedis(t)
	rdb := r.Client()
	store := session.NewStore(pool, rdb, session.StoreConfig{Prefix: "t:", Backoff: time.Millisecond})
	ctx := context.Background()
	data := encode(t, 0, "f")
	if err := store.CommitCtx(ctx, "h6", data, time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	r.Freeze()
	if err := store.DeleteCtx(ctx, "h6"); err != nil {
		t.Fatalf("delete during outage: %v", err)
	}
	r.Thaw()
	// The delete may or may not have reached Redis (a frozen server runs its
	// backlog when thawed; a partition drops it). Take the worse case: Redis
	// still holds its copy ...
	waitFor(t, func() bool { return rdb.Set(ctx, "t:session:h6", data, time.Hour).Err() == nil })
	// ... but the session is over, and the stale copy is removed.
	if _, found, err := store.FindCtx(ctx, "h6"); err != nil || found {
		t.Fatalf("ended session found=%v err=%v", found, err)
	}
	waitFor(t, func() bool {
		_, found, _ := store.FindCtx(ctx, "h6")
		return !found && rdb.Exists(ctx, "t:session:h6").Val() == 0
	})
}

// waitFor polls cond, failing the test after ten seconds.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met within 10s")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// While Redis is away its markers are too; a replica-local record keeps an
// outage from turning every authenticated read into a PostgreSQL write.
func TestSlidingCommitsDuringAnOutageAreThrottledToo(t *testing.T) {
	t.Parallel()
	pool := dbtest.NewPool(t)
	r := dbtest.StartRedis(t)
	store := session.NewStore(pool, r.Client(), session.StoreConfig{Prefix: "t:"})
	e := storeEnv{store: store, pool: pool}
	ctx := context.Background()
	r.Kill()
	data := encode(t, 0, "g")
	first := time.Now().Add(time.Hour).Truncate(time.Microsecond)
	for i := range 5 {
		if err := store.CommitCtx(ctx, "h7", data, first.Add(time.Duration(i)*time.Minute)); err != nil {
			t.Fatalf("commit during outage: %v", err)
		}
	}
	if exp, _ := e.durable(t, "h7"); !exp.Equal(first) {
		t.Fatalf("durable expiry %v; want the first save only (%v)", exp, first)
	}
	changed := encode(t, 0, "g2")
	if err := store.CommitCtx(ctx, "h7", changed, first.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if exp, got := e.durable(t, "h7"); !exp.Equal(first.Add(time.Hour)) || string(got) != string(changed) {
		t.Fatal("changed session not saved during the outage")
	}
}
