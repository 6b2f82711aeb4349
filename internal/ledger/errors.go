package ledger

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/internal/problem"
)

// inUse answers a delete that another record still refers to. A foreign key
// added by a later area (budgets, stocks) ends here rather than in a 500.
func inUse(err error, what string) error {
	if database.IsForeignKeyViolation(err) {
		return problem.Conflict(problem.CodeConflict, what+" is still in use")
	}
	return err
}

// refGone maps a foreign key violation of a write that names a wallet or
// category: the record was checked, then deleted by a parallel request
// before this write committed. It answers as if the check had missed it.
func refGone(err error, doing string) error {
	var pgErr *pgconn.PgError
	if database.IsForeignKeyViolation(err) && errors.As(err, &pgErr) {
		switch {
		case strings.Contains(pgErr.ConstraintName, "wallet"):
			return ErrWalletNotFound
		case strings.Contains(pgErr.ConstraintName, "category"):
			return ErrCategoryNotFound
		case strings.Contains(pgErr.ConstraintName, "member"):
			// The account was deleted while this write waited for its
			// ledger lock: the session is over.
			return errMemberGone
		}
	}
	if err != nil {
		return fmt.Errorf("%s: %w", doing, err)
	}
	return nil
}

// errMemberGone answers a write whose member's account was deleted
// meanwhile (as member.ErrSelfGone does: a 401, not a 404).
var errMemberGone = problem.New(http.StatusUnauthorized, problem.CodeUnauthenticated, "the signed-in account no longer exists")

// ErrFreeLimit is the answer to a FREE member over a free limit.
func errFreeLimit(detail string) error {
	return problem.New(http.StatusBadRequest, problem.CodeFreeLimitExceeded, detail)
}

// errPremiumTags answers a FREE member who sends tags.
var errPremiumTags = problem.New(http.StatusForbidden, problem.CodePremiumRequired, "tags need a PREMIUM membership")
