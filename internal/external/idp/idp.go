// Package idp verifies OpenID Connect ID tokens issued by the external
// identity providers ("idp-a", "idp-b") that users sign in with.
//
// The cryptography and the standard claim checks are done by go-oidc; this
// package only pins our policy (issuer, audience, algorithms, clock) and
// turns the result into a small Claims value and three error classes the
// HTTP layer can map to status codes.
package idp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
)

var (
	// ErrNotConfigured means the provider lacks an issuer, key set URL or
	// audience. Callers answer 503: verifying without an audience would
	// accept tokens minted for any other application of the same provider.
	ErrNotConfigured = errors.New("idp: provider not configured")

	// ErrInvalidToken wraps every reason a token is refused (signature,
	// algorithm, issuer, audience, expiry, malformed claims). Callers answer 401.
	ErrInvalidToken = errors.New("idp: invalid ID token")

	// ErrProviderUnavailable means the provider's key set could not be
	// fetched, so the token could be neither accepted nor refused. It does
	// not wrap ErrInvalidToken; callers answer 502 or 503.
	ErrProviderUnavailable = errors.New("idp: provider key set unavailable")
)

// defaultHTTPTimeout bounds key set fetches when the caller gives no client:
// go-oidc fetches in a background goroutine that ignores request
// cancellation, so http.DefaultClient could leave it hanging forever.
const defaultHTTPTimeout = 10 * time.Second

// Config describes one identity provider.
type Config struct {
	Issuer    string // expected "iss"
	KeySetURL string // JWKS address
	Audience  string // expected "aud" (client id / app identifier); empty => not configured
}

// Claims are the identity facts the login flow needs from a verified token.
type Claims struct {
	Subject string
	Email   string
	// EmailVerified is false when the provider did not vouch for Email;
	// such an address must not be used to link to an existing account.
	EmailVerified bool
	Name          string
	Picture       string
}

// Verifier checks ID tokens of one provider. It is safe for concurrent use
// and should live as long as the process so the key set cache is shared.
type Verifier struct {
	issuer string
	keys   *oidc.RemoteKeySet // nil when the configuration is incomplete
	config *oidc.Config
}

// NewVerifier returns a verifier for cfg. httpClient fetches the key set
// (nil means a client with a timeout); now is the service clock used for
// expiry checks (nil means time.Now).
//
// An incomplete cfg is not an error here so the service can start without
// every provider; Verify then returns ErrNotConfigured.
func NewVerifier(cfg Config, httpClient *http.Client, now func() time.Time) *Verifier {
	if httpClient == nil {
		httpClient = &http.Client{Timeout: defaultHTTPTimeout}
	}
	if now == nil {
		now = time.Now
	}
	v := &Verifier{
		issuer: cfg.Issuer,
		config: &oidc.Config{
			ClientID: cfg.Audience,
			// Our list, not the token's or the provider's: this is what
			// refuses "none", HS256 keyed with the public key, and the like.
			SupportedSigningAlgs: []string{oidc.RS256, oidc.ES256},
			Now:                  now,
		},
	}
	if cfg.Issuer != "" && cfg.KeySetURL != "" && cfg.Audience != "" {
		// The remote key set caches keys and refetches only on an unknown
		// key id, so it is built once here and shared by every call. The
		// context only carries the HTTP client; go-oidc ignores its cancellation.
		ctx := oidc.ClientContext(context.Background(), httpClient)
		v.keys = oidc.NewRemoteKeySet(ctx, cfg.KeySetURL)
	}
	return v
}

// Verify checks rawIDToken and returns its claims. Errors wrap exactly one
// of ErrNotConfigured, ErrInvalidToken or ErrProviderUnavailable. A ctx
// cancelled while the key set is being fetched counts as unavailable.
//
// Verify does not check a nonce; the caller does that if its flow uses one.
func (v *Verifier) Verify(ctx context.Context, rawIDToken string) (Claims, error) {
	if v.keys == nil {
		return Claims{}, ErrNotConfigured
	}

	// go-oidc flattens key set errors into text, so a per-call wrapper
	// records a failed fetch before the cause is lost.
	keys := &recordingKeySet{keys: v.keys}
	token, err := oidc.NewVerifier(v.issuer, keys, v.config).Verify(ctx, rawIDToken)
	if keys.fetchErr != nil {
		return Claims{}, fmt.Errorf("%w: %w", ErrProviderUnavailable, keys.fetchErr)
	}
	if err != nil {
		return Claims{}, fmt.Errorf("%w: %w", ErrInvalidToken, err)
	}

	// An empty subject would make every such token the same account.
	if token.Subject == "" {
		return Claims{}, fmt.Errorf("%w: missing sub claim", ErrInvalidToken)
	}

	var extra struct {
		Email         string       `json:"email"`
		EmailVerified flexibleBool `json:"email_verified"`
		Name          string       `json:"name"`
		Picture       string       `json:"picture"`
	}
	if err := token.Claims(&extra); err != nil {
		return Claims{}, fmt.Errorf("%w: %w", ErrInvalidToken, err)
	}
	return Claims{
		Subject:       token.Subject,
		Email:         extra.Email,
		EmailVerified: bool(extra.EmailVerified),
		Name:          extra.Name,
		Picture:       extra.Picture,
	}, nil
}

// recordingKeySet remembers whether the key set could not be fetched.
//
// go-oidc reports a failed fetch as "fetching keys %w" (wrapping the cause)
// and a signature no key matches as a bare errors.New, then formats either
// with %v. The wrapped/bare difference is the only structural signal it
// gives; the tests pin it (500 and unreachable key set) so an upstream
// change shows up as a test failure, not as a silent 401.
type recordingKeySet struct {
	keys     oidc.KeySet
	fetchErr error
}

func (r *recordingKeySet) VerifySignature(ctx context.Context, jwt string) ([]byte, error) {
	payload, err := r.keys.VerifySignature(ctx, jwt)
	if err != nil && errors.Unwrap(err) != nil {
		r.fetchErr = err
	}
	return payload, err
}

// flexibleBool decodes "email_verified", which some providers send as the
// string "true"/"false" instead of a JSON boolean. Missing or null is false.
type flexibleBool bool

func (b *flexibleBool) UnmarshalJSON(data []byte) error {
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	switch v := v.(type) {
	case nil:
		*b = false
	case bool:
		*b = flexibleBool(v)
	case string:
		switch strings.ToLower(v) {
		case "true":
			*b = true
		case "false":
			*b = false
		default:
			return fmt.Errorf("email_verified: unexpected value %q", v)
		}
	default:
		return fmt.Errorf("email_verified: unexpected JSON %s", data)
	}
	return nil
}
