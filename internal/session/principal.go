package session

import (
	"context"
	"time"
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
