package profile

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/jackc/pgx/v5"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/internal/member"
	"github.com/nestegg/nestegg/internal/password"
	"github.com/nestegg/nestegg/internal/problem"
	"github.com/nestegg/nestegg/internal/session"
	"github.com/nestegg/nestegg/internal/throttle"
)

var (
	errSocialAccount = problem.New(http.StatusBadRequest, problem.CodeSocialAccount,
		"this account signs in through an identity provider and has no password to change")
	errWrongPassword = problem.New(http.StatusBadRequest, problem.CodeWrongPassword,
		"the current password is wrong")
	errSamePassword = problem.New(http.StatusBadRequest, problem.CodeSamePassword,
		"the new password must differ from the current one")
)

// guessesPerMember is how many wrong passwords one member's sessions may try
// in throttle.Window, through verify-password and password change together:
// a stolen session must not become a password oracle.
const guessesPerMember = 10

// ChangePassword replaces the member's password and ends their other
// sessions; this one stays signed in.
func (h *ProfileHandler) ChangePassword(ctx context.Context, req api.ChangePasswordRequestObject) (api.ChangePasswordResponseObject, error) {
	p := session.PrincipalFrom(ctx)
	if err := h.changePassword(ctx, p, req.Body.CurrentPassword, req.Body.NewPassword); err != nil {
		return nil, err
	}
	if err := h.sessions.EndMemberSessions(ctx, p.MemberID, p.Token); err != nil {
		// The password is changed and the other sessions are already revoked
		// (their epoch is behind the member's); only their stored copies stay
		// until then, so the answer is still a success.
		slog.WarnContext(ctx, "end other sessions after password change",
			"request_id", problem.RequestID(ctx), "member_id", p.MemberID, "error", err)
	}
	return api.ChangePassword204Response{}, nil
}

// changePassword checks current against the member's password and stores
// next in its place, revoking every session but the caller's. Both argon2
// computations run before the transaction, which only swaps the hash if it is
// still the one checked.
func (h *ProfileHandler) changePassword(ctx context.Context, p *session.Principal, current, next string) error {
	if !password.ValidLength(next) {
		return problem.Invalid("/newPassword", "must be 8 to 128 characters")
	}
	oldHash, err := h.checkPassword(ctx, p.MemberID, current)
	if err != nil {
		return err
	}
	if oldHash == nil {
		return errWrongPassword
	}
	// current is the password, so comparing the strings is comparing with
	// the password.
	if next == current {
		return errSamePassword
	}
	newHash, err := password.Hash(ctx, next)
	if err != nil {
		return err
	}
	return database.InTx(ctx, h.pool, func(q *db.Queries) error {
		epoch, err := member.ReplacePassword(ctx, q, db.ReplaceMemberPasswordParams{ID: p.MemberID, NewHash: &newHash, OldHash: oldHash})
		if errors.Is(err, pgx.ErrNoRows) {
			return errPasswordChanged
		}
		if err != nil {
			return fmt.Errorf("replace password of member %d: %w", p.MemberID, err)
		}
		return session.KeepTx(ctx, q, p.Token, epoch)
	})
}

// checkPassword checks pw against the member's password, counting a wrong
// one against the member's guesses. It returns the hash pw matched, or nil
// for a wrong password.
func (h *ProfileHandler) checkPassword(ctx context.Context, id int64, pw string) (*string, error) {
	hash, err := member.PasswordHash(ctx, db.New(h.pool), id)
	if err = member.Self(err, id); err != nil {
		return nil, err
	}
	if hash == nil {
		return nil, errSocialAccount
	}
	attempt, err := h.throttle.Reserve(ctx, throttle.Limit{Key: throttle.MemberKey(id), Max: guessesPerMember})
	if err != nil {
		return nil, err
	}
	ok, err := password.Verify(ctx, pw, hash)
	if err != nil {
		_ = attempt.Release(context.WithoutCancel(ctx))
		return nil, err
	}
	if !ok {
		return nil, nil
	}
	if err := attempt.Release(ctx); err != nil {
		return nil, err
	}
	return hash, nil
}

var errPasswordChanged = problem.Conflict(problem.CodeConflict, "the password was changed meanwhile; sign in again")

// VerifyPassword answers whether the password is the member's.
func (h *ProfileHandler) VerifyPassword(ctx context.Context, req api.VerifyPasswordRequestObject) (api.VerifyPasswordResponseObject, error) {
	hash, err := h.checkPassword(ctx, session.PrincipalFrom(ctx).MemberID, req.Body.Password)
	if err == errSocialAccount {
		return api.VerifyPassword200JSONResponse{Valid: false}, nil
	}
	if err != nil {
		return nil, err
	}
	return api.VerifyPassword200JSONResponse{Valid: hash != nil}, nil
}
