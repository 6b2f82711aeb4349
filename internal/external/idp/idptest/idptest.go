// Package idptest runs a fake OpenID Connect provider for tests: a real
// HTTP server with a discovery document and a JSON Web Key Set, and helpers
// that sign ID tokens the way a provider would (and the ways an attacker
// would).
package idptest

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"

	"github.com/nestegg/nestegg/internal/external/fake"
)

// Provider is a fake identity provider. Its issuer is URL.
type Provider struct {
	URL string
	srv *fake.Server

	mu        sync.Mutex
	key       *rsa.PrivateKey   // current signing key
	kid       string            // key id of key
	published []jose.JSONWebKey // public keys served at /jwks
	failing   bool              // /jwks answers 500 while set
	nextKeyID int               // makes key ids unique per provider
}

// NewProvider starts a provider with one RSA key. The server is closed when
// the test ends.
func NewProvider(t testing.TB) *Provider {
	t.Helper()
	p := &Provider{}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/openid-configuration", p.serveDiscovery)
	mux.HandleFunc("GET /jwks", p.serveKeySet)
	p.srv = fake.Start(t, mux.ServeHTTP)
	p.URL = p.srv.URL
	p.RotateKey(t)
	return p
}

// KeySetURL is the provider's jwks_uri.
func (p *Provider) KeySetURL() string { return p.URL + "/jwks" }

// KeySetFetches counts requests to the key set, failed ones included, so
// tests can tell a cached key from a refetched one.
func (p *Provider) KeySetFetches() int {
	n := 0
	for _, r := range p.srv.Requests() {
		if r.Method == http.MethodGet && r.Path == "/jwks" {
			n++
		}
	}
	return n
}

// SetFailing makes the key set endpoint answer 500 while failing is true.
func (p *Provider) SetFailing(failing bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.failing = failing
}

// RotateKey switches signing to a new RSA key with a new key id. The old
// public key stays published, as real providers do during a rollover.
func (p *Provider) RotateKey(t testing.TB) {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatalf("idptest: generate RSA key: %v", err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.nextKeyID++
	p.key = key
	p.kid = fmt.Sprintf("key-%d", p.nextKeyID)
	p.published = append(p.published, publicJWK(key.Public(), p.kid, jose.RS256))
}

// PublishKey adds a public key to the key set without signing with it, for
// tests that sign with their own key (WithKey) under kid.
func (p *Provider) PublishKey(pub crypto.PublicKey, kid string, alg jose.SignatureAlgorithm) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.published = append(p.published, publicJWK(pub, kid, alg))
}

// KeyID is the id of the current signing key.
func (p *Provider) KeyID() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.kid
}

// Token returns a well-formed ID token: iss is the provider, email is
// verified, iat is now.
func (p *Provider) Token(t testing.TB, sub, email, audience string, exp time.Time) string {
	t.Helper()
	return p.Sign(t, map[string]any{
		"iss":            p.URL,
		"sub":            sub,
		"aud":            audience,
		"email":          email,
		"email_verified": true,
		"iat":            time.Now().Unix(),
		"exp":            exp.Unix(),
	})
}

// Sign signs claims with RS256 using the current key and its kid.
func (p *Provider) Sign(t testing.TB, claims map[string]any) string {
	t.Helper()
	return p.SignWith(t, claims)
}

// SignOption changes how SignWith builds a token.
type SignOption func(*signOptions)

type signOptions struct {
	key  crypto.Signer
	kid  string
	alg  jose.SignatureAlgorithm
	hmac bool
	none bool
}

// WithKey signs with key instead of the provider's current key. The kid
// header stays the current one unless WithKeyID is also given, which makes
// "right kid, wrong key" the default forgery. The algorithm follows the key
// (RS256 for RSA, ES256/ES384/ES512 by curve) unless WithAlg is given.
func WithKey(key crypto.Signer) SignOption {
	return func(o *signOptions) { o.key = key }
}

// WithKeyID sets the kid header; "" leaves it out.
func WithKeyID(kid string) SignOption {
	return func(o *signOptions) { o.kid = kid }
}

// WithAlg forces the signature algorithm, e.g. RS512 with the real key.
func WithAlg(alg jose.SignatureAlgorithm) SignOption {
	return func(o *signOptions) { o.alg = alg }
}

// WithHS256PublicKey signs with HS256 using the PEM of the provider's
// public key as the HMAC secret: the classic algorithm confusion attack.
func WithHS256PublicKey() SignOption {
	return func(o *signOptions) { o.hmac = true }
}

// WithAlgNone returns an unsigned token with "alg":"none".
func WithAlgNone() SignOption {
	return func(o *signOptions) { o.none = true }
}

// SignWith signs claims as Sign does, changed by opts.
func (p *Provider) SignWith(t testing.TB, claims map[string]any, opts ...SignOption) string {
	t.Helper()
	p.mu.Lock()
	o := signOptions{key: p.key, kid: p.kid}
	p.mu.Unlock()
	for _, opt := range opts {
		opt(&o)
	}

	payload, err := json.Marshal(claims)
	if err != nil {
		t.Fatalf("idptest: marshal claims: %v", err)
	}

	switch {
	case o.none:
		return unsigned(t, o.kid, payload)
	case o.hmac:
		return sign(t, jose.HS256, publicKeyPEM(t, o.key.Public()), o.kid, payload)
	}
	alg := o.alg
	if alg == "" {
		alg = defaultAlg(t, o.key)
	}
	return sign(t, alg, o.key, o.kid, payload)
}

func sign(t testing.TB, alg jose.SignatureAlgorithm, key any, kid string, payload []byte) string {
	t.Helper()
	signer, err := jose.NewSigner(
		jose.SigningKey{Algorithm: alg, Key: jose.JSONWebKey{Key: key, KeyID: kid}},
		(&jose.SignerOptions{}).WithType("JWT"),
	)
	if err != nil {
		t.Fatalf("idptest: new %s signer: %v", alg, err)
	}
	jws, err := signer.Sign(payload)
	if err != nil {
		t.Fatalf("idptest: sign: %v", err)
	}
	token, err := jws.CompactSerialize()
	if err != nil {
		t.Fatalf("idptest: serialize: %v", err)
	}
	return token
}

// unsigned builds the token by hand: go-jose, rightly, cannot sign with "none".
func unsigned(t testing.TB, kid string, payload []byte) string {
	t.Helper()
	header := map[string]string{"alg": "none", "typ": "JWT"}
	if kid != "" {
		header["kid"] = kid
	}
	h, err := json.Marshal(header)
	if err != nil {
		t.Fatalf("idptest: marshal header: %v", err)
	}
	enc := base64.RawURLEncoding
	return enc.EncodeToString(h) + "." + enc.EncodeToString(payload) + "."
}

func defaultAlg(t testing.TB, key crypto.Signer) jose.SignatureAlgorithm {
	t.Helper()
	switch k := key.(type) {
	case *rsa.PrivateKey:
		return jose.RS256
	case *ecdsa.PrivateKey:
		switch k.Curve {
		case elliptic.P256():
			return jose.ES256
		case elliptic.P384():
			return jose.ES384
		case elliptic.P521():
			return jose.ES512
		}
	}
	t.Fatalf("idptest: no default algorithm for %T; use WithAlg", key)
	return ""
}

func publicKeyPEM(t testing.TB, pub crypto.PublicKey) []byte {
	t.Helper()
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		t.Fatalf("idptest: marshal public key: %v", err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})
}

func publicJWK(pub crypto.PublicKey, kid string, alg jose.SignatureAlgorithm) jose.JSONWebKey {
	return jose.JSONWebKey{Key: pub, KeyID: kid, Algorithm: string(alg), Use: "sig"}
}

func (p *Provider) serveDiscovery(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, map[string]any{
		"issuer":                                p.URL,
		"jwks_uri":                              p.KeySetURL(),
		"authorization_endpoint":                p.URL + "/authorize",
		"token_endpoint":                        p.URL + "/token",
		"response_types_supported":              []string{"code"},
		"subject_types_supported":               []string{"public"},
		"id_token_signing_alg_values_supported": []string{"RS256"},
	})
}

func (p *Provider) serveKeySet(w http.ResponseWriter, _ *http.Request) {
	p.mu.Lock()
	failing := p.failing
	set := jose.JSONWebKeySet{Keys: append([]jose.JSONWebKey(nil), p.published...)}
	p.mu.Unlock()

	if failing {
		http.Error(w, "key set unavailable", http.StatusInternalServerError)
		return
	}
	writeJSON(w, set)
}

func writeJSON(w http.ResponseWriter, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(body)
}
