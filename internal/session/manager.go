package session

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/alexedwards/scs/v2"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/problem"
)

// CookieName is the session cookie.
const CookieName = "nestegg_session"

// Config sets up a Manager.
type Config struct {
	IdleTimeout  time.Duration
	Lifetime     time.Duration
	CookieSecure bool
}

// Manager loads, saves and ends sessions.
type Manager struct {
	scs    *scs.SessionManager
	store  *Store
	pool   *pgxpool.Pool
	secure bool
}

// NewManager returns a session manager over store. scs keeps the absolute
// lifetime; the idle expiry is the store's (see Store.Slide), so that a read
// that changes nothing writes nothing.
func NewManager(cfg Config, store *Store, pool *pgxpool.Pool) *Manager {
	sm := scs.New()
	sm.Store = store
	sm.Codec = codec{}
	sm.Lifetime = cfg.Lifetime
	sm.HashTokenInStore = true
	sm.Cookie.Name = CookieName
	sm.Cookie.HttpOnly = true
	sm.Cookie.SameSite = http.SameSiteLaxMode
	sm.Cookie.Secure = cfg.CookieSecure
	sm.Cookie.Path = "/"
	return &Manager{scs: sm, store: store, pool: pool, secure: cfg.CookieSecure}
}

// Store returns the manager's store.
func (m *Manager) Store() *Store { return m.store }

// requestState is what the middleware and the handlers share about the
// request's session.
type requestState struct {
	incoming   string // the token the request came with
	fromCookie bool
	written    bool
	// started is set by Start, which saved the session itself.
	started       bool
	startedToken  string
	startedExpiry time.Time
}

type stateKey struct{}

func stateFrom(ctx context.Context) *requestState {
	st, _ := ctx.Value(stateKey{}).(*requestState)
	return st
}

// tokenFrom takes the token from Authorization: Bearer, else the cookie.
func tokenFrom(r *http.Request) (token string, fromCookie bool) {
	if h := r.Header.Get("Authorization"); h != "" {
		scheme, value, ok := strings.Cut(h, " ")
		if ok && strings.EqualFold(scheme, "Bearer") {
			return strings.TrimSpace(value), false
		}
	}
	if c, err := r.Cookie(CookieName); err == nil {
		return c.Value, true
	}
	return "", false
}

// Middleware loads the request's session and its member into the context and
// saves the session before the answer is written. Header clients get no
// Set-Cookie except at sign-in.
func (m *Manager) Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		token, fromCookie := tokenFrom(r)
		ctx, err := m.scs.Load(r.Context(), token)
		if err != nil {
			problem.Write(w, r, fmt.Errorf("load session: %w", err))
			return
		}
		st := &requestState{incoming: token, fromCookie: fromCookie}
		ctx = context.WithValue(ctx, stateKey{}, st)
		p, err := m.principal(ctx, token)
		if err != nil {
			noteClaim(ctx, m.scs.GetInt64(ctx, keyMemberID))
			problem.Write(w, r, err)
			return
		}
		if p != nil {
			ctx = WithPrincipal(ctx, p)
		}
		r = r.WithContext(ctx)
		sw := &sessionWriter{ResponseWriter: w, m: m, r: r, st: st}
		next.ServeHTTP(sw, r)
		sw.save()
	})
}

// principal returns the session's member as they are now, ending a session
// that PostgreSQL no longer confirms: ended, revoked, expired, or whose member
// is gone or suspended. It is the request's one PostgreSQL read.
func (m *Manager) principal(ctx context.Context, token string) (*Principal, error) {
	if m.scs.GetInt64(ctx, keyMemberID) == 0 {
		return nil, nil
	}
	hash := HashToken(token)
	row, err := db.New(m.pool).GetSessionPrincipal(ctx, db.GetSessionPrincipalParams{TokenHash: hash, Now: time.Now()})
	if errors.Is(err, pgx.ErrNoRows) {
		if err := m.scs.Destroy(ctx); err != nil {
			return nil, fmt.Errorf("end session: %w", err)
		}
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("load session member: %w", err)
	}
	p := Principal{
		MemberID: row.ID, Email: row.Email, Name: row.Name, Role: row.Role,
		Plan: row.Plan, PlanExpiresAt: row.PlanExpiresAt, MonthStartDay: int(row.MonthStartDay), Token: token,
	}
	// Keep the stored copy current (a rare write: only when the member
	// changed), so the session shows the plan the member has.
	if m.scs.GetString(ctx, keyName) != p.Name || m.scs.GetString(ctx, keyRole) != p.Role || m.scs.GetString(ctx, keyPlan) != p.Plan {
		m.put(ctx, p)
	}
	if _, err := m.store.Slide(ctx, hash, row.ExpiresAt, row.Deadline); err != nil {
		// The answer goes out; the next request slides it.
		slog.WarnContext(ctx, "slide session", "request_id", problem.RequestID(ctx), "error", err)
	}
	return &p, nil
}

func (m *Manager) put(ctx context.Context, p Principal) {
	m.scs.Put(ctx, keyMemberID, p.MemberID)
	m.scs.Put(ctx, keyName, p.Name)
	m.scs.Put(ctx, keyRole, p.Role)
	m.scs.Put(ctx, keyPlan, p.Plan)
}

// Start signs the member in on this request: a new token (no fixation), the
// member's values and the session epoch read with their credentials, saved
// in both stores. It returns the token for the body; the cookie is set when
// the answer is written.
func (m *Manager) Start(ctx context.Context, p Principal, epoch int64) (string, error) {
	if err := m.scs.RenewToken(ctx); err != nil {
		return "", fmt.Errorf("renew session token: %w", err)
	}
	m.put(ctx, p)
	m.scs.Put(ctx, keyEpoch, epoch)
	token, expiry, err := m.scs.Commit(asNewSession(ctx))
	if err != nil {
		return "", fmt.Errorf("save session: %w", err)
	}
	if st := stateFrom(ctx); st != nil {
		st.started, st.startedToken, st.startedExpiry = true, token, expiry
	}
	return token, nil
}

// End signs this request's session out of both stores.
func (m *Manager) End(ctx context.Context) error {
	if err := m.scs.Destroy(ctx); err != nil {
		return fmt.Errorf("end session: %w", err)
	}
	return nil
}

// KeepTx keeps the session of token valid across a revocation to epoch (the
// member's other sessions end, this one stays), in the revoking transaction.
func KeepTx(ctx context.Context, q *db.Queries, token string, epoch int64) error {
	if err := q.SetAuthSessionEpoch(ctx, db.SetAuthSessionEpochParams{TokenHash: HashToken(token), Epoch: epoch}); err != nil {
		return fmt.Errorf("keep session: %w", err)
	}
	return nil
}

// EndMemberSessions deletes the stored sessions of a member except the
// session of keepToken ("" for none).
func (m *Manager) EndMemberSessions(ctx context.Context, memberID int64, keepToken string) error {
	keep := ""
	if keepToken != "" {
		keep = HashToken(keepToken)
	}
	return m.store.EndMemberSessions(ctx, memberID, keep)
}

// sessionWriter saves the session just before the answer's header goes out,
// so a new or changed token can still be set as a cookie.
type sessionWriter struct {
	http.ResponseWriter
	m  *Manager
	r  *http.Request
	st *requestState
}

func (w *sessionWriter) WriteHeader(code int) {
	w.save()
	w.ResponseWriter.WriteHeader(code)
}

func (w *sessionWriter) Write(b []byte) (int, error) {
	w.save()
	return w.ResponseWriter.Write(b)
}

func (w *sessionWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (w *sessionWriter) save() {
	if w.st.written {
		return
	}
	w.st.written = true
	ctx := w.r.Context()
	switch w.m.scs.Status(ctx) {
	case scs.Destroyed:
		if w.st.fromCookie {
			w.setCookie("", time.Time{})
		}
	case scs.Modified:
		if w.st.started && w.m.scs.Token(ctx) == w.st.startedToken {
			w.setCookie(w.st.startedToken, w.st.startedExpiry)
			return
		}
		if w.m.scs.GetInt64(ctx, keyMemberID) == 0 {
			// A session without a member (unreadable, or never signed in)
			// is not worth keeping.
			return
		}
		token, expiry, err := w.m.scs.Commit(ctx)
		if err != nil {
			// The answer goes out; the session slides on the next request.
			slog.WarnContext(ctx, "save session", "request_id", problem.RequestID(ctx), "error", err)
			return
		}
		if token != w.st.incoming || w.st.fromCookie {
			w.setCookie(token, expiry)
		}
	}
}

func (w *sessionWriter) setCookie(token string, expiry time.Time) {
	c := &http.Cookie{
		Name: CookieName, Value: token, Path: "/",
		HttpOnly: true, Secure: w.m.secure, SameSite: http.SameSiteLaxMode,
	}
	if token == "" {
		c.MaxAge = -1
	} else {
		c.Expires = expiry.UTC()
		c.MaxAge = int(time.Until(expiry).Seconds())
	}
	w.Header().Add("Set-Cookie", c.String())
	w.Header().Add("Vary", "Cookie")
}
