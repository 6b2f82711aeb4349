// Package member owns the member table: creating, finding, changing and
// deleting members, and how a member is shown on the wire. Other areas call
// these functions instead of querying the table.
package member

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/mail"
	"strings"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/internal/password"
	"github.com/nestegg/nestegg/internal/problem"
	"github.com/nestegg/nestegg/internal/session"
)

// Providers, as stored.
const (
	ProviderLocal = "LOCAL"
	ProviderIDPA  = "IDP_A"
	ProviderIDPB  = "IDP_B"

	StatusActive    = "ACTIVE"
	StatusSuspended = "SUSPENDED"
)

// ErrEmailTaken is the answer to an e-mail another member already has.
var ErrEmailTaken = problem.Conflict(problem.CodeConflict, "this e-mail is already in use")

// NormalizeEmail trims and lower-cases an address, refusing one that is not a
// plain address (no display name, no angle brackets).
func NormalizeEmail(field, s string) (string, error) {
	s = strings.TrimSpace(s)
	a, err := mail.ParseAddress(s)
	if err != nil || a.Address != s || len(s) > 254 {
		return "", problem.Invalid(field, "must be an e-mail address such as name@example.com")
	}
	return strings.ToLower(s), nil
}

// NormalizeName trims a display name and checks its length (1 to 50).
func NormalizeName(field, s string) (string, error) {
	s = strings.TrimSpace(s)
	if n := utf8.RuneCountInString(s); n < 1 || n > 50 {
		return "", problem.Invalid(field, "must be 1 to 50 characters, not only spaces")
	}
	return s, nil
}

// Get returns the member with id, or a 404 problem.
func Get(ctx context.Context, q *db.Queries, id int64) (db.Member, error) {
	m, err := q.GetMember(ctx, id)
	return m, notFound(err, id)
}

// ErrSelfGone answers an operation on one's own account when the account was
// deleted meanwhile: the session is over, so it is a 401, not a 404.
var ErrSelfGone = problem.New(http.StatusUnauthorized, problem.CodeUnauthenticated, "the signed-in account no longer exists")

// GetSelf is Get for the signed-in member's own account.
func GetSelf(ctx context.Context, q *db.Queries, id int64) (db.Member, error) {
	m, err := q.GetMember(ctx, id)
	return m, Self(err, id)
}

// GetSelfForUpdate is GetSelf with the row locked until the transaction ends.
func GetSelfForUpdate(ctx context.Context, q *db.Queries, id int64) (db.Member, error) {
	m, err := q.GetMemberForUpdate(ctx, id)
	return m, Self(err, id)
}

// Self maps the error of a read or change of the signed-in member's own row:
// no row means the account is gone (ErrSelfGone).
func Self(err error, id int64) error {
	return database.NoRows(err, ErrSelfGone, fmt.Sprintf("member %d", id))
}

// ErrNotFound answers a member id that does not exist.
var ErrNotFound = problem.NotFound("member")

func notFound(err error, id int64) error {
	return database.NoRows(err, ErrNotFound, fmt.Sprintf("load member %d", id))
}

// NewLocal is what a LOCAL member is created from.
type NewLocal struct {
	Email, Password, Name, Role string
}

// CreateLocal validates and creates a LOCAL member with a password.
func CreateLocal(ctx context.Context, q *db.Queries, in NewLocal) (db.Member, error) {
	email, err := NormalizeEmail("/email", in.Email)
	if err != nil {
		return db.Member{}, err
	}
	name, err := NormalizeName("/name", in.Name)
	if err != nil {
		return db.Member{}, err
	}
	if !password.ValidLength(in.Password) {
		return db.Member{}, problem.Invalid("/password", "must be 8 to 128 characters")
	}
	hash, err := password.Hash(in.Password)
	if err != nil {
		return db.Member{}, err
	}
	role := in.Role
	if role == "" {
		role = session.RoleUser
	}
	m, err := q.CreateMember(ctx, db.CreateMemberParams{
		Email: &email, PasswordHash: &hash, Name: name, Role: role, Provider: ProviderLocal,
	})
	if database.IsUniqueViolation(err, "member_email_key") {
		return db.Member{}, ErrEmailTaken
	}
	if err != nil {
		return db.Member{}, fmt.Errorf("create member: %w", err)
	}
	return m, nil
}

// Delete removes the member and, through the cascading foreign keys every
// member-owned table declares, everything that is theirs, in one statement
// and so one transaction.
func Delete(ctx context.Context, q *db.Queries, id int64) error {
	n, err := q.DeleteMember(ctx, id)
	if err != nil {
		return fmt.Errorf("delete member %d: %w", id, err)
	}
	if n == 0 {
		return problem.NotFound("member")
	}
	return nil
}

// SessionEnder ends stored sessions of a member (the session manager).
type SessionEnder interface {
	EndMemberSessions(ctx context.Context, memberID int64, keepToken string) error
}

// DeleteWithSessions deletes a member, everything that is theirs and every
// stored session. The sessions end first: the session store finds the Redis
// copies through the member's auth_session rows, which the deletion's cascade
// would remove without telling Redis. A session an in-flight request saves in
// between is refused on its next use, as its member is gone.
func DeleteWithSessions(ctx context.Context, pool *pgxpool.Pool, sessions SessionEnder, id int64) error {
	if err := sessions.EndMemberSessions(ctx, id, ""); err != nil {
		return err
	}
	return Delete(ctx, db.New(pool), id)
}

// LoadSessionMember returns the current name, role and plan of an ACTIVE
// member, or nil for a member that is gone or suspended. Sessions call it on
// every request (one primary-key read), so a change of plan, role, status or
// name reaches every session of the member by its next request.
func LoadSessionMember(ctx context.Context, pool *pgxpool.Pool, id int64) (*session.Member, error) {
	row, err := db.New(pool).GetMemberPrincipal(ctx, id)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("load member %d: %w", id, err)
	}
	if row.Status != StatusActive {
		return nil, nil
	}
	return &session.Member{
		Principal:         session.Principal{MemberID: row.ID, Name: row.Name, Role: row.Role, Plan: row.Plan},
		SessionsRevokedAt: row.SessionsRevokedAt,
	}, nil
}

// BootstrapAdmin makes email an administrator at start-up: it creates the
// member with password when there is none, and promotes an existing one
// (leaving their password alone). Running it again changes nothing.
func BootstrapAdmin(ctx context.Context, pool *pgxpool.Pool, email, pw string) error {
	email, err := NormalizeEmail("ADMIN_EMAIL", email)
	if err != nil {
		return fmt.Errorf("ADMIN_EMAIL: %w", err)
	}
	hash, err := password.Hash(pw)
	if err != nil {
		return err
	}
	name, _, _ := strings.Cut(email, "@")
	if _, err := db.New(pool).PromoteOrCreateAdmin(ctx, db.PromoteOrCreateAdminParams{
		Email: &email, PasswordHash: &hash, Name: truncate(name, 50),
	}); err != nil {
		return fmt.Errorf("bootstrap administrator: %w", err)
	}
	return nil
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		return string(r[:n])
	}
	return s
}

// ToUser maps a member to the wire's User.
func ToUser(m db.Member) api.User {
	return api.User{
		ID: m.ID, Email: m.Email, Name: m.Name,
		Role: m.Role, Plan: m.Plan, PlanExpiresAt: m.PlanExpiresAt,
	}
}

// ToProfile maps a member to the member's own view.
func ToProfile(m db.Member) api.Profile {
	return api.Profile{
		ID: m.ID, Email: m.Email, Name: m.Name,
		Role: m.Role, Plan: m.Plan, PlanExpiresAt: m.PlanExpiresAt,
		Points: m.Points, Provider: m.Provider,
		IDPAPicture: m.IdpAPicture, ProfileImage: m.ProfileImage,
	}
}

// ToAdmin maps a member to the administrators' view (no profile image).
func ToAdmin(m db.Member) api.AdminMember {
	return api.AdminMember{
		ID: m.ID, Email: m.Email, Name: m.Name,
		Role: m.Role, Status: m.Status,
		Plan: m.Plan, PlanExpiresAt: m.PlanExpiresAt,
		PlanProduct: m.PlanProduct, PlanAutoRenew: m.PlanAutoRenew,
		Provider: m.Provider, Points: m.Points, CreatedAt: m.CreatedAt,
	}
}

// ErrSelfAdminChange refuses an administrator's change to their own account.
var ErrSelfAdminChange = problem.New(http.StatusBadRequest, problem.CodeSelfAdminChange,
	"administrators cannot change or delete their own account here")
