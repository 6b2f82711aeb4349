package session

import (
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/redis/go-redis/v9"
)

// The store's fixtures for the external tests, which may import apitest
// (this package's own tests cannot: apitest imports session).

type StoreEnv = storeEnv

var NewStoreEnv = newStoreEnv

const SlideStep = slideStep

func (e storeEnv) Store() *Store          { return e.store }
func (e storeEnv) Pool() *pgxpool.Pool    { return e.pool }
func (e storeEnv) Redis() *redis.Client   { return e.redis }
func (e storeEnv) Key(hash string) string { return e.prefix + hash }
func (e storeEnv) Durable(t *testing.T, hash string) (time.Time, []byte) {
	t.Helper()
	return e.durable(t, hash)
}

func (e storeEnv) Start(t *testing.T, hash string, deadline time.Time) []byte {
	t.Helper()
	return e.start(t, hash, deadline)
}
