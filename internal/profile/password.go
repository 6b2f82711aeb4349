package profile

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

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

// ChangePassword replaces the member's password and ends their other
// sessions; this one stays signed in.
func (h *ProfileHandler) ChangePassword(ctx context.Context, req api.ChangePasswordRequestObject) (api.ChangePasswordResponseObject, error) {
	p := session.PrincipalFrom(ctx)
	revokedAt, err := changePassword(ctx, h.pool, p.MemberID, req.Body.CurrentPassword, req.Body.NewPassword)
	if err != nil {
		return nil, err
	}
	h.sessions.KeepAfterRevocation(ctx, revokedAt)
	if err := h.sessions.EndMemberSessions(ctx, p.MemberID, p.Token); err != nil {
		// The password is changed and the other sessions are already revoked
		// (sessions_revoked_at ends them on their next request); only their
		// stored copies stay until then, so the answer is still a success.
		slog.WarnContext(ctx, "end other sessions after password change",
			"request_id", problem.RequestID(ctx), "member_id", p.MemberID, "error", err)
	}
	return api.ChangePassword204Response{}, nil
}

// changePassword checks current against the member's password and stores
// next in its place, revoking every session that signed in before. It
// returns the revocation time, which the caller's own session must outlive.
func changePassword(ctx context.Context, pool *pgxpool.Pool, id int64, current, next string) (time.Time, error) {
	if !password.ValidLength(next) {
		return time.Time{}, problem.Invalid("/newPassword", "must be 8 to 128 characters")
	}
	var revokedAt time.Time
	err := database.InTx(ctx, pool, func(q *db.Queries) error {
		// The lock makes a concurrent change wait and then check against
		// the password this one set.
		m, err := member.GetSelfForUpdate(ctx, q, id)
		if err != nil {
			return err
		}
		if m.PasswordHash == nil {
			return errSocialAccount
		}
		ok, err := password.Verify(current, m.PasswordHash)
		if err != nil {
			return err
		}
		if !ok {
			return errWrongPassword
		}
		// current is the password, so comparing the strings is comparing
		// with the password.
		if next == current {
			return errSamePassword
		}
		hash, err := password.Hash(next)
		if err != nil {
			return err
		}
		if err := q.UpdateMemberPassword(ctx, db.UpdateMemberPasswordParams{ID: id, PasswordHash: &hash}); err != nil {
			return fmt.Errorf("update password of member %d: %w", id, err)
		}
		// Taken as late as possible: a sign-in with the old password that
		// lands between this instant and the commit would outlive it.
		revokedAt = session.RevocationTime()
		if err := q.RevokeMemberSessions(ctx, db.RevokeMemberSessionsParams{ID: id, RevokedAt: &revokedAt}); err != nil {
			return fmt.Errorf("revoke sessions of member %d: %w", id, err)
		}
		return nil
	})
	return revokedAt, err
}

// verifyFailuresPerMember is how many wrong passwords a session may try in
// throttle.Window: a stolen session must not become a password oracle.
const verifyFailuresPerMember = 10

// VerifyPassword answers whether the password is the member's.
func (h *ProfileHandler) VerifyPassword(ctx context.Context, req api.VerifyPasswordRequestObject) (api.VerifyPasswordResponseObject, error) {
	id := session.PrincipalFrom(ctx).MemberID
	key := throttle.MemberKey(id)
	if err := h.throttle.Check(ctx, throttle.Limit{Key: key, Max: verifyFailuresPerMember}); err != nil {
		return nil, err
	}
	ok, err := verifyPassword(ctx, db.New(h.pool), id, req.Body.Password)
	if err != nil {
		return nil, err
	}
	if ok {
		err = h.throttle.Clear(ctx, key)
	} else {
		err = h.throttle.Fail(ctx, key)
	}
	if err != nil {
		return nil, err
	}
	return api.VerifyPassword200JSONResponse{Valid: ok}, nil
}

// verifyPassword reports whether pw is the member's password; never for a
// member without one.
func verifyPassword(ctx context.Context, q *db.Queries, id int64, pw string) (bool, error) {
	m, err := member.GetSelf(ctx, q, id)
	if err != nil {
		return false, err
	}
	return password.Verify(pw, m.PasswordHash)
}
