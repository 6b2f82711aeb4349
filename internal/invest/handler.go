// Package invest holds the member's investments (stocks, trades, the
// portfolio and stock quotes) and the net-worth trend built on the ledger's
// wallets.
//
// Every query carries the member's id, so another member's stock or trade is
// a 404 indistinguishable from a missing one. Exported functions own their
// transaction; DeleteInvestTx runs inside a caller's (restore).
package invest

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/clock"
	"github.com/nestegg/nestegg/internal/external/quote"
	"github.com/nestegg/nestegg/internal/idempotency"
	"github.com/nestegg/nestegg/internal/problem"
	"github.com/nestegg/nestegg/internal/session"
	"github.com/nestegg/nestegg/internal/text"
)

// InvestHandler implements the investment and net-worth operations.
type InvestHandler struct {
	pool   *pgxpool.Pool
	clock  clock.Clock
	loc    *time.Location
	quotes *quote.Client
	base   string
	// keys store the answers of creates sent with an Idempotency-Key
	// (UseKeys).
	keys *idempotency.Store
}

// UseKeys sets the store of Idempotency-Keys the creates answer retries
// from.
func (h *InvestHandler) UseKeys(keys *idempotency.Store) { h.keys = keys }

// NewHandler returns the handler. quotes may be unconfigured (refresh then
// answers 503); loc is APP_TIMEZONE and base BASE_CURRENCY.
func NewHandler(pool *pgxpool.Pool, c clock.Clock, loc *time.Location, base string, quotes *quote.Client) *InvestHandler {
	if base == "" {
		base = "KRW"
	}
	return &InvestHandler{pool: pool, clock: c, loc: loc, quotes: quotes, base: base}
}

func memberOf(ctx context.Context) int64 { return session.PrincipalFrom(ctx).MemberID }

// cleanLine trims a one-line text and checks its length and characters.
func cleanLine(field, s string, maxLen int) (string, error) {
	s = strings.TrimSpace(s)
	if n := len([]rune(s)); n < 1 || n > maxLen {
		return "", problem.Invalid(field, fmt.Sprintf("must be 1 to %d characters, not only spaces", maxLen))
	}
	if err := text.CheckLine(field, s); err != nil {
		return "", err
	}
	return s, nil
}

// DeleteInvestTx deletes a member's stocks and trades (restore starts with
// it: investments are deleted and not restored). Quotes are shared by code
// and stay.
func DeleteInvestTx(ctx context.Context, q *db.Queries, memberID int64) error {
	if err := q.DeleteMemberStocks(ctx, memberID); err != nil {
		return fmt.Errorf("delete stocks of member %d: %w", memberID, err)
	}
	return nil
}
