// Command nestegg is the nestegg service: the HTTP API, its migrations and its
// scheduled jobs, in one binary configured from the environment.
package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/nestegg/nestegg/internal/app"
	"github.com/nestegg/nestegg/internal/config"
	"github.com/nestegg/nestegg/internal/logbatch"
	"github.com/nestegg/nestegg/internal/server"
)

func main() {
	logs := &logOutput{}
	err := run(logs)
	// Whatever run's log lines left held is written before anything else.
	logs.close()
	if err == nil {
		return
	}
	// Whoever starts the service reads why it did not start: one plain line.
	// Once it served, the reason it stopped belongs in the log.
	var ns notStarted
	if errors.As(err, &ns) {
		fmt.Fprintf(os.Stderr, "nestegg: %v\n", ns.error)
	} else {
		slog.Error("nestegg stopped", "error", err)
	}
	os.Exit(1)
}

// notStarted is a failure before the service listened.
type notStarted struct{ error }

// logOutput is where the log goes: standard error, in batches when
// LOG_FLUSH_INTERVAL is set (package logbatch).
type logOutput struct{ batch *logbatch.Writer }

func (o *logOutput) start(cfg config.Config) {
	opts := &slog.HandlerOptions{Level: logLevel(cfg.LogLevel)}
	if cfg.LogFlushInterval == 0 {
		slog.SetDefault(slog.New(slog.NewJSONHandler(os.Stderr, opts)))
		return
	}
	o.batch = logbatch.New(os.Stderr, cfg.LogFlushInterval)
	slog.SetDefault(slog.New(o.batch.Handler(slog.NewJSONHandler(o.batch, opts), slog.LevelWarn)))
}

// close writes what is held; later lines are written at once.
func (o *logOutput) close() {
	if o.batch != nil {
		_ = o.batch.Close()
	}
}

func run(logs *logOutput) error {
	cfg, err := config.Load(os.Getenv)
	if err != nil {
		return notStarted{err}
	}
	logs.start(cfg)
	// GOGC's default here is the service's (config), not Go's 100: the live
	// heap (the contract above all) is small but dense with pointers, and at
	// 100 marking it again several times a second cost a session read more
	// CPU than its log line and its routing together.
	debug.SetGCPercent(cfg.GCPercent)

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()

	if err := databaseAnswers(ctx, cfg.DatabaseURL); err != nil {
		return notStarted{err}
	}
	a, err := app.New(ctx, cfg)
	if err != nil {
		return notStarted{err}
	}
	defer a.Close()

	srv := server.NewHTTPServer(cfg.HTTPAddr, a.Handler)
	// Bind before announcing, so "listening" is true when it is printed.
	ln, err := net.Listen("tcp", cfg.HTTPAddr)
	if err != nil {
		return notStarted{fmt.Errorf("HTTP_ADDR: %w", err)}
	}
	a.Jobs.Start(ctx)

	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	fmt.Printf("nestegg listening on http://%s (API reference: http://%s/docs)%s\n", cfg.ListenHost(), cfg.ListenHost(), redisNote(ctx, a))
	slog.Info("listening", "addr", cfg.HTTPAddr)

	select {
	case err := <-errc:
		return fmt.Errorf("listen %s: %w", cfg.HTTPAddr, err)
	case <-ctx.Done():
	}
	// Graceful shutdown: stop accepting, let in-flight requests finish.
	slog.Info("shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("shutdown: %w", err)
	}
	return nil
}

// databaseAnswers dials the server DATABASE_URL names before anything logs in.
// When nothing answers, start-up stops with one line naming the setting rather
// than pgx's error for every address it tried, and within seconds rather than
// after the system's connect timeout when the address drops packets.
func databaseAnswers(ctx context.Context, databaseURL string) error {
	pc, err := pgconn.ParseConfig(databaseURL)
	if err != nil {
		return nil // app.New names the setting in its parse error
	}
	servers := append([]*pgconn.FallbackConfig{{Host: pc.Host, Port: pc.Port}}, pc.Fallbacks...)
	dialer := net.Dialer{Timeout: 5 * time.Second}
	var where string
	var firstErr error
	for _, s := range servers {
		network, addr := pgconn.NetworkAddress(s.Host, s.Port)
		conn, err := dialer.DialContext(ctx, network, addr)
		if err == nil {
			_ = conn.Close()
			return nil
		}
		if firstErr == nil {
			where, firstErr = addr, err
		}
	}
	var opErr *net.OpError
	if errors.As(firstErr, &opErr) {
		firstErr = opErr.Err // "connect: connection refused" without the addresses again
	}
	hint := "start it there"
	if h := servers[0].Host; h == "127.0.0.1" || h == "localhost" || h == "::1" || strings.HasPrefix(h, "/") {
		hint = "start it (`make run` starts it for you)"
	}
	return fmt.Errorf("DATABASE_URL: no PostgreSQL answers at %s (%v); %s, or set DATABASE_URL to one that runs", where, firstErr, hint)
}

// redisNote completes the start-up line when Redis does not answer: the
// service runs, but every session read goes to PostgreSQL.
func redisNote(ctx context.Context, a *app.App) string {
	pingCtx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	if a.Redis.Ping(pingCtx).Err() == nil {
		return ""
	}
	return fmt.Sprintf("; Redis at %s does not answer: sessions are served from PostgreSQL until it does", a.Redis.Options().Addr)
}

func logLevel(s string) slog.Level {
	var l slog.Level
	_ = l.UnmarshalText([]byte(s))
	return l
}
