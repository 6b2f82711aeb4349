package auth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/clientaddr"
	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/internal/jobs"
	"github.com/nestegg/nestegg/internal/member"
	"github.com/nestegg/nestegg/internal/password"
	"github.com/nestegg/nestegg/internal/problem"
	"github.com/nestegg/nestegg/internal/settings"
	"github.com/nestegg/nestegg/internal/throttle"
)

// Sign-up attempts are counted per client address over signupWindow; the
// limit is the SIGNUP_LIMIT_PER_HOUR setting.
const signupWindow = time.Hour

// Failed logins allowed within throttle.Window. The tight limit counts an
// e-mail from one client address, so a stranger's guesses lock only
// themselves out, never the owner signing in from elsewhere. The looser
// per-e-mail ceiling still bounds guessing spread over many addresses, and
// the per-address limit a guesser trying many e-mails (higher than the pair's:
// a household or a carrier's NAT shares one address).
const (
	loginFailuresPerEmailAddress = 10
	loginFailuresPerEmail        = 100
	loginFailuresPerAddress      = 50
)

// SignUp creates a LOCAL member and signs them in.
func (h *Handler) SignUp(ctx context.Context, req api.SignUpRequestObject) (api.SignUpResponseObject, error) {
	b := req.Body
	if b.Website != nil && strings.TrimSpace(*b.Website) != "" {
		return nil, problem.Invalid("/website", "must be empty")
	}
	q := db.New(h.pool)
	enabled, err := settings.SignupEnabled(ctx, q)
	if err != nil {
		return nil, err
	}
	if !enabled {
		return nil, problem.New(http.StatusForbidden, problem.CodeSignupDisabled, "sign-up is closed for now")
	}
	if err := h.countSignupAttempt(ctx); err != nil {
		return nil, err
	}
	m, err := member.CreateLocal(ctx, q, member.NewLocal{Email: string(b.Email), Password: b.Password, Name: b.Name})
	if err != nil {
		return nil, err
	}
	res, err := h.signIn(ctx, member.SignInOf(m))
	if err != nil {
		return nil, err
	}
	return api.SignUp201JSONResponse(res), nil
}

// countSignupAttempt records an attempt from the client's address, refusing
// it when the address has used up the hour's attempts. It is committed on
// its own so that attempts which then fail still count.
func (h *Handler) countSignupAttempt(ctx context.Context) error {
	addr := clientaddr.LimitKey(clientaddr.From(ctx))
	now := h.clock.Now()
	return database.InTx(ctx, h.pool, func(q *db.Queries) error {
		if err := q.LockSignupAddress(ctx, addr); err != nil {
			return fmt.Errorf("lock sign-up address: %w", err)
		}
		row, err := q.CountSignupAttempts(ctx, db.CountSignupAttemptsParams{Address: addr, Since: now.Add(-signupWindow)})
		if err != nil {
			return fmt.Errorf("count sign-up attempts: %w", err)
		}
		if row.Attempts >= int64(h.signupLimit) {
			return throttle.Limited(row.Oldest.Add(signupWindow).Sub(now),
				fmt.Sprintf("at most %d sign-ups an hour from one address; try again later", h.signupLimit))
		}
		return q.RecordSignupAttempt(ctx, db.RecordSignupAttemptParams{Address: addr, AttemptedAt: now})
	})
}

// CleanupJob deletes sign-up attempts too old to count against any limit.
func CleanupJob(pool *pgxpool.Pool) jobs.Job {
	return jobs.Job{
		Name:  "signup-attempt-cleanup",
		Every: 24 * time.Hour,
		Run: func(ctx context.Context, now time.Time) error {
			if _, err := db.New(pool).DeleteSignupAttemptsBefore(ctx, now.Add(-signupWindow)); err != nil {
				return fmt.Errorf("delete old sign-up attempts: %w", err)
			}
			return nil
		},
	}
}

// LogIn signs a member in with e-mail and password. An unknown e-mail costs
// the same password check as a wrong password and gets the same answer.
// Every attempt is reserved against the limits before the password is
// checked, so parallel guesses cannot outrun them; the throttle keys on the
// e-mail as typed, so it says nothing about whether an account exists either.
func (h *Handler) LogIn(ctx context.Context, req api.LogInRequestObject) (api.LogInResponseObject, error) {
	email := strings.ToLower(strings.TrimSpace(req.Body.Email))
	addr := clientaddr.LimitKey(clientaddr.From(ctx))
	pairKey := throttle.EmailAddressKey(email, addr)
	attempt, err := h.throttle.Reserve(ctx,
		throttle.Limit{Key: pairKey, Max: loginFailuresPerEmailAddress},
		throttle.Limit{Key: throttle.EmailKey(email), Max: loginFailuresPerEmail},
		throttle.Limit{Key: throttle.AddressKey(addr), Max: loginFailuresPerAddress})
	if err != nil {
		return nil, err
	}
	m, err := member.GetCredentials(ctx, db.New(h.pool), email)
	var hash *string
	switch {
	case errors.Is(err, pgx.ErrNoRows):
	case err != nil:
		return nil, fmt.Errorf("find member: %w", err)
	default:
		hash = m.PasswordHash
	}
	ok, err := password.Verify(ctx, req.Body.Password, hash)
	if err != nil {
		// The check did not run: it is no failure of the caller's.
		_ = attempt.Release(context.WithoutCancel(ctx))
		return nil, err
	}
	if !ok {
		return nil, errBadCredentials
	}
	if err := attempt.Release(ctx); err != nil {
		return nil, err
	}
	if err := h.throttle.Clear(ctx, pairKey); err != nil {
		return nil, err
	}
	res, err := h.signIn(ctx, member.Credentials(m))
	if err != nil {
		return nil, err
	}
	return api.LogIn200JSONResponse(res), nil
}
