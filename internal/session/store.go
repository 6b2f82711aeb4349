// Package session keeps sessions with alexedwards/scs: Redis is the fast
// store, and every session is mirrored into PostgreSQL (auth_session), which
// serves it whenever Redis misses or fails.
package session

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/alexedwards/scs/goredisstore"
	"github.com/alexedwards/scs/v2"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/redis/go-redis/v9"

	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/jobs"
)

// Store is an scs.CtxStore over Redis and PostgreSQL. The tokens it sees are
// already hashed by scs (HashTokenInStore), so neither copy holds a usable
// token.
type Store struct {
	fast   *goredisstore.RedisStore
	redis  *redis.Client
	prefix string
	pool   *pgxpool.Pool
	codec  scs.Codec

	// syncEvery is how often an unchanged session's sliding expiry is saved.
	syncEvery time.Duration
	// backoff is how long Redis is left alone after it fails, so an outage
	// costs one timeout now and then instead of one per request.
	backoff   time.Duration
	downUntil atomic.Int64

	// pendingDeletes are tokens ended while Redis could not be told; their
	// Redis copies must not be served when Redis returns.
	pendingDeletes sync.Map

	// localSaves stands in for the Redis markers while Redis is away, so an
	// outage does not turn every authenticated read into a PostgreSQL write.
	localSaves recentSaves
}

// recentSaves remembers, per replica, which session data was saved when.
// It is bounded: forgetting only costs an extra write.
type recentSaves struct {
	mu sync.Mutex
	at map[string]time.Time
}

const maxRecentSaves = 100_000

// claim reports whether key has not been saved within every, and if so
// records it as saved now.
func (r *recentSaves) claim(key string, every time.Duration) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	now := time.Now()
	if t, ok := r.at[key]; ok && now.Sub(t) < every {
		return false
	}
	if r.at == nil || len(r.at) >= maxRecentSaves {
		r.at = make(map[string]time.Time)
	}
	r.at[key] = now
	return true
}

func (r *recentSaves) forget(key string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.at, key)
}

// StoreConfig tunes a Store; zero values take the defaults.
type StoreConfig struct {
	Prefix    string
	SyncEvery time.Duration
	Backoff   time.Duration
}

// NewStore returns the tiered store.
func NewStore(pool *pgxpool.Pool, rdb *redis.Client, cfg StoreConfig) *Store {
	if cfg.SyncEvery == 0 {
		cfg.SyncEvery = 5 * time.Minute
	}
	if cfg.Backoff == 0 {
		cfg.Backoff = 2 * time.Second
	}
	prefix := cfg.Prefix + "session:"
	return &Store{
		fast: goredisstore.NewWithPrefix(rdb, prefix), redis: rdb, prefix: prefix,
		pool: pool, codec: scs.GobCodec{}, syncEvery: cfg.SyncEvery, backoff: cfg.Backoff,
	}
}

func (s *Store) redisUp() bool { return time.Now().UnixNano() >= s.downUntil.Load() }

func (s *Store) redisFailed(op string, err error) {
	if s.redisUp() {
		slog.Warn("redis session store failed; serving sessions from PostgreSQL", "op", op, "error", err)
	}
	s.downUntil.Store(time.Now().Add(s.backoff).UnixNano())
}

// FindCtx reads Redis first; on a miss or an error it reads PostgreSQL and,
// when the session is found there, writes it back to Redis.
func (s *Store) FindCtx(ctx context.Context, hash string) ([]byte, bool, error) {
	if _, ended := s.pendingDeletes.Load(hash); ended {
		s.retryDelete(ctx, hash)
		return nil, false, nil
	}
	if s.redisUp() {
		b, found, err := s.fast.FindCtx(ctx, hash)
		if err == nil && found {
			return b, true, nil
		}
		if err != nil {
			s.redisFailed("find", err)
		}
	}
	row, err := db.New(s.pool).GetAuthSession(ctx, db.GetAuthSessionParams{TokenHash: hash, Now: time.Now()})
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("find session: %w", err)
	}
	if s.redisUp() {
		if err := s.fast.CommitCtx(ctx, hash, row.Data, row.ExpiresAt); err != nil {
			s.redisFailed("write back", err)
		}
	}
	return row.Data, true, nil
}

// CommitCtx saves a session. With an idle timeout scs commits on every
// request only to slide the expiry; writing both stores each time would put a
// Redis write and a PostgreSQL fsync on every authenticated read and cap reads
// at the insert rate. So a session is saved when its data changes, and
// otherwise at most once per syncEvery: a marker keyed by the data's digest,
// set in Redis with that lifetime, says it was saved lately. The sliding
// expiry therefore moves in steps of syncEvery, which shortens a 30-day idle
// timeout by at most that much.
func (s *Store) CommitCtx(ctx context.Context, hash string, b []byte, expiry time.Time) error {
	digest := sha256.Sum256(b)
	key := hash + ":" + hex.EncodeToString(digest[:8])
	marker := ""
	if s.redisUp() {
		fresh, err := s.redis.SetNX(ctx, s.prefix+"synced:"+key, 1, s.syncEvery).Result()
		switch {
		case err != nil:
			s.redisFailed("sync marker", err)
		case !fresh:
			return nil
		default:
			marker = s.prefix + "synced:" + key
			if err := s.fast.CommitCtx(ctx, hash, b, expiry); err != nil {
				s.redisFailed("commit", err)
			}
		}
	}
	if marker == "" && !s.localSaves.claim(key, s.syncEvery) {
		return nil
	}
	err := db.New(s.pool).UpsertAuthSession(ctx, db.UpsertAuthSessionParams{
		TokenHash: hash, MemberID: s.memberOf(b), Data: b, ExpiresAt: expiry,
	})
	if err != nil {
		if marker != "" {
			s.redis.Del(ctx, marker)
		} else {
			s.localSaves.forget(key)
		}
		return fmt.Errorf("save session: %w", err)
	}
	return nil
}

// DeleteCtx ends a session: the durable copy first (it must go), then Redis.
func (s *Store) DeleteCtx(ctx context.Context, hash string) error {
	if err := db.New(s.pool).DeleteAuthSession(ctx, hash); err != nil {
		return fmt.Errorf("delete session: %w", err)
	}
	s.deleteFast(ctx, hash)
	return nil
}

func (s *Store) deleteFast(ctx context.Context, hash string) {
	if !s.redisUp() {
		s.pendingDeletes.Store(hash, struct{}{})
		return
	}
	if err := s.fast.DeleteCtx(ctx, hash); err != nil {
		s.redisFailed("delete", err)
		s.pendingDeletes.Store(hash, struct{}{})
		return
	}
	s.pendingDeletes.Delete(hash)
}

func (s *Store) retryDelete(ctx context.Context, hash string) {
	if s.redisUp() {
		s.deleteFast(ctx, hash)
	}
}

// EndMemberSessions deletes every session of the member except the one whose
// token hashes to keepHash ("" keeps none), from both stores.
func (s *Store) EndMemberSessions(ctx context.Context, memberID int64, keepHash string) error {
	hashes, err := db.New(s.pool).DeleteMemberAuthSessions(ctx, db.DeleteMemberAuthSessionsParams{
		MemberID: &memberID, KeepTokenHash: keepHash,
	})
	if err != nil {
		return fmt.Errorf("end sessions of member %d: %w", memberID, err)
	}
	for _, h := range hashes {
		s.deleteFast(ctx, h)
	}
	return nil
}

// DeleteExpired removes durable sessions that expired by now.
func (s *Store) DeleteExpired(ctx context.Context, now time.Time) (int64, error) {
	n, err := db.New(s.pool).DeleteExpiredAuthSessions(ctx, now)
	if err != nil {
		return 0, fmt.Errorf("delete expired sessions: %w", err)
	}
	return n, nil
}

// CleanupJob deletes durable sessions that have expired; Redis expires its
// copies itself.
func (s *Store) CleanupJob() jobs.Job {
	return jobs.Job{
		Name:  "session-cleanup",
		Every: 24 * time.Hour,
		Run: func(ctx context.Context, now time.Time) error {
			n, err := s.DeleteExpired(ctx, now)
			if n > 0 {
				slog.InfoContext(ctx, "deleted expired sessions", "count", n)
			}
			return err
		},
	}
}

// memberOf reads the member id out of encoded session data, for the
// auth_session.member_id column.
func (s *Store) memberOf(b []byte) *int64 {
	_, values, err := s.codec.Decode(b)
	if err != nil {
		return nil
	}
	if id, ok := values[keyMemberID].(int64); ok && id > 0 {
		return &id
	}
	return nil
}

// HashToken is how scs names a token in the store (HashTokenInStore).
func HashToken(token string) string {
	h := sha256.Sum256([]byte(token))
	return base64.RawURLEncoding.EncodeToString(h[:])
}

// The context-free methods complete scs.Store; scs calls the Ctx ones.

func (s *Store) Find(hash string) ([]byte, bool, error) { return s.FindCtx(context.Background(), hash) }

func (s *Store) Commit(hash string, b []byte, expiry time.Time) error {
	return s.CommitCtx(context.Background(), hash, b, expiry)
}

func (s *Store) Delete(hash string) error { return s.DeleteCtx(context.Background(), hash) }

var _ scs.CtxStore = (*Store)(nil)
