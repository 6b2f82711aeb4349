// Package session keeps sessions with alexedwards/scs. PostgreSQL
// (auth_session) is the authority on which sessions exist; Redis holds a copy
// of each session's data so that loading a session is one Redis GET, and
// every authenticated request confirms the session in the same PostgreSQL
// read that loads its member. A session deleted in PostgreSQL is over on every
// replica, whatever a Redis that missed the delete still holds.
package session

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
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
	fast    *goredisstore.RedisStore
	redis   *redis.Client
	prefix  string
	pool    *pgxpool.Pool
	idle    time.Duration
	breaker *breaker
}

// StoreConfig tunes a Store; zero values take the defaults.
type StoreConfig struct {
	Prefix string
	// IdleTimeout ends a session unused this long (its expires_at slides).
	IdleTimeout time.Duration
	// Backoff is how long a failed Redis is left alone before one request
	// probes it again.
	Backoff time.Duration
}

// KeyPrefix is what a session's Redis key starts with under the service's
// prefix; the token's hash (HashToken) follows it.
func KeyPrefix(prefix string) string { return prefix + "session:" }

// NewStore returns the tiered store.
func NewStore(pool *pgxpool.Pool, rdb *redis.Client, cfg StoreConfig) *Store {
	if cfg.Backoff == 0 {
		cfg.Backoff = 2 * time.Second
	}
	if cfg.IdleTimeout == 0 {
		cfg.IdleTimeout = 30 * 24 * time.Hour
	}
	prefix := KeyPrefix(cfg.Prefix)
	return &Store{
		fast: goredisstore.NewWithPrefix(rdb, prefix), redis: rdb, prefix: prefix,
		pool: pool, idle: cfg.IdleTimeout, breaker: newBreaker(cfg.Backoff),
	}
}

// redisCall runs f against Redis when the breaker lets it, and reports
// whether it ran and succeeded. A failure opens the breaker, unless the
// caller's own context ended: a client hanging up is not a Redis fault.
func (s *Store) redisCall(ctx context.Context, op string, f func() error) bool {
	if !s.breaker.allow() {
		return false
	}
	err := f()
	if err == nil {
		s.breaker.succeeded()
		return true
	}
	if ctx.Err() != nil {
		s.breaker.abandoned()
		return false
	}
	if s.breaker.failed() {
		slog.Warn("redis session store failed; serving sessions from PostgreSQL", "op", op, "error", err)
	}
	return false
}

// FindCtx reads Redis first; on a miss or an error it reads PostgreSQL and,
// when the session is found there, writes it back to Redis.
func (s *Store) FindCtx(ctx context.Context, hash string) ([]byte, bool, error) {
	var (
		b     []byte
		found bool
	)
	if s.redisCall(ctx, "find", func() (err error) {
		b, found, err = s.fast.FindCtx(ctx, hash)
		return err
	}) && found {
		return b, true, nil
	}
	row, err := db.New(s.pool).GetAuthSession(ctx, db.GetAuthSessionParams{TokenHash: hash, Now: time.Now()})
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("find session: %w", err)
	}
	s.redisCall(ctx, "write back", func() error { return s.fast.CommitCtx(ctx, hash, row.Data, row.ExpiresAt) })
	return row.Data, true, nil
}

type newSessionKey struct{}

// asNewSession marks ctx so that CommitCtx inserts the session: only a
// sign-in creates a session row, so no later save can bring back a session
// that was ended meanwhile.
func asNewSession(ctx context.Context) context.Context {
	return context.WithValue(ctx, newSessionKey{}, true)
}

// CommitCtx saves a session whose values changed (scs calls it only then:
// the idle expiry slides through Slide, without rewriting the data). A new
// session is inserted; an existing one is updated only while its row still
// exists, and Redis follows PostgreSQL.
func (s *Store) CommitCtx(ctx context.Context, hash string, b []byte, deadline time.Time) error {
	v, err := decodeValues(b)
	if err != nil {
		return fmt.Errorf("save session: %w", err)
	}
	q := db.New(s.pool)
	expires := minTime(time.Now().Add(s.idle), deadline)
	if isNew, _ := ctx.Value(newSessionKey{}).(bool); isNew {
		if v.MemberID == 0 {
			return errors.New("save session: a session without a member")
		}
		err := q.InsertAuthSession(ctx, db.InsertAuthSessionParams{
			TokenHash: hash, MemberID: v.MemberID, Epoch: v.Epoch, Data: b, ExpiresAt: expires, Deadline: deadline,
		})
		if err != nil {
			return fmt.Errorf("save session: %w", err)
		}
	} else {
		n, err := q.UpdateAuthSessionData(ctx, db.UpdateAuthSessionDataParams{TokenHash: hash, Data: b})
		if err != nil {
			return fmt.Errorf("save session: %w", err)
		}
		if n == 0 {
			return nil
		}
	}
	s.redisCall(ctx, "commit", func() error { return s.fast.CommitCtx(ctx, hash, b, expires) })
	return nil
}

// slideStep is how far behind its due idle expiry a session may fall before
// it is moved: reads do not write, and a 30-day idle timeout ends at most
// this much early.
const slideStep = 5 * time.Minute

// Slide moves the idle expiry of a session that is at least one step behind,
// and reports whether this call wrote it. Of several requests in one step,
// the conditional update lets exactly one write, and only that one touches
// Redis.
func (s *Store) Slide(ctx context.Context, hash string, expiresAt, deadline time.Time) (bool, error) {
	next := minTime(time.Now().Add(s.idle), deadline)
	if next.Sub(expiresAt) < slideStep {
		return false, nil
	}
	n, err := db.New(s.pool).SlideAuthSession(ctx, db.SlideAuthSessionParams{
		TokenHash: hash, ExpiresAt: next, Behind: next.Add(-slideStep),
	})
	if err != nil {
		return false, fmt.Errorf("slide session: %w", err)
	}
	if n == 0 {
		return false, nil
	}
	s.redisCall(ctx, "slide", func() error { return s.redis.PExpireAt(ctx, s.prefix+hash, next).Err() })
	return true, nil
}

// DeleteCtx ends a session: the durable copy (the authority) first, then
// Redis. Should Redis miss the delete, the stale copy is refused on use, as
// no auth_session row confirms it.
func (s *Store) DeleteCtx(ctx context.Context, hash string) error {
	if err := db.New(s.pool).DeleteAuthSession(ctx, hash); err != nil {
		return fmt.Errorf("delete session: %w", err)
	}
	s.deleteFast(ctx, hash)
	return nil
}

func (s *Store) deleteFast(ctx context.Context, hashes ...string) {
	if len(hashes) == 0 {
		return
	}
	keys := make([]string, len(hashes))
	for i, h := range hashes {
		keys[i] = s.prefix + h
	}
	s.redisCall(ctx, "delete", func() error { return s.redis.Del(ctx, keys...).Err() })
}

// EndMemberSessions deletes every session of the member except the one whose
// token hashes to keepHash ("" keeps none), from both stores.
func (s *Store) EndMemberSessions(ctx context.Context, memberID int64, keepHash string) error {
	hashes, err := db.New(s.pool).DeleteMemberAuthSessions(ctx, db.DeleteMemberAuthSessionsParams{
		MemberID: memberID, KeepTokenHash: keepHash,
	})
	if err != nil {
		return fmt.Errorf("end sessions of member %d: %w", memberID, err)
	}
	s.deleteFast(ctx, hashes...)
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

// HashToken is how scs names a token in the store (HashTokenInStore).
func HashToken(token string) string {
	h := sha256.Sum256([]byte(token))
	return base64.RawURLEncoding.EncodeToString(h[:])
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// The context-free methods complete scs.Store; scs calls the Ctx ones.

func (s *Store) Find(hash string) ([]byte, bool, error) { return s.FindCtx(context.Background(), hash) }

func (s *Store) Commit(hash string, b []byte, expiry time.Time) error {
	return s.CommitCtx(context.Background(), hash, b, expiry)
}

func (s *Store) Delete(hash string) error { return s.DeleteCtx(context.Background(), hash) }

var _ scs.CtxStore = (*Store)(nil)
