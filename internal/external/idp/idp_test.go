package idp_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	jose "github.com/go-jose/go-jose/v4"

	"github.com/nestegg/nestegg/internal/external/idp"
	"github.com/nestegg/nestegg/internal/external/idp/idptest"
)

const audience = "nestegg-web"

// pastClock is years before the real clock: a token valid at pastClock is
// long expired in real time, so accepting it proves the injected clock is used.
var pastClock = time.Date(2020, 6, 1, 12, 0, 0, 0, time.UTC)

func newVerifier(t *testing.T, p *idptest.Provider, now time.Time) *idp.Verifier {
	t.Helper()
	cfg := idp.Config{Issuer: p.URL, KeySetURL: p.KeySetURL(), Audience: audience}
	return idp.NewVerifier(cfg, &http.Client{Timeout: 5 * time.Second}, func() time.Time { return now })
}

// claimsAt returns valid claims for a verifier whose clock reads now.
func claimsAt(p *idptest.Provider, now time.Time) map[string]any {
	return map[string]any{
		"iss":            p.URL,
		"sub":            "user-123",
		"aud":            audience,
		"email":          "ada@example.com",
		"email_verified": true,
		"name":           "Ada Lovelace",
		"picture":        "https://example.com/ada.png",
		"iat":            now.Add(-time.Minute).Unix(),
		"exp":            now.Add(time.Hour).Unix(),
	}
}

// requireInvalid asserts err is a refusal (401), not an outage or misconfiguration.
func requireInvalid(t *testing.T, err error) {
	t.Helper()
	if !errors.Is(err, idp.ErrInvalidToken) {
		t.Fatalf("err = %v, want ErrInvalidToken", err)
	}
	if errors.Is(err, idp.ErrProviderUnavailable) || errors.Is(err, idp.ErrNotConfigured) {
		t.Fatalf("err = %v, wraps more than ErrInvalidToken", err)
	}
}

func requireUnavailable(t *testing.T, err error) {
	t.Helper()
	if !errors.Is(err, idp.ErrProviderUnavailable) {
		t.Fatalf("err = %v, want ErrProviderUnavailable", err)
	}
	if errors.Is(err, idp.ErrInvalidToken) {
		t.Fatalf("err = %v, must not wrap ErrInvalidToken", err)
	}
}

func TestVerifyGoodToken(t *testing.T) {
	t.Parallel()
	p := idptest.NewProvider(t)
	v := newVerifier(t, p, pastClock)

	got, err := v.Verify(context.Background(), p.Sign(t, claimsAt(p, pastClock)))
	if err != nil {
		t.Fatalf("Verify: %v", err)
	}
	want := idp.Claims{
		Subject:       "user-123",
		Email:         "ada@example.com",
		EmailVerified: true,
		Name:          "Ada Lovelace",
		Picture:       "https://example.com/ada.png",
	}
	if got != want {
		t.Errorf("claims = %+v, want %+v", got, want)
	}
}

func TestVerifyTokenHelper(t *testing.T) {
	t.Parallel()
	p := idptest.NewProvider(t)
	v := newVerifier(t, p, time.Now())

	got, err := v.Verify(context.Background(), p.Token(t, "sub-1", "bob@example.com", audience, time.Now().Add(time.Hour)))
	if err != nil {
		t.Fatalf("Verify: %v", err)
	}
	if got.Subject != "sub-1" || got.Email != "bob@example.com" || !got.EmailVerified {
		t.Errorf("claims = %+v", got)
	}
}

func TestVerifyCachesKeySet(t *testing.T) {
	t.Parallel()
	p := idptest.NewProvider(t)
	v := newVerifier(t, p, pastClock)

	for range 3 {
		if _, err := v.Verify(context.Background(), p.Sign(t, claimsAt(p, pastClock))); err != nil {
			t.Fatalf("Verify: %v", err)
		}
	}
	if n := p.KeySetFetches(); n != 1 {
		t.Errorf("key set fetched %d times, want 1", n)
	}
}

func TestVerifyWrongAudience(t *testing.T) {
	t.Parallel()
	p := idptest.NewProvider(t)
	v := newVerifier(t, p, pastClock)

	claims := claimsAt(p, pastClock)
	claims["aud"] = "someone-elses-app"
	_, err := v.Verify(context.Background(), p.Sign(t, claims))
	requireInvalid(t, err)
}

func TestVerifyWrongIssuer(t *testing.T) {
	t.Parallel()
	p := idptest.NewProvider(t)
	v := newVerifier(t, p, pastClock)

	claims := claimsAt(p, pastClock)
	claims["iss"] = "https://evil.example.com"
	_, err := v.Verify(context.Background(), p.Sign(t, claims))
	requireInvalid(t, err)
}

func TestVerifyExpired(t *testing.T) {
	t.Parallel()
	p := idptest.NewProvider(t)
	// The verifier's clock is far in the future; the token is still valid
	// by the real clock, so only the injected clock can refuse it.
	future := time.Now().AddDate(50, 0, 0)
	v := newVerifier(t, p, future)

	claims := claimsAt(p, future)
	claims["exp"] = future.Add(-time.Second).Unix()
	_, err := v.Verify(context.Background(), p.Sign(t, claims))
	requireInvalid(t, err)
	var expired *oidc.TokenExpiredError
	if !errors.As(err, &expired) {
		t.Errorf("err = %v, want the oidc.TokenExpiredError cause kept", err)
	}
}

func TestVerifyNotBefore(t *testing.T) {
	t.Parallel()
	p := idptest.NewProvider(t)
	v := newVerifier(t, p, pastClock)

	// go-oidc allows 5 minutes of clock skew on nbf.
	tests := []struct {
		name  string
		nbf   time.Time
		valid bool
	}{
		{"within skew", pastClock.Add(time.Minute), true},
		{"not yet valid", pastClock.Add(10 * time.Minute), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			claims := claimsAt(p, pastClock)
			claims["nbf"] = tt.nbf.Unix()
			_, err := v.Verify(context.Background(), p.Sign(t, claims))
			if tt.valid {
				if err != nil {
					t.Fatalf("Verify: %v", err)
				}
				return
			}
			requireInvalid(t, err)
		})
	}
}

func TestVerifyBadSignature(t *testing.T) {
	t.Parallel()
	p := idptest.NewProvider(t)
	v := newVerifier(t, p, pastClock)
	other, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}

	// Same kid as the provider's real key, different private key.
	_, err = v.Verify(context.Background(), p.SignWith(t, claimsAt(p, pastClock), idptest.WithKey(other)))
	requireInvalid(t, err)
}

func TestVerifyUnknownKeyID(t *testing.T) {
	t.Parallel()
	p := idptest.NewProvider(t)
	v := newVerifier(t, p, pastClock)
	other, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}

	token := p.SignWith(t, claimsAt(p, pastClock), idptest.WithKey(other), idptest.WithKeyID("not-published"))
	_, err = v.Verify(context.Background(), token)
	requireInvalid(t, err)
}

func TestVerifyKeyRotation(t *testing.T) {
	t.Parallel()
	p := idptest.NewProvider(t)
	v := newVerifier(t, p, pastClock)
	ctx := context.Background()

	if _, err := v.Verify(ctx, p.Sign(t, claimsAt(p, pastClock))); err != nil {
		t.Fatalf("Verify before rotation: %v", err)
	}
	oldKeyID := p.KeyID()
	p.RotateKey(t)
	if p.KeyID() == oldKeyID {
		t.Fatal("RotateKey kept the key id")
	}

	// The new kid is not in the cached set, so the verifier must refetch.
	if _, err := v.Verify(ctx, p.Sign(t, claimsAt(p, pastClock))); err != nil {
		t.Fatalf("Verify after rotation: %v", err)
	}
	if n := p.KeySetFetches(); n != 2 {
		t.Errorf("key set fetched %d times, want 2 (initial + refetch on unknown kid)", n)
	}
}

func TestVerifyAlgNoneRefused(t *testing.T) {
	t.Parallel()
	p := idptest.NewProvider(t)
	v := newVerifier(t, p, pastClock)

	_, err := v.Verify(context.Background(), p.SignWith(t, claimsAt(p, pastClock), idptest.WithAlgNone()))
	requireInvalid(t, err)
}

func TestVerifyHS256WithPublicKeyRefused(t *testing.T) {
	t.Parallel()
	p := idptest.NewProvider(t)
	v := newVerifier(t, p, pastClock)

	_, err := v.Verify(context.Background(), p.SignWith(t, claimsAt(p, pastClock), idptest.WithHS256PublicKey()))
	requireInvalid(t, err)
}

func TestVerifyAlgorithmOutsideAllowList(t *testing.T) {
	t.Parallel()
	p := idptest.NewProvider(t)
	v := newVerifier(t, p, pastClock)

	// A genuine signature by the provider's key, but with an algorithm we
	// did not choose to accept.
	_, err := v.Verify(context.Background(), p.SignWith(t, claimsAt(p, pastClock), idptest.WithAlg(jose.RS512)))
	requireInvalid(t, err)
}

func TestVerifyES256Accepted(t *testing.T) {
	t.Parallel()
	p := idptest.NewProvider(t)
	v := newVerifier(t, p, pastClock)
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	p.PublishKey(key.Public(), "ec-1", jose.ES256)

	token := p.SignWith(t, claimsAt(p, pastClock), idptest.WithKey(key), idptest.WithKeyID("ec-1"))
	got, err := v.Verify(context.Background(), token)
	if err != nil {
		t.Fatalf("Verify: %v", err)
	}
	if got.Subject != "user-123" {
		t.Errorf("Subject = %q, want user-123", got.Subject)
	}
}

func TestVerifyNotConfigured(t *testing.T) {
	t.Parallel()
	p := idptest.NewProvider(t)
	token := p.Sign(t, claimsAt(p, pastClock))

	tests := []struct {
		name string
		cfg  idp.Config
	}{
		{"empty audience", idp.Config{Issuer: p.URL, KeySetURL: p.KeySetURL()}},
		{"empty issuer", idp.Config{KeySetURL: p.KeySetURL(), Audience: audience}},
		{"empty key set URL", idp.Config{Issuer: p.URL, Audience: audience}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			v := idp.NewVerifier(tt.cfg, nil, nil)
			_, err := v.Verify(context.Background(), token)
			if !errors.Is(err, idp.ErrNotConfigured) {
				t.Fatalf("err = %v, want ErrNotConfigured", err)
			}
			if errors.Is(err, idp.ErrInvalidToken) {
				t.Fatalf("err = %v, must not wrap ErrInvalidToken", err)
			}
			// No verifier here may contact the provider, so this holds
			// whatever order the parallel subtests run in.
			if n := p.KeySetFetches(); n != 0 {
				t.Errorf("key set fetched %d times by an unconfigured verifier, want 0", n)
			}
		})
	}
}

func TestVerifyEmailVerified(t *testing.T) {
	t.Parallel()
	p := idptest.NewProvider(t)
	v := newVerifier(t, p, pastClock)

	tests := []struct {
		name  string
		value any // nil: claim left out
		want  bool
	}{
		{"bool true", true, true},
		{"bool false", false, false},
		{"string true", "true", true},
		{"string false", "false", false},
		{"missing", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			claims := claimsAt(p, pastClock)
			delete(claims, "email_verified")
			if tt.value != nil {
				claims["email_verified"] = tt.value
			}
			got, err := v.Verify(context.Background(), p.Sign(t, claims))
			if err != nil {
				t.Fatalf("Verify: %v", err)
			}
			if got.EmailVerified != tt.want {
				t.Errorf("EmailVerified = %v, want %v", got.EmailVerified, tt.want)
			}
			if got.Email != "ada@example.com" {
				t.Errorf("Email = %q, want it returned whether verified or not", got.Email)
			}
		})
	}
}

func TestVerifyEmailVerifiedGarbageRefused(t *testing.T) {
	t.Parallel()
	p := idptest.NewProvider(t)
	v := newVerifier(t, p, pastClock)

	claims := claimsAt(p, pastClock)
	claims["email_verified"] = "yes"
	_, err := v.Verify(context.Background(), p.Sign(t, claims))
	requireInvalid(t, err)
}

func TestVerifyMissingSubjectRefused(t *testing.T) {
	t.Parallel()
	p := idptest.NewProvider(t)
	v := newVerifier(t, p, pastClock)

	claims := claimsAt(p, pastClock)
	delete(claims, "sub")
	_, err := v.Verify(context.Background(), p.Sign(t, claims))
	requireInvalid(t, err)
}

func TestVerifyMalformedToken(t *testing.T) {
	t.Parallel()
	p := idptest.NewProvider(t)
	v := newVerifier(t, p, pastClock)

	for _, raw := range []string{"", "not-a-jwt", "a.b.c"} {
		_, err := v.Verify(context.Background(), raw)
		requireInvalid(t, err)
	}
}

func TestVerifyKeySetUnavailable(t *testing.T) {
	t.Parallel()
	p := idptest.NewProvider(t)
	v := newVerifier(t, p, pastClock)
	token := p.Sign(t, claimsAt(p, pastClock))

	p.SetFailing(true)
	_, err := v.Verify(context.Background(), token)
	requireUnavailable(t, err)

	// A failed fetch is not cached: once the provider is back, the same
	// verifier accepts the token.
	p.SetFailing(false)
	if _, err := v.Verify(context.Background(), token); err != nil {
		t.Fatalf("Verify after recovery: %v", err)
	}
}

func TestVerifyKeySetUnreachable(t *testing.T) {
	t.Parallel()
	p := idptest.NewProvider(t)
	down := httptest.NewServer(http.NotFoundHandler())
	down.Close() // nothing listens there any more

	cfg := idp.Config{Issuer: p.URL, KeySetURL: down.URL + "/jwks", Audience: audience}
	v := idp.NewVerifier(cfg, &http.Client{Timeout: 5 * time.Second}, func() time.Time { return pastClock })
	_, err := v.Verify(context.Background(), p.Sign(t, claimsAt(p, pastClock)))
	requireUnavailable(t, err)
}
