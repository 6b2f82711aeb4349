package session

import (
	"context"
	"time"

	"github.com/nestegg/nestegg/generated/db"
)

// Roles and plans as stored and as on the wire.
const (
	RoleUser  = "USER"
	RoleAdmin = "ADMIN"

	PlanFree    = "FREE"
	PlanPremium = "PREMIUM"
)

// Principal is the signed-in member a request acts for.
type Principal struct {
	MemberID      int64
	Email         *string
	Name          string
	Role          string
	Plan          string
	PlanExpiresAt *time.Time
	// MonthStartDay is the day the member's ledger month begins (1..28),
	// read with the session; 0 when the principal was not read from
	// PostgreSQL on this request (a sign-in).
	MonthStartDay int
	// Token is the session token the request came with (needed to end the
	// member's other sessions but not this one).
	Token string
	// Book is set when the request acts in a household book (X-Book-Id,
	// internal/book): MemberID is then the book's ledger owner, Plan the
	// plan its OWNERs give it and MonthStartDay the book's, so every ledger
	// operation works on the book unchanged; the signed-in member is
	// Book.ActorID. Nil for the member's personal ledger.
	Book *BookScope
}

// BookScope is the household book a request acts in and who acts.
type BookScope struct {
	ID        int64
	Role      string // OWNER, EDITOR or VIEWER
	ActorID   int64
	ActorName string
	// Roster answers everyone who is or was in the book, by member id,
	// read once a request when an answer needs names (attribution). Key 0
	// is who the book's records written by no member (a job, an import, a
	// restore) count for: its longest-standing current OWNER.
	Roster func(ctx context.Context) (map[int64]RosterMember, error)
	// Hold locks the actor's membership in the book inside a write's
	// transaction (q is that transaction's), re-checking the role the
	// selector checked: the ledger's write lock step (ledger.LockLedgerSharedTx)
	// calls it first, so a removal or role change waits for the writes in
	// flight and a write after it is refused (404, 403).
	Hold func(ctx context.Context, q *db.Queries) error
}

// RosterMember is one person a book's records may name.
type RosterMember struct {
	ID     int64
	Name   string
	Former bool
}

// ActorID is the signed-in member who acts: MemberID in the personal
// ledger, the member acting in a book otherwise.
func (p *Principal) ActorID() int64 {
	if p.Book != nil {
		return p.Book.ActorID
	}
	return p.MemberID
}

// BookID is the book the request acts in, 0 for the personal ledger.
func (p *Principal) BookID() int64 {
	if p == nil || p.Book == nil {
		return 0
	}
	return p.Book.ID
}

// IsAdmin reports whether the member is an administrator.
func (p *Principal) IsAdmin() bool { return p != nil && p.Role == RoleAdmin }

// HasPremium reports whether PREMIUM operations are open to the member;
// administrators pass regardless of plan.
func (p *Principal) HasPremium() bool { return p != nil && (p.Plan == PlanPremium || p.IsAdmin()) }

type principalKey struct{}

// WithPrincipal returns ctx carrying p.
func WithPrincipal(ctx context.Context, p *Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// PrincipalFrom returns the signed-in member of ctx, or nil.
func PrincipalFrom(ctx context.Context) *Principal {
	p, _ := ctx.Value(principalKey{}).(*Principal)
	return p
}

type claimNoteKey struct{}

// WithClaimNote has the session layer tell note the member a session names
// when it cannot confirm them (PostgreSQL unreachable): the access log then
// names the member whose request failed. The claim comes from the session's
// data, not from PostgreSQL; nothing is authorized on it.
func WithClaimNote(ctx context.Context, note func(memberID int64)) context.Context {
	return context.WithValue(ctx, claimNoteKey{}, note)
}

func noteClaim(ctx context.Context, memberID int64) {
	if note, ok := ctx.Value(claimNoteKey{}).(func(int64)); ok && memberID != 0 {
		note(memberID)
	}
}
