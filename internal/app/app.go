// Package app wires the service together from its configuration: database,
// Redis, sessions, handlers and jobs. The binary and the API tests both build
// the service here, so tests exercise the production wiring.
package app

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"time"

	"github.com/exaring/otelpgx"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/redis/go-redis/v9"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"

	"github.com/nestegg/nestegg/internal/admin"
	"github.com/nestegg/nestegg/internal/auth"
	"github.com/nestegg/nestegg/internal/backup"
	"github.com/nestegg/nestegg/internal/billing"
	"github.com/nestegg/nestegg/internal/board"
	"github.com/nestegg/nestegg/internal/book"
	"github.com/nestegg/nestegg/internal/budget"
	"github.com/nestegg/nestegg/internal/cards"
	"github.com/nestegg/nestegg/internal/changes"
	"github.com/nestegg/nestegg/internal/clock"
	"github.com/nestegg/nestegg/internal/config"
	"github.com/nestegg/nestegg/internal/csvio"
	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/internal/external/ai"
	"github.com/nestegg/nestegg/internal/external/fx"
	"github.com/nestegg/nestegg/internal/external/ocr"
	"github.com/nestegg/nestegg/internal/external/quote"
	"github.com/nestegg/nestegg/internal/forecast"
	"github.com/nestegg/nestegg/internal/heavy"
	"github.com/nestegg/nestegg/internal/idempotency"
	"github.com/nestegg/nestegg/internal/intake"
	"github.com/nestegg/nestegg/internal/invest"
	"github.com/nestegg/nestegg/internal/jobs"
	"github.com/nestegg/nestegg/internal/ledger"
	"github.com/nestegg/nestegg/internal/member"
	"github.com/nestegg/nestegg/internal/points"
	"github.com/nestegg/nestegg/internal/profile"
	"github.com/nestegg/nestegg/internal/quota"
	"github.com/nestegg/nestegg/internal/rates"
	"github.com/nestegg/nestegg/internal/server"
	"github.com/nestegg/nestegg/internal/session"
	"github.com/nestegg/nestegg/internal/throttle"
	"github.com/nestegg/nestegg/internal/tracing"
	"github.com/nestegg/nestegg/internal/transfer"
)

// App is the assembled service.
type App struct {
	Handler  http.Handler
	Jobs     *jobs.Runner
	Pool     *pgxpool.Pool
	Redis    *redis.Client
	Sessions *session.Manager
	closers  []func()
	// FX answers exchange rates (FX.RateOn for a day's rate).
	FX *rates.Cache
}

// Options override parts of the wiring; tests use them.
type Options struct {
	Clock clock.Clock
	// Pool, when set, is used instead of opening cfg.DatabaseURL.
	Pool *pgxpool.Pool
	// RedisPrefix namespaces every Redis key (tests isolate themselves by it).
	RedisPrefix string
	// RedisBackoff is how long a failed Redis is left alone (tests shorten it).
	RedisBackoff time.Duration
	HTTPClient   *http.Client
	// BonusRand, when set, draws the month-complete bonus (tests fix it).
	BonusRand rand.Source
	// IdempotencyHooks stand for a crash around an idempotent request's
	// commit (tests).
	IdempotencyHooks idempotency.Hooks
}

// New builds the service from cfg.
func New(ctx context.Context, cfg config.Config, opts ...func(*Options)) (*App, error) {
	o := Options{Clock: clock.System{}, RedisPrefix: "nestegg:", HTTPClient: &http.Client{Timeout: 10 * time.Second}}
	for _, f := range opts {
		f(&o)
	}
	a := &App{}
	// Tracing first, so its shutdown (which flushes the last spans) is the
	// last closer to run.
	stopTracing, err := tracing.Start(tracing.Config{
		Endpoint: cfg.OTLPEndpoint, ServiceName: cfg.OTelServiceName, SampleRatio: cfg.TraceSampleRatio,
	})
	if err != nil {
		return nil, err
	}
	a.closers = append(a.closers, func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := stopTracing(ctx); err != nil {
			slog.Warn("flush traces", "error", err)
		}
	})
	tracingOn := cfg.OTLPEndpoint != ""
	pool := o.Pool
	if pool == nil {
		var sqlTracer pgx.QueryTracer
		if tracingOn {
			sqlTracer = otelpgx.NewTracer(otelpgx.WithTrimSQLInSpanName())
		}
		pool, err = database.OpenWith(ctx, cfg.DatabaseURL, database.Options{Tracer: sqlTracer, HangTimeout: cfg.DatabaseHangTimeout})
		if err != nil {
			a.Close()
			return nil, fmt.Errorf("DATABASE_URL: %w", err)
		}
		a.closers = append(a.closers, pool.Close)
		migrate := database.CheckMigrated
		if cfg.SQLInitMode == "always" {
			migrate = database.Migrate
		}
		if err := migrate(ctx, pool); err != nil {
			a.Close()
			return nil, err
		}
	}
	a.Pool = pool

	redisOpts, err := redis.ParseURL(cfg.RedisURL)
	if err != nil {
		a.Close()
		return nil, fmt.Errorf("REDIS_URL: %w", err)
	}
	// Short timeouts and no retries: a dead or frozen Redis must cost a
	// request tens of milliseconds at most (it falls back to PostgreSQL), and
	// the session store's breaker keeps the other requests off it meanwhile.
	// A healthy Redis answers a GET on this network in well under 1 ms.
	redisOpts.DialTimeout = 50 * time.Millisecond
	redisOpts.ReadTimeout = 80 * time.Millisecond
	redisOpts.WriteTimeout = 80 * time.Millisecond
	// Waiting for a free connection is local contention, not a Redis
	// fault: enough connections that requests rarely wait, and a wait that
	// is not mistaken for an outage.
	redisOpts.PoolSize = 128
	redisOpts.PoolTimeout = time.Second
	redisOpts.MaxRetries = -1
	redisOpts.DialerRetries = 1
	redisOpts.DialerRetryTimeout = time.Millisecond
	rdb := redis.NewClient(redisOpts)
	a.closers = append(a.closers, func() { _ = rdb.Close() })
	a.Redis = rdb
	pingCtx, cancel := context.WithTimeout(ctx, time.Second)
	if err := rdb.Ping(pingCtx).Err(); err != nil {
		slog.Warn("redis is not reachable; sessions are served from PostgreSQL until it is", "error", err)
	}
	cancel()

	if cfg.AdminEmail != "" {
		if err := member.BootstrapAdmin(ctx, pool, cfg.AdminEmail, cfg.AdminPassword); err != nil {
			a.Close()
			return nil, err
		}
	}

	store := session.NewStore(pool, rdb, session.StoreConfig{
		Prefix: o.RedisPrefix, Backoff: o.RedisBackoff, IdleTimeout: cfg.SessionIdleTimeout,
	})
	a.Sessions = session.NewManager(session.Config{
		IdleTimeout:  cfg.SessionIdleTimeout,
		Lifetime:     cfg.SessionLifetime,
		CookieSecure: cfg.CookieSecure,
	}, store, pool)

	guard := throttle.New(pool, o.Clock)
	meter := quota.New(pool, o.Clock, cfg.Timezone, quota.Limits{FX: cfg.FXDailyLimit, AI: cfg.AIDailyLimit, OCR: cfg.OCRDailyLimit})
	a.FX = rates.New(pool, fx.New(cfg.FXAPIURL, o.HTTPClient), meter, o.Clock, cfg.Timezone)
	ledgerHandler, err := ledger.NewHandler(pool, o.Clock, cfg.Timezone, cfg.AccountCryptoKey)
	if err != nil {
		a.Close()
		return nil, err
	}
	billingHandler := billing.NewHandler(billing.Deps{Pool: pool, Clock: o.Clock, Config: cfg, HTTPClient: o.HTTPClient})
	budgetHandler := budget.NewHandler(pool, o.Clock, cfg.Timezone)
	if o.BonusRand != nil {
		budgetHandler.SetRandSource(o.BonusRand)
	}
	ledgerHandler.OnEntryWritten(budgetHandler.MonthComplete)
	transferHandler := transfer.NewHandler(pool)
	transferHandler.OnEntryWritten(budgetHandler.MonthComplete)
	backupHandler := backup.NewHandler(pool, ledgerHandler.Crypto(), o.Clock, cfg.Timezone)
	backupHandler.OnEntryWritten(budgetHandler.MonthComplete)
	csvHandler := csvio.NewHandler(pool, o.Clock, cfg.Timezone)
	csvHandler.OnEntryWritten(budgetHandler.MonthComplete)
	ledgerHandler.UseRates(a.FX, cfg.BaseCurrency)
	ledgerHandler.OnCycleChange(cards.KeepPaidStatementsTx)
	// Creates sent with an Idempotency-Key answer retries from keys
	// (idempotency.Once, from each create's handler).
	keys := idempotency.New(pool, o.Clock, o.IdempotencyHooks)
	ledgerHandler.UseKeys(keys)
	billingHandler.UseKeys(keys)
	budgetHandler.UseKeys(keys)
	transferHandler.UseKeys(keys)
	images := board.NewImageStore(o.Clock, cfg.Timezone, board.ImageLimits{
		Daily: cfg.BoardImageDailyLimit, MaxPixels: int64(cfg.ImageMaxPixels), MaxFrames: cfg.ImageMaxFrames,
	})
	boardHandler := board.NewHandler(pool, o.Clock, cfg.Timezone, cfg.PublicBaseURL, images)
	boardHandler.UseKeys(keys)
	investHandler := invest.NewHandler(pool, o.Clock, cfg.Timezone, cfg.BaseCurrency, quote.New(cfg.QuoteAPIURL, o.HTTPClient))
	investHandler.UseKeys(keys)
	notificationHandler := intake.NewNotificationHandler(pool, o.Clock, cfg.Timezone, a.FX, cfg.BaseCurrency)
	notificationHandler.UseKeys(keys)
	handler, err := server.New(server.Deps{
		Pool:           pool,
		Redis:          rdb,
		Sessions:       a.Sessions.Middleware,
		TrustedProxies: cfg.TrustedProxies,
		CORSOrigins:    cfg.CORSAllowedOrigins,
		Auth: auth.NewHandler(auth.Deps{
			Pool: pool, Sessions: a.Sessions, Clock: o.Clock, Config: cfg,
			HTTPClient: keySetClient(o.HTTPClient, tracingOn), Throttle: guard,
		}),
		Profile: profile.NewHandler(pool, a.Sessions, guard, images),
		Points:  points.NewHandler(pool),
		Admin:   admin.NewHandler(pool, a.Sessions),
		Billing: billingHandler,
		Drafts: intake.NewDraftHandler(ai.New(cfg.AIAPIURL, cfg.AIAPIKey, cfg.AIModel, o.HTTPClient),
			ocr.New(cfg.OCRAPIURL, cfg.OCRAPIKey, o.HTTPClient), meter, o.Clock, cfg.Timezone),
		FX:            rates.NewHandler(a.FX),
		Ledger:        ledgerHandler,
		Board:         boardHandler,
		Transfer:      transferHandler,
		Invest:        investHandler,
		Budget:        budgetHandler,
		Notifications: notificationHandler,
		Backup:        backupHandler,
		CSV:           csvHandler,
		Tracing:       tracingOn,
		Changes:       changes.NewHandler(pool, ledgerHandler),
		Cards:         cards.NewHandler(pool, o.Clock, cfg.Timezone),
		Forecast:      forecast.NewHandler(pool, o.Clock, cfg.Timezone),
		Heavy:         heavy.NewGate(pool, cfg.HeavyPerReplica),
		Books:         book.New(pool, o.Clock, cfg.BookMemberLimit, cfg.BooksPerMember),
	})
	if err != nil {
		a.Close()
		return nil, err
	}
	a.Handler = handler
	a.Jobs = jobs.NewRunner(pool, o.Clock, store.CleanupJob(), auth.CleanupJob(pool), guard.CleanupJob(),
		billing.ExpiryJob(pool), billingHandler.RenewalJob(), intake.CleanupJob(pool),
		meter.CleanupJob(), a.FX.CleanupJob(), board.ImageCleanupJob(pool, cfg.Timezone),
		ledger.RecurringPostJob(pool, cfg.Timezone), cards.BillPaymentJob(pool, cfg.Timezone), changes.PruneJob(pool), changes.FoldJob(pool),
		idempotency.CleanupJob(pool))
	return a, nil
}

// keySetClient is the client the identity providers' key sets are fetched
// with. go-oidc makes those calls itself, not through httpcall, so with
// tracing on its transport makes their client spans (each its own trace:
// go-oidc fetches under its own context, not the request's).
func keySetClient(c *http.Client, tracingOn bool) *http.Client {
	if !tracingOn {
		return c
	}
	traced := *c
	traced.Transport = otelhttp.NewTransport(c.Transport)
	return &traced
}

// Close releases what New opened.
func (a *App) Close() {
	for i := len(a.closers) - 1; i >= 0; i-- {
		a.closers[i]()
	}
}

func init() {
	// go-redis logs every failed dial itself; the service reports Redis
	// trouble through its own warnings instead.
	redis.SetLogger(quietRedisLogger{})
}

type quietRedisLogger struct{}

func (quietRedisLogger) Printf(context.Context, string, ...any) {}
