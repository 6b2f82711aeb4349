// Package auth serves sign-up, sign-in with a password or an identity
// provider's ID token, sign-out and the session.
package auth

import (
	"context"
	"net/http"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/clock"
	"github.com/nestegg/nestegg/internal/config"
	"github.com/nestegg/nestegg/internal/external/idp"
	"github.com/nestegg/nestegg/internal/member"
	"github.com/nestegg/nestegg/internal/problem"
	"github.com/nestegg/nestegg/internal/session"
	"github.com/nestegg/nestegg/internal/settings"
	"github.com/nestegg/nestegg/internal/throttle"
)

// Handler implements the auth operations of the contract.
type Handler struct {
	pool     *pgxpool.Pool
	sessions *session.Manager
	clock    clock.Clock
	idpA     *idp.Verifier
	idpB     *idp.Verifier
	clientID string
	throttle *throttle.Throttle
	// signupLimit is SIGNUP_LIMIT_PER_HOUR.
	signupLimit int
}

// Deps are what the auth handler is built from.
type Deps struct {
	Pool       *pgxpool.Pool
	Sessions   *session.Manager
	Clock      clock.Clock
	Config     config.Config
	HTTPClient *http.Client
	Throttle   *throttle.Throttle
}

// NewHandler returns the auth handler.
func NewHandler(d Deps) *Handler {
	return &Handler{
		pool:     d.Pool,
		sessions: d.Sessions,
		clock:    d.Clock,
		idpA: idp.NewVerifier(idp.Config{
			Issuer: d.Config.IDPAIssuer, KeySetURL: d.Config.IDPAJWKSURL, Audience: d.Config.IDPAClientID,
		}, d.HTTPClient, d.Clock.Now),
		idpB: idp.NewVerifier(idp.Config{
			Issuer: d.Config.IDPBIssuer, KeySetURL: d.Config.IDPBJWKSURL, Audience: d.Config.IDPBAudience,
		}, d.HTTPClient, d.Clock.Now),
		clientID: d.Config.IDPAClientID,
		throttle: d.Throttle,

		signupLimit: d.Config.SignupLimitPerHour,
	}
}

// GetSignupEnabled answers whether sign-up is open.
func (h *Handler) GetSignupEnabled(ctx context.Context, _ api.GetSignupEnabledRequestObject) (api.GetSignupEnabledResponseObject, error) {
	enabled, err := settings.SignupEnabled(ctx, db.New(h.pool))
	if err != nil {
		return nil, err
	}
	return api.GetSignupEnabled200JSONResponse{Enabled: enabled}, nil
}

// GetSession answers the signed-in member, as the session's one read of
// PostgreSQL loaded them.
func (h *Handler) GetSession(ctx context.Context, _ api.GetSessionRequestObject) (api.GetSessionResponseObject, error) {
	return api.GetSession200JSONResponse(member.UserOf(session.PrincipalFrom(ctx))), nil
}

// LogOut ends the session, if any.
func (h *Handler) LogOut(ctx context.Context, _ api.LogOutRequestObject) (api.LogOutResponseObject, error) {
	if err := h.sessions.End(ctx); err != nil {
		return nil, err
	}
	return api.LogOut204Response{}, nil
}

// GetIDPAClientID answers provider A's client id, or null.
func (h *Handler) GetIDPAClientID(context.Context, api.GetIDPAClientIDRequestObject) (api.GetIDPAClientIDResponseObject, error) {
	var id *string
	if h.clientID != "" {
		id = &h.clientID
	}
	return api.GetIDPAClientID200JSONResponse{ClientID: id}, nil
}

// signIn starts a session for the member and answers it.
func (h *Handler) signIn(ctx context.Context, s member.SignIn) (api.AuthResult, error) {
	if s.Status != member.StatusActive {
		return api.AuthResult{}, errBadCredentials
	}
	token, err := h.sessions.Start(ctx, s.Principal, s.Epoch)
	if err != nil {
		return api.AuthResult{}, err
	}
	return api.AuthResult{Token: token, User: member.UserOf(&s.Principal)}, nil
}

var errBadCredentials = problem.New(http.StatusUnauthorized, problem.CodeUnauthenticated, "the e-mail or the password is wrong")
