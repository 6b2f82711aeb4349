package auth_test

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"net/http"
	"testing"
	"time"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/config"
	"github.com/nestegg/nestegg/internal/external/idp/idptest"
)

const (
	clientA   = "nestegg-client-a"
	audienceB = "com.nestegg.app"
)

// idpEnv runs the service with both identity providers served by local fakes.
func idpEnv(t *testing.T) (*apitest.Env, *idptest.Provider, *idptest.Provider) {
	t.Helper()
	a, b := idptest.NewProvider(t), idptest.NewProvider(t)
	env := apitest.New(t, apitest.WithConfig(func(cfg *config.Config) {
		cfg.IDPAClientID, cfg.IDPAIssuer, cfg.IDPAJWKSURL = clientA, a.URL, a.KeySetURL()
		cfg.IDPBAudience, cfg.IDPBIssuer, cfg.IDPBJWKSURL = audienceB, b.URL, b.KeySetURL()
	}))
	return env, a, b
}

func claims(p *idptest.Provider, sub, email, aud string) map[string]any {
	return map[string]any{
		"iss": p.URL, "sub": sub, "aud": aud, "email": email, "email_verified": true,
		"name": "Provider Name", "picture": "https://idp.example/avatar.png",
		"iat": apitest.Start.Unix(), "exp": apitest.Start.Add(time.Hour).Unix(),
	}
}

func idpLogin(c *apitest.Client, path, token string) *apitest.Response {
	// Both providers' operations take the same IDTokenRequest.
	return c.Do(http.MethodPost, path, api.IDTokenRequest{IDToken: token})
}

func TestIdpALoginCreatesThenFindsTheMember(t *testing.T) {
	t.Parallel()
	env, a, _ := idpEnv(t)
	var first, second api.AuthResult
	idpLogin(env.Client(), "/api/auth/idp-a", a.Sign(t, claims(a, "sub-1", "new@nestegg.test", clientA))).Want(http.StatusOK).JSON(&first)
	if first.Token == "" || first.User.Name != "Provider Name" || first.User.Email == nil || *first.User.Email != "new@nestegg.test" {
		t.Fatalf("first login %+v", first)
	}
	var p api.Profile
	env.Client().WithToken(first.Token).Do(http.MethodGet, "/api/auth/profile", nil).Want(http.StatusOK).JSON(&p)
	if p.Provider != "IDP_A" || p.IDPAPicture == nil || *p.IDPAPicture != "https://idp.example/avatar.png" {
		t.Fatalf("profile %+v", p)
	}
	idpLogin(env.Client(), "/api/auth/idp-a", a.Sign(t, claims(a, "sub-1", "new@nestegg.test", clientA))).Want(http.StatusOK).JSON(&second)
	if second.User.ID != first.User.ID || second.Token == first.Token {
		t.Fatalf("second login: member %d token reused=%v, want member %d and a new token", second.User.ID, second.Token == first.Token, first.User.ID)
	}
}

func TestIdpLoginLinksTheLocalMemberWithTheSameVerifiedEmail(t *testing.T) {
	t.Parallel()
	env, a, b := idpEnv(t)
	local := env.NewMember(apitest.WithEmail("linked@nestegg.test"))
	var res api.AuthResult
	idpLogin(env.Client(), "/api/auth/idp-a", a.Sign(t, claims(a, "a-sub", "Linked@Nestegg.test", clientA))).Want(http.StatusOK).JSON(&res)
	if res.User.ID != local.ID {
		t.Fatalf("provider A login made member %d, want the LOCAL member %d", res.User.ID, local.ID)
	}
	idpLogin(env.Client(), "/api/auth/idp-b", b.Sign(t, claims(b, "b-sub", "linked@nestegg.test", audienceB))).Want(http.StatusOK).JSON(&res)
	if res.User.ID != local.ID {
		t.Fatalf("provider B login made member %d, want %d", res.User.ID, local.ID)
	}
	var p api.Profile
	env.Client().WithToken(res.Token).Do(http.MethodGet, "/api/auth/profile", nil).Want(http.StatusOK).JSON(&p)
	if p.Provider != "LOCAL" {
		t.Fatalf("linking changed the provider to %s", p.Provider)
	}
	var idpA, idpB *string
	if err := env.Pool.QueryRow(context.Background(), "SELECT idp_a_id, idp_b_id FROM member WHERE id = $1", local.ID).Scan(&idpA, &idpB); err != nil {
		t.Fatal(err)
	}
	if idpA == nil || *idpA != "a-sub" || idpB == nil || *idpB != "b-sub" {
		t.Fatalf("subjects %v %v not linked", idpA, idpB)
	}
	// The LOCAL account never proved its e-mail: whoever set its password may
	// not be the owner of the address (pre-account takeover). Linking ends
	// its sessions and clears its password; only the provider signs in now.
	local.Do(http.MethodGet, "/api/auth/session", nil).WantProblem(http.StatusUnauthorized, "UNAUTHENTICATED")
	login(env.Client(), local.Email, apitest.DefaultPassword).WantProblem(http.StatusUnauthorized, "UNAUTHENTICATED")
	env.Client().WithToken(res.Token).Do(http.MethodGet, "/api/auth/session", nil).Want(http.StatusOK)
}

// An account whose e-mail a provider verified keeps its sessions when a
// second provider links to it: nothing unproven is being trusted.
func TestIdpLinkToAProvenAccountKeepsItsSessions(t *testing.T) {
	t.Parallel()
	env, a, b := idpEnv(t)
	var first, second api.AuthResult
	idpLogin(env.Client(), "/api/auth/idp-a", a.Sign(t, claims(a, "a-sub", "proven@nestegg.test", clientA))).Want(http.StatusOK).JSON(&first)
	idpLogin(env.Client(), "/api/auth/idp-b", b.Sign(t, claims(b, "b-sub", "proven@nestegg.test", audienceB))).Want(http.StatusOK).JSON(&second)
	if second.User.ID != first.User.ID {
		t.Fatalf("provider B made member %d, want %d", second.User.ID, first.User.ID)
	}
	env.Client().WithToken(first.Token).Do(http.MethodGet, "/api/auth/session", nil).Want(http.StatusOK)
}

func TestIdpLoginDoesNotLinkAnUnverifiedEmail(t *testing.T) {
	t.Parallel()
	env, a, _ := idpEnv(t)
	local := env.NewMember(apitest.WithEmail("victim@nestegg.test"))
	c := claims(a, "attacker", "victim@nestegg.test", clientA)
	c["email_verified"] = false
	var res api.AuthResult
	idpLogin(env.Client(), "/api/auth/idp-a", a.Sign(t, c)).Want(http.StatusOK).JSON(&res)
	if res.User.ID == local.ID || res.User.Email != nil {
		t.Fatalf("unverified e-mail linked or stored: %+v", res.User)
	}
}

func TestIdpLoginRefusesBadTokens(t *testing.T) {
	t.Parallel()
	env, a, b := idpEnv(t)
	other, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	good := func() map[string]any { return claims(a, "s", "x@nestegg.test", clientA) }
	with := func(k string, v any) map[string]any { c := good(); c[k] = v; return c }
	cases := map[string]string{
		"wrong audience":     a.Sign(t, with("aud", "someone-else")),
		"wrong issuer":       a.Sign(t, with("iss", b.URL)),
		"expired":            a.Sign(t, with("exp", apitest.Start.Add(-time.Minute).Unix())),
		"bad signature":      a.SignWith(t, good(), idptest.WithKey(other)),
		"unknown key id":     a.SignWith(t, good(), idptest.WithKey(other), idptest.WithKeyID("unknown")),
		"alg none":           a.SignWith(t, good(), idptest.WithAlgNone()),
		"HS256 public key":   a.SignWith(t, good(), idptest.WithHS256PublicKey()),
		"other provider":     b.Sign(t, claims(b, "s", "x@nestegg.test", clientA)),
		"not a token at all": "not-a-jwt",
	}
	for name, token := range cases {
		t.Run(name, func(t *testing.T) {
			idpLogin(env.Client(), "/api/auth/idp-a", token).WantProblem(http.StatusUnauthorized, "UNAUTHENTICATED")
		})
	}
	if n := countMembers(t, env); n != 0 {
		t.Fatalf("%d members created by refused tokens", n)
	}
}

func TestIdpLoginUnconfiguredOrUnreachable(t *testing.T) {
	t.Parallel()
	env := apitest.New(t) // no provider settings
	a := idptest.NewProvider(t)
	idpLogin(env.Client(), "/api/auth/idp-a", a.Sign(t, claims(a, "s", "x@nestegg.test", ""))).
		WantProblem(http.StatusServiceUnavailable, "SERVICE_UNAVAILABLE")
	idpLogin(env.Client(), "/api/auth/idp-b", a.Sign(t, claims(a, "s", "x@nestegg.test", ""))).
		WantProblem(http.StatusServiceUnavailable, "SERVICE_UNAVAILABLE")
	var id api.ClientID
	env.Client().Do(http.MethodGet, "/api/auth/idp-a-client-id", nil).Want(http.StatusOK).JSON(&id)
	if id.ClientID != nil {
		t.Fatalf("client id %q without configuration", *id.ClientID)
	}

	configured, pa, _ := idpEnv(t)
	configured.Client().Do(http.MethodGet, "/api/auth/idp-a-client-id", nil).Want(http.StatusOK).JSON(&id)
	if id.ClientID == nil || *id.ClientID != clientA {
		t.Fatalf("client id %v", id.ClientID)
	}
	pa.SetFailing(true)
	idpLogin(configured.Client(), "/api/auth/idp-a", pa.Sign(t, claims(pa, "s", "x@nestegg.test", clientA))).
		WantProblem(http.StatusServiceUnavailable, "DEPENDENCY_UNAVAILABLE")
}

func TestIdpLoginOfASuspendedMemberIsRefused(t *testing.T) {
	t.Parallel()
	env, a, _ := idpEnv(t)
	var res api.AuthResult
	idpLogin(env.Client(), "/api/auth/idp-a", a.Sign(t, claims(a, "s", "s@nestegg.test", clientA))).Want(http.StatusOK).JSON(&res)
	if _, err := env.Pool.Exec(context.Background(), "UPDATE member SET status = 'SUSPENDED' WHERE id = $1", res.User.ID); err != nil {
		t.Fatal(err)
	}
	idpLogin(env.Client(), "/api/auth/idp-a", a.Sign(t, claims(a, "s", "s@nestegg.test", clientA))).WantProblem(http.StatusUnauthorized, "UNAUTHENTICATED")
}

// Parallel first sign-ins of one subject end with one member.
func TestParallelFirstIdpLogins(t *testing.T) {
	t.Parallel()
	env, a, _ := idpEnv(t)
	token := a.Sign(t, claims(a, "racer", "racer@nestegg.test", clientA))
	answers := apitest.TogetherV(6, func(int) *apitest.Response {
		return idpLogin(env.Client(), "/api/auth/idp-a", token)
	})
	var first int64
	for _, res := range answers {
		var auth api.AuthResult
		res.Want(http.StatusOK).JSON(&auth)
		id := auth.User.ID
		if first == 0 {
			first = id
		}
		if id != first {
			t.Fatalf("parallel logins made members %d and %d", first, id)
		}
	}
	if n := countMembers(t, env); n != 1 {
		t.Fatalf("%d members", n)
	}
}
