package apitest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/redis/go-redis/v9"

	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/internal/session"
)

// A benchmark's floor runs in a process of its own, as the service would
// (in the benchmark's process it would share the CPU scheduler and the Go
// runtime with the clients and the service): the test binary started again
// with floorEnv naming what to serve; init sees it, serves and never
// returns to the tests.

const floorEnv = "NESTEGG_BENCH_FLOOR"

// floorSpec is what a floor process serves.
type floorSpec struct {
	Addr        string      `json:"addr"`
	DatabaseURL string      `json:"databaseUrl"`
	MaxConns    int32       `json:"maxConns"` // the service pool's size
	RedisAddr   string      `json:"redisAddr"`
	RedisDB     int         `json:"redisDb"`
	SessionKeys string      `json:"sessionKeys"` // session.KeyPrefix: a session's key less its token's hash
	Status      int         `json:"status"`
	Statements  []floorStmt `json:"statements"`
	// OneTrip sends the statements together, one pgx batch (BenchRequest.OneTrip).
	OneTrip bool `json:"oneTrip"`
}

type floorStmt struct {
	SQL  string     `json:"sql"`
	Args []floorArg `json:"args"`
}

// floorArg is one statement argument with its Go type, so that it reaches
// pgx as the service sent it.
type floorArg struct {
	Type  string          `json:"type"`
	Value json.RawMessage `json:"value"`
}

func encodeArg(a any) (floorArg, error) {
	v := reflect.ValueOf(a)
	if a == nil || (v.Kind() == reflect.Pointer && v.IsNil()) {
		return floorArg{Type: "nil"}, nil
	}
	if v.Kind() == reflect.Pointer {
		a = v.Elem().Interface()
	}
	var t string
	switch a.(type) {
	case int64:
		t = "int64"
	case int32:
		t = "int32"
	case int:
		t = "int"
	case string:
		t = "string"
	case bool:
		t = "bool"
	case time.Time:
		t = "time"
	case []int64:
		t = "[]int64"
	case []string:
		t = "[]string"
	default:
		return floorArg{}, fmt.Errorf("apitest: a floor statement argument of type %T cannot be sent to the floor process", a)
	}
	raw, err := json.Marshal(a)
	return floorArg{Type: t, Value: raw}, err
}

func (f floorArg) decode() (any, error) {
	var out any
	var err error
	switch f.Type {
	case "nil":
		return nil, nil
	case "int64":
		var v int64
		err, out = json.Unmarshal(f.Value, &v), &v
	case "int32":
		var v int32
		err, out = json.Unmarshal(f.Value, &v), &v
	case "int":
		var v int
		err, out = json.Unmarshal(f.Value, &v), &v
	case "string":
		var v string
		err, out = json.Unmarshal(f.Value, &v), &v
	case "bool":
		var v bool
		err, out = json.Unmarshal(f.Value, &v), &v
	case "time":
		var v time.Time
		err, out = json.Unmarshal(f.Value, &v), &v
	case "[]int64":
		var v []int64
		err, out = json.Unmarshal(f.Value, &v), &v
	case "[]string":
		var v []string
		err, out = json.Unmarshal(f.Value, &v), &v
	default:
		return nil, fmt.Errorf("unknown argument type %q", f.Type)
	}
	return reflect.ValueOf(out).Elem().Interface(), err
}

func init() {
	if spec := os.Getenv(floorEnv); spec != "" {
		if err := serveFloor(spec); err != nil {
			fmt.Fprintln(os.Stderr, "floor:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
}

// serveFloor serves the floor until its parent closes its standard input.
func serveFloor(raw string) error {
	var spec floorSpec
	if err := json.Unmarshal([]byte(raw), &spec); err != nil {
		return err
	}
	stmts := make([]Statement, len(spec.Statements))
	for i, s := range spec.Statements {
		stmts[i].SQL = s.SQL
		for _, a := range s.Args {
			v, err := a.decode()
			if err != nil {
				return err
			}
			stmts[i].Args = append(stmts[i].Args, v)
		}
	}
	ctx := context.Background()
	cfg, err := pgxpool.ParseConfig(spec.DatabaseURL)
	if err != nil {
		return err
	}
	cfg.MaxConns = spec.MaxConns
	database.WithSessionSettings(cfg.ConnConfig) // as the service's connections start
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return err
	}
	defer pool.Close()
	rdb := redis.NewClient(&redis.Options{Addr: spec.RedisAddr, DB: spec.RedisDB})
	defer func() { _ = rdb.Close() }()
	ln, err := net.Listen("tcp", spec.Addr)
	if err != nil {
		return err
	}
	go func() {
		// The parent closes our standard input when it is done, or dies.
		_, _ = io.Copy(io.Discard, os.Stdin)
		_ = ln.Close()
	}()
	q := db.New(pool)
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		_, _ = io.Copy(io.Discard, r.Body)
		// The token arrives with each request, and the stores know it by
		// its hash: every request hashes it, as the service must.
		hash := session.HashToken(strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "))
		err := rdb.Get(ctx, spec.SessionKeys+hash).Err()
		if err == nil {
			_, err = q.GetSessionPrincipal(ctx, db.GetSessionPrincipalParams{TokenHash: hash, Now: time.Now()})
		}
		switch {
		case err != nil:
		case spec.OneTrip:
			err = drainBatch(ctx, pool, stmts)
		default:
			for _, s := range stmts {
				if err = drain(ctx, pool, s); err != nil {
					break
				}
			}
		}
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(spec.Status)
		_, _ = io.WriteString(w, "{}")
	})}
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) && !errors.Is(err, net.ErrClosed) {
		return err
	}
	return nil
}

// startFloor starts the floor process for spec (Addr filled in here) and
// answers its base URL; it stops with the benchmark.
func startFloor(b *testing.B, spec floorSpec) string {
	b.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	spec.Addr = ln.Addr().String()
	_ = ln.Close()
	raw, err := json.Marshal(spec)
	if err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$", "-test.bench=^$")
	cmd.Env = append(os.Environ(), floorEnv+"="+string(raw))
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatalf("start the floor process: %v", err)
	}
	b.Cleanup(func() { _ = stdin.Close(); _ = cmd.Wait() })
	base := "http://" + spec.Addr
	for range 200 {
		if c, err := net.Dial("tcp", spec.Addr); err == nil {
			_ = c.Close()
			return base
		}
		time.Sleep(50 * time.Millisecond)
	}
	b.Fatal("the floor process did not start serving")
	return ""
}
