// Package password hashes and checks member passwords with argon2id.
package password

import (
	"fmt"
	"sync"
	"unicode/utf8"

	"github.com/alexedwards/argon2id"
)

// Length limits, in characters. No composition rules, and never truncated.
const (
	MinLength = 8
	MaxLength = 128
)

// params follow the OWASP Password Storage Cheat Sheet's argon2id
// configuration (19 MiB, 2 iterations, 1 lane).
var params = &argon2id.Params{Memory: 19 * 1024, Iterations: 2, Parallelism: 1, SaltLength: 16, KeyLength: 32}

// Hash returns the argon2id PHC string of pw.
func Hash(pw string) (string, error) {
	h, err := argon2id.CreateHash(pw, params)
	if err != nil {
		return "", fmt.Errorf("hash password: %w", err)
	}
	return h, nil
}

// Verify reports whether pw matches hash. A nil hash (a member without a
// password) never matches, but costs the same time as a real check, so the
// answer's timing does not tell whether an account exists or has a password.
func Verify(pw string, hash *string) (bool, error) {
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
