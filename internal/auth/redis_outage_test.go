package auth_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/app"
	"github.com/nestegg/nestegg/internal/config"
	"github.com/nestegg/nestegg/internal/dbtest"
)

// outageEnv runs the service against a redis-server of the test's own.
func outageEnv(t *testing.T, r *dbtest.PrivateRedis) *apitest.Env {
	return apitest.New(t,
		apitest.WithConfig(func(cfg *config.Config) { cfg.RedisURL = r.URL() }),
		apitest.WithAppOptions(func(o *app.Options) { o.RedisBackoff = 50 * time.Millisecond }),
	)
}

func inRedis(rdb *redis.Client, key string) bool {
	return rdb.Exists(context.Background(), key).Val() == 1
}

func TestSessionsSurviveARedisCrash(t *testing.T) {
	t.Parallel()
	r := dbtest.StartRedis(t)
	env := outageEnv(t, r)
	m := env.NewMember()
	rdb := r.Client()
	if !inRedis(rdb, env.RedisKey(m.Token)) {
		t.Fatal("session not in Redis before the crash")
	}

	r.Kill()
	// The signed-in member keeps working from PostgreSQL ...
	m.Do(http.MethodGet, "/api/auth/session", nil).Want(http.StatusOK)
	// ... others can sign in and out.
	second := env.LogIn(m.Email, apitest.DefaultPassword)
	second.Do(http.MethodGet, "/api/auth/session", nil).Want(http.StatusOK)
	second.Do(http.MethodPost, "/api/auth/logout", nil).Want(http.StatusNoContent)
	second.Do(http.MethodGet, "/api/auth/session", nil).WantProblem(http.StatusUnauthorized, "UNAUTHENTICATED")

	// Redis returns empty; sessions flow back into it as they are used.
	r.Start()
	rdb = r.Client()
	dbtest.Eventually(t, "session written back to Redis", func() bool {
		m.Do(http.MethodGet, "/api/auth/session", nil).Want(http.StatusOK)
		return inRedis(rdb, env.RedisKey(m.Token))
	})
	second.Do(http.MethodGet, "/api/auth/session", nil).WantProblem(http.StatusUnauthorized, "UNAUTHENTICATED")
	if inRedis(rdb, env.RedisKey(second.Token)) {
		t.Fatal("a session logged out during the outage came back")
	}
}

func TestSessionsSurviveAHungRedis(t *testing.T) {
	t.Parallel()
	r := dbtest.StartRedis(t)
	env := outageEnv(t, r)
	m := env.NewMember()
	r.Freeze()
	m.Do(http.MethodGet, "/api/auth/session", nil).Want(http.StatusOK)
	other := env.LogIn(m.Email, apitest.DefaultPassword)
	other.Do(http.MethodPost, "/api/auth/logout", nil).Want(http.StatusNoContent)
	r.Thaw()
	// Whatever Redis kept of the logged-out session, it stays logged out.
	dbtest.Eventually(t, "Redis answers again", func() bool { return r.Client().Ping(context.Background()).Err() == nil })
	r.Client().Set(context.Background(), env.RedisKey(other.Token), "stale", time.Hour)
	other.Do(http.MethodGet, "/api/auth/session", nil).WantProblem(http.StatusUnauthorized, "UNAUTHENTICATED")
	m.Do(http.MethodGet, "/api/auth/session", nil).Want(http.StatusOK)
}

func TestServiceStartsWithoutRedisAndUsesItOnceItIsUp(t *testing.T) {
	t.Parallel()
	r := dbtest.StartRedis(t)
	r.Kill()
	env := outageEnv(t, r)
	var ready api.Readiness
	env.Client().Do(http.MethodGet, "/readyz", nil).Want(http.StatusOK).JSON(&ready)
	if ready.Redis != "down" {
		t.Fatalf("readiness %+v with Redis down", ready)
	}
	m := env.NewMember()
	m.Do(http.MethodGet, "/api/auth/session", nil).Want(http.StatusOK)

	r.Start()
	rdb := r.Client()
	dbtest.Eventually(t, "session reaches Redis once it is up", func() bool {
		m.Do(http.MethodGet, "/api/auth/session", nil).Want(http.StatusOK)
		return inRedis(rdb, env.RedisKey(m.Token))
	})
	fresh := env.LogIn(m.Email, apitest.DefaultPassword)
	if !inRedis(rdb, env.RedisKey(fresh.Token)) {
		t.Fatal("a login after Redis returned did not go to Redis")
	}
}
