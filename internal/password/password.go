// Package password hashes and checks member passwords with argon2id.
package password

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"runtime"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/alexedwards/argon2id"

	"github.com/nestegg/nestegg/internal/problem"
)

// Length limits, in characters. No composition rules, and never truncated.
const (
	MinLength = 8
	MaxLength = 128
)

// params follow the OWASP Password Storage Cheat Sheet's argon2id
// configuration (19 MiB, 2 iterations, 1 lane).
var params = &argon2id.Params{Memory: 19 * 1024, Iterations: 2, Parallelism: 1, SaltLength: 16, KeyLength: 32}

// slots bounds the argon2 work running at once to half the CPUs (at least
// one): a burst of sign-ins (or of guesses) queues here instead of taking
// every core from the requests of members already signed in.
var slots = make(chan struct{}, max(1, runtime.GOMAXPROCS(0)/2))

// maxWait is how long a password check waits for a slot before answering
// 503: under a flood, failing fast beats piling up requests.
var maxWait = 3 * time.Second

// SetBounds changes how many checks run at once and how long one waits for
// its turn. The test harness calls it before any check runs: hundreds of
// parallel test members sign in on a loaded machine, where shedding load
// would only make tests flaky.
func SetBounds(concurrent int, wait time.Duration) {
	slots = make(chan struct{}, max(1, concurrent))
	maxWait = wait
}

// ErrBusy answers a password check that found no free slot in time.
var ErrBusy = &problem.Error{
	Status: http.StatusServiceUnavailable, Code: problem.CodeServiceUnavailable,
	Detail:  "too many sign-ins at once; try again in a moment",
	Headers: map[string]string{"Retry-After": "1"},
}

func acquire(ctx context.Context) (release func(), err error) {
	wait, cancel := context.WithTimeout(ctx, maxWait)
	defer cancel()
	select {
	case slots <- struct{}{}:
		return func() { <-slots }, nil
	case <-wait.Done():
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, ErrBusy
	}
}

// Hash returns the argon2id PHC string of pw.
func Hash(ctx context.Context, pw string) (string, error) {
	release, err := acquire(ctx)
	if err != nil {
		return "", err
	}
	defer release()
	h, err := argon2id.CreateHash(pw, params)
	if err != nil {
		return "", fmt.Errorf("hash password: %w", err)
	}
	return h, nil
}

// Verify reports whether pw matches hash. A nil hash (a member without a
// password) never matches, but costs the same time as a real check, so the
// answer's timing does not tell whether an account exists or has a password.
func Verify(ctx context.Context, pw string, hash *string) (bool, error) {
	release, err := acquire(ctx)
	if err != nil {
		return false, err
	}
	defer release()
	if hash == nil {
		_, _ = argon2id.ComparePasswordAndHash(pw, dummyHash())
		return false, nil
	}
	ok, err := argon2id.ComparePasswordAndHash(pw, *hash)
	if err != nil {
		return false, fmt.Errorf("verify password: %w", err)
	}
	return ok, nil
}

// IsBusy reports whether err is a password check refused for want of a slot.
func IsBusy(err error) bool { return errors.Is(err, ErrBusy) }

// ValidLength reports whether pw is within the length limits.
func ValidLength(pw string) bool {
	n := utf8.RuneCountInString(pw)
	return n >= MinLength && n <= MaxLength
}

var dummyHash = sync.OnceValue(func() string {
	h, err := argon2id.CreateHash("nestegg-dummy-password", params)
	if err != nil {
		panic(err)
	}
	return h
})
