package apitest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"sync"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/member"
	"github.com/nestegg/nestegg/internal/password"
)

// DefaultPassword is the password of members made by NewMember.
const DefaultPassword = "correct horse battery staple"

// defaultPasswordHash is DefaultPassword's argon2id hash, computed once per
// test binary: hashing is deliberately slow, and member-heavy tests on two
// cores would spend most of their time in it. (Each member still gets its own
// session; only the hash, salt included, is shared.)
var defaultPasswordHash = sync.OnceValues(func() (string, error) { return password.Hash(context.Background(), DefaultPassword) })

// Member is a member made for a test, signed in through the API.
type Member struct {
	*Client
	ID    int64
	Email string
}

// MemberOption changes a member before they are created.
type MemberOption func(*memberSpec)

type memberSpec struct {
	email, name, role, plan string
}

// AsAdmin makes the member an administrator.
func AsAdmin() MemberOption { return func(s *memberSpec) { s.role = "ADMIN" } }

// AsPremium gives the member a permanent PREMIUM plan.
func AsPremium() MemberOption { return func(s *memberSpec) { s.plan = "PREMIUM" } }

// WithEmail sets the member's e-mail.
func WithEmail(email string) MemberOption { return func(s *memberSpec) { s.email = email } }

// WithName sets the member's display name.
func WithName(name string) MemberOption { return func(s *memberSpec) { s.name = name } }

// NewMember creates a LOCAL member (directly, so the sign-up limit does not
// get in the way) and signs them in through POST /api/auth/login.
func (e *Env) NewMember(opts ...MemberOption) *Member {
	e.T.Helper()
	suffix := make([]byte, 6)
	_, _ = rand.Read(suffix)
	spec := memberSpec{email: "member-" + hex.EncodeToString(suffix) + "@nestegg.test", name: "Member " + hex.EncodeToString(suffix[:2]), role: "USER", plan: "FREE"}
	for _, o := range opts {
		o(&spec)
	}
	ctx := context.Background()
	q := db.New(e.Pool)
	hash, err := defaultPasswordHash()
	if err != nil {
		e.T.Fatalf("apitest: hash the default password: %v", err)
	}
	m, err := member.CreateLocalWithHash(ctx, q, member.NewLocal{Email: spec.email, Name: spec.name, Role: spec.role}, hash)
	if err != nil {
		e.T.Fatalf("apitest: create member: %v", err)
	}
	if spec.plan != "FREE" {
		if _, err := q.SetMemberPlanPermanent(ctx, db.SetMemberPlanPermanentParams{ID: m.ID, Plan: spec.plan}); err != nil {
			e.T.Fatalf("apitest: set plan: %v", err)
		}
	}
	return &Member{Client: e.LogIn(spec.email, DefaultPassword), ID: m.ID, Email: spec.email}
}

// LogIn signs in through the API and returns a client carrying the token.
func (e *Env) LogIn(email, pw string) *Client {
	e.T.Helper()
	var res api.AuthResult
	e.Client().Do(http.MethodPost, "/api/auth/login", api.LogInJSONRequestBody{Email: email, Password: pw}).
		Want(http.StatusOK).JSON(&res)
	if res.Token == "" {
		e.T.Fatal("apitest: login answered no token")
	}
	return e.Client().WithToken(res.Token)
}
