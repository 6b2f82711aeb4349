package auth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/internal/external/idp"
	"github.com/nestegg/nestegg/internal/member"
	"github.com/nestegg/nestegg/internal/problem"
	"github.com/nestegg/nestegg/internal/session"
)

// LogInWithIDPA signs in with an ID token of provider A.
func (h *Handler) LogInWithIDPA(ctx context.Context, req api.LogInWithIDPARequestObject) (api.LogInWithIDPAResponseObject, error) {
	res, err := h.idpLogin(ctx, providerA, req.Body.IDToken)
	if err != nil {
		return nil, err
	}
	return api.LogInWithIDPA200JSONResponse(res), nil
}

// LogInWithIDPB signs in with an ID token of provider B.
func (h *Handler) LogInWithIDPB(ctx context.Context, req api.LogInWithIDPBRequestObject) (api.LogInWithIDPBResponseObject, error) {
	res, err := h.idpLogin(ctx, providerB, req.Body.IDToken)
	if err != nil {
		return nil, err
	}
	return api.LogInWithIDPB200JSONResponse(res), nil
}

// provider is what differs between the two identity providers.
type provider struct {
	name      string // as stored in member.provider
	bySubject func(q *db.Queries, ctx context.Context, sub string) (db.Member, error)
	link      func(q *db.Queries, ctx context.Context, id int64, c idp.Claims) (db.Member, error)
	subjectOf func(m db.Member) *string
	newMember func(c idp.Claims) db.CreateMemberParams
}

var providerA = provider{
	name: member.ProviderIDPA,
	bySubject: func(q *db.Queries, ctx context.Context, sub string) (db.Member, error) {
		return member.GetByIdpA(ctx, q, &sub)
	},
	link: func(q *db.Queries, ctx context.Context, id int64, c idp.Claims) (db.Member, error) {
		return member.LinkIdpA(ctx, q, db.LinkIdpAParams{ID: id, Subject: &c.Subject, Picture: optional(c.Picture)})
	},
	subjectOf: func(m db.Member) *string { return m.IdpAID },
	newMember: func(c idp.Claims) db.CreateMemberParams {
		return db.CreateMemberParams{Provider: member.ProviderIDPA, IdpAID: &c.Subject, IdpAPicture: optional(c.Picture)}
	},
}

var providerB = provider{
	name: member.ProviderIDPB,
	bySubject: func(q *db.Queries, ctx context.Context, sub string) (db.Member, error) {
		return member.GetByIdpB(ctx, q, &sub)
	},
	link: func(q *db.Queries, ctx context.Context, id int64, c idp.Claims) (db.Member, error) {
		return member.LinkIdpB(ctx, q, db.LinkIdpBParams{ID: id, Subject: &c.Subject})
	},
	subjectOf: func(m db.Member) *string { return m.IdpBID },
	newMember: func(c idp.Claims) db.CreateMemberParams {
		return db.CreateMemberParams{Provider: member.ProviderIDPB, IdpBID: &c.Subject}
	},
}

func (h *Handler) verifier(p provider) *idp.Verifier {
	if p.name == member.ProviderIDPA {
		return h.idpA
	}
	return h.idpB
}

func (h *Handler) idpLogin(ctx context.Context, p provider, token string) (api.AuthResult, error) {
	claims, err := h.verifier(p).Verify(ctx, token)
	switch {
	case errors.Is(err, idp.ErrNotConfigured):
		return api.AuthResult{}, problem.Unavailable(problem.CodeServiceUnavailable, "this sign-in method is not configured", err)
	case errors.Is(err, idp.ErrInvalidToken):
		return api.AuthResult{}, &problem.Error{Status: http.StatusUnauthorized, Code: problem.CodeUnauthenticated,
			Detail: "the ID token could not be verified", Err: err}
	case err != nil:
		return api.AuthResult{}, problem.Unavailable(problem.CodeDependencyUnavailable, "the identity provider cannot be reached; try again", err)
	}
	m, err := h.findOrCreateInTx(ctx, p, claims)
	if database.IsUniqueViolation(err, "") {
		// Two first sign-ins of one subject raced to create the member; the
		// loser finds the winner's member on a second pass.
		m, err = h.findOrCreateInTx(ctx, p, claims)
	}
	if database.IsUniqueViolation(err, "") {
		return api.AuthResult{}, problem.Conflict(problem.CodeConflict, "this identity is being linked by another sign-in; try again")
	}
	if err != nil {
		return api.AuthResult{}, err
	}
	return h.signIn(ctx, member.SignInOf(m))
}

func (h *Handler) findOrCreateInTx(ctx context.Context, p provider, c idp.Claims) (db.Member, error) {
	var m db.Member
	err := database.InTx(ctx, h.pool, func(q *db.Queries) error {
		var err error
		m, err = findOrCreate(ctx, q, p, c)
		return err
	})
	return m, err
}

// findOrCreate finds the member of the provider subject, else links the
// member with the same verified e-mail, else creates one.
func findOrCreate(ctx context.Context, q *db.Queries, p provider, c idp.Claims) (db.Member, error) {
	m, err := p.bySubject(q, ctx, c.Subject)
	if err == nil {
		return m, nil
	}
	if !errors.Is(err, pgx.ErrNoRows) {
		return db.Member{}, fmt.Errorf("find member by %s subject: %w", p.name, err)
	}
	email := strings.ToLower(strings.TrimSpace(c.Email))
	if c.EmailVerified && email != "" {
		m, err := member.GetByEmail(ctx, q, email)
		switch {
		case err == nil:
			if sub := p.subjectOf(m); sub != nil && *sub != c.Subject {
				return db.Member{}, problem.Conflict(problem.CodeConflict,
					"this e-mail's account is already linked to another identity of this provider")
			}
			// Linking keeps the member's provider: it says where the account
			// began. An account whose e-mail was never proven loses its
			// password and sessions (the link query revokes them; their rows
			// go here, their Redis copies are refused on use).
			linked, err := p.link(q, ctx, m.ID, c)
			if err != nil {
				return db.Member{}, fmt.Errorf("link %s identity: %w", p.name, err)
			}
			if !m.EmailVerified {
				if _, err := session.EndMemberSessionsTx(ctx, q, db.DeleteMemberAuthSessionsParams{MemberID: m.ID}); err != nil {
					return db.Member{}, fmt.Errorf("end sessions of linked member: %w", err)
				}
			}
			return linked, nil
		case !errors.Is(err, pgx.ErrNoRows):
			return db.Member{}, fmt.Errorf("find member by e-mail: %w", err)
		}
	}
	params := p.newMember(c)
	if c.EmailVerified && email != "" {
		params.Email = &email
		params.EmailVerified = true
	}
	params.Name = displayName(c)
	params.Role = "USER"
	m, err = member.Create(ctx, q, params)
	if err != nil {
		return db.Member{}, fmt.Errorf("create member: %w", err)
	}
	return m, nil
}

// displayName is the provider's name for a new member, cut to 50
// characters; when it is empty or refused as a name (control or format
// characters that would let it pass for another member's), the e-mail's
// local part, else "member".
func displayName(c idp.Claims) string {
	local, _, _ := strings.Cut(c.Email, "@")
	for _, s := range []string{c.Name, local} {
		if r := []rune(strings.TrimSpace(s)); len(r) > 50 {
			s = string(r[:50])
		}
		if name, err := member.NormalizeName("/name", s); err == nil {
			return name
		}
	}
	return "member"
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
