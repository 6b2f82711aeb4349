// Package member owns the member table: creating, finding, changing and
// deleting members, and how a member is shown on the wire. Other areas call
// these functions instead of querying the table.
package member

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/mail"
	"strings"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/internal/ledger"
	"github.com/nestegg/nestegg/internal/password"
	"github.com/nestegg/nestegg/internal/problem"
	"github.com/nestegg/nestegg/internal/session"
	"github.com/nestegg/nestegg/internal/text"
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

// NormalizeName trims a display name and checks its length (1 to 50) and
// characters: control, format (zero-width) and direction-override characters
// are how one member's name is made to look like another's.
func NormalizeName(field, s string) (string, error) {
	s = strings.TrimSpace(s)
	if n := utf8.RuneCountInString(s); n < 1 || n > 50 {
		return "", problem.Invalid(field, "must be 1 to 50 characters, not only spaces")
	}
	if err := text.CheckLine(field, s); err != nil {
		return "", err
	}
	return s, nil
}

// Get returns the member with id, or a 404 problem.
// A household book's ledger owner (kind BOOK) is no member: 404.
func Get(ctx context.Context, q *db.Queries, id int64) (db.Member, error) {
	m, err := q.GetMember(ctx, id)
	if err == nil && m.Kind != KindPerson {
		return db.Member{}, ErrNotFound
	}
	return m, notFound(err, id)
}

// Kinds of member rows: a person, or a household book's ledger owner
// (internal/book), which never signs in.
const (
	KindPerson = "PERSON"
	KindBook   = "BOOK"
)

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

// NewLocal is what a LOCAL member is created from. CreateLocal hashes the
// password: call it outside a transaction.
type NewLocal struct {
	Email, Password, Name, Role string
}

// CreateLocal validates and creates a LOCAL member with a password.
func CreateLocal(ctx context.Context, q *db.Queries, in NewLocal) (db.Member, error) {
	// Checked before hashing, so that bad input costs no argon2 work.
	if _, err := NormalizeEmail("/email", in.Email); err != nil {
		return db.Member{}, err
	}
	if _, err := NormalizeName("/name", in.Name); err != nil {
		return db.Member{}, err
	}
	if !password.ValidLength(in.Password) {
		return db.Member{}, problem.Invalid("/password", "must be 8 to 128 characters")
	}
	hash, err := password.Hash(ctx, in.Password)
	if err != nil {
		return db.Member{}, err
	}
	return CreateLocalWithHash(ctx, q, in, hash)
}

// Delete removes the member and, through the cascading foreign keys every
// member-owned table declares, everything that is theirs, in one statement.
// q is a transaction: the member's ledger lock is taken exclusively first
// (ledger/locks.go), so no ledger write is halfway while the cascade runs,
// and those that come meanwhile find the account gone.
func Delete(ctx context.Context, q *db.Queries, id int64) error {
	if err := ledger.LockLedgerTx(ctx, q, id); err != nil {
		return err
	}
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
	return database.InTx(ctx, pool, func(q *db.Queries) error { return Delete(ctx, q, id) })
}

// SignIn is what starting a session needs of a member.
type SignIn struct {
	Principal session.Principal
	Status    string
	// Epoch is the member's session epoch, read with their credentials.
	Epoch int64
}

// SignInOf is the sign-in of a member row.
func SignInOf(m db.Member) SignIn {
	return SignIn{
		Principal: session.Principal{
			MemberID: m.ID, Email: m.Email, Name: m.Name, Role: m.Role, Plan: m.Plan, PlanExpiresAt: m.PlanExpiresAt,
		},
		Status: m.Status, Epoch: m.SessionEpoch,
	}
}

// Credentials is the sign-in of the row a password login read.
func Credentials(m db.GetMemberCredentialsRow) SignIn {
	return SignIn{
		Principal: session.Principal{
			MemberID: m.ID, Email: m.Email, Name: m.Name, Role: m.Role, Plan: m.Plan, PlanExpiresAt: m.PlanExpiresAt,
		},
		Status: m.Status, Epoch: m.SessionEpoch,
	}
}

// BootstrapAdmin makes email an administrator at start-up with password pw.
// It creates the member when there is none. An existing account is promoted
// only when its password is pw: otherwise whoever signed up with that e-mail
// first would become administrator with their own password. Such an account
// gets pw as its password and loses its sessions, and a warning is logged.
// An account that is already an administrator is left as it is: its own
// password, and a suspension another administrator decided, survive a
// restart. Running it again changes nothing.
func BootstrapAdmin(ctx context.Context, pool *pgxpool.Pool, email, pw string) error {
	email, err := NormalizeEmail("ADMIN_EMAIL", email)
	if err != nil {
		return fmt.Errorf("ADMIN_EMAIL: %w", err)
	}
	q := db.New(pool)
	existing, err := q.GetMemberCredentials(ctx, email)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		hash, err := password.Hash(ctx, pw)
		if err != nil {
			return err
		}
		name, _, _ := strings.Cut(email, "@")
		_, err = q.CreateAdminIfAbsent(ctx, db.CreateAdminIfAbsentParams{Email: &email, PasswordHash: &hash, Name: truncate(name, 50)})
		if errors.Is(err, pgx.ErrNoRows) {
			// Another replica created it meanwhile: check it as an existing one.
			return BootstrapAdmin(ctx, pool, email, pw)
		}
		if err != nil {
			return fmt.Errorf("bootstrap administrator: %w", err)
		}
		return nil
	case err != nil:
		return fmt.Errorf("bootstrap administrator: %w", err)
	}
	if existing.Role == session.RoleAdmin {
		// Already an administrator: whatever happened to the account since
		// (a new password, a suspension by another administrator) was
		// somebody's decision, which a restart must not undo.
		if existing.Status != StatusActive {
			slog.Warn("ADMIN_EMAIL's administrator account is suspended; start-up leaves it so", "member_id", existing.ID)
		}
		return nil
	}
	ok, err := password.Verify(ctx, pw, existing.PasswordHash)
	if err != nil {
		return err
	}
	if ok {
		if _, err := q.SetMemberRole(ctx, db.SetMemberRoleParams{ID: existing.ID, Role: session.RoleAdmin}); err != nil {
			return fmt.Errorf("promote administrator: %w", err)
		}
		return nil
	}
	hash, err := password.Hash(ctx, pw)
	if err != nil {
		return err
	}
	if err := database.InTx(ctx, pool, func(q *db.Queries) error {
		if err := q.ResetAdminAccount(ctx, db.ResetAdminAccountParams{ID: existing.ID, PasswordHash: &hash}); err != nil {
			return fmt.Errorf("reset administrator account: %w", err)
		}
		if _, err := session.EndMemberSessionsTx(ctx, q, db.DeleteMemberAuthSessionsParams{MemberID: existing.ID}); err != nil {
			return fmt.Errorf("end administrator account's sessions: %w", err)
		}
		return nil
	}); err != nil {
		return err
	}
	slog.Warn("ADMIN_EMAIL belonged to an account whose password was not ADMIN_PASSWORD: it now has ADMIN_PASSWORD, is an administrator and was signed out everywhere",
		"member_id", existing.ID)
	return nil
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		return string(r[:n])
	}
	return s
}

// UserOf maps the signed-in member a session loaded to the wire's User.
func UserOf(p *session.Principal) api.User {
	return api.User{
		ID: p.MemberID, Email: p.Email, Name: p.Name, Role: api.RoleValue(p.Role), Plan: api.PlanValue(p.Plan), PlanExpiresAt: p.PlanExpiresAt,
	}
}

// ToUser maps a member to the wire's User.
func ToUser(m db.Member) api.User {
	return api.User{
		ID: m.ID, Email: m.Email, Name: m.Name,
		Role: api.RoleValue(m.Role), Plan: api.PlanValue(m.Plan), PlanExpiresAt: m.PlanExpiresAt,
	}
}

// ToProfile maps a member to the member's own view.
func ToProfile(m db.Member) api.Profile {
	return api.Profile{
		ID: m.ID, Email: m.Email, Name: m.Name,
		Role: api.RoleValue(m.Role), Plan: api.PlanValue(m.Plan), PlanExpiresAt: m.PlanExpiresAt,
		Points: m.Points, Provider: api.ProviderValue(m.Provider),
		IDPAPicture: m.IdpAPicture, ProfileImage: m.ProfileImage,
		MonthStartDay: int32(m.MonthStartDay),
	}
}

// ToAdmin maps a member to the administrators' view (no profile image).
func ToAdmin(m db.Member) api.AdminMember {
	return api.AdminMember{
		ID: m.ID, Email: m.Email, Name: m.Name,
		Role: api.RoleValue(m.Role), Status: api.MemberStatusValue(m.Status),
		Plan: api.PlanValue(m.Plan), PlanExpiresAt: m.PlanExpiresAt,
		PlanProduct: m.PlanProduct, PlanAutoRenew: m.PlanAutoRenew,
		Provider: api.ProviderValue(m.Provider), Points: m.Points, CreatedAt: m.CreatedAt,
	}
}

// ErrSelfAdminChange refuses an administrator's change to their own account.
var ErrSelfAdminChange = problem.New(http.StatusBadRequest, problem.CodeSelfAdminChange,
	"administrators cannot change or delete their own account here")
