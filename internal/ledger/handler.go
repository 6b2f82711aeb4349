// Package ledger is the household ledger: wallets, categories (and the shared
// default categories), tags, entries, recurring and quick entries.
//
// Every query carries the member's id, so another member's record is a 404
// indistinguishable from a missing one. Exported functions own their
// transaction; the exported …Tx helpers run inside a caller's (restore,
// transfers, card notifications).
package ledger

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/clock"
	"github.com/nestegg/nestegg/internal/fx"
	"github.com/nestegg/nestegg/internal/problem"
	"github.com/nestegg/nestegg/internal/session"
	"github.com/nestegg/nestegg/internal/text"
)

// Entry and category types, as stored.
const (
	TypeIncome  = "income"
	TypeExpense = "expense"
)

// LedgerHandler implements the ledger operations of the contract.
type LedgerHandler struct {
	pool   *pgxpool.Pool
	clock  clock.Clock
	loc    *time.Location
	crypto *AccountCrypto
	// entryHook runs after an entry that counts is written (the
	// month-complete bonus); nil runs nothing.
	entryHook EntryHook
	// rates and base convert a foreign entry given without amount and rate
	// (UseRates); nil refuses such an entry.
	rates *fx.Rates
	base  string
}

// UseRates lets a foreign entry given with neither amount nor exchange rate
// take the FX rate of its date from rates, into base (BASE_CURRENCY).
func (h *LedgerHandler) UseRates(rates *fx.Rates, base string) {
	h.rates, h.base = rates, base
}

// EntryHook is told of a confirmed entry written on a day, after its
// transaction committed, with the member's month start day (read with the
// request's session).
type EntryHook func(ctx context.Context, memberID int64, startDay int, day time.Time)

// OnEntryWritten sets the hook run after an entry is updated or confirmed,
// or created as the first counting entry of its day (a day covered before
// cannot complete a month).
func (h *LedgerHandler) OnEntryWritten(f EntryHook) { h.entryHook = f }

// hookDeadline bounds the entry hook, which runs after the write committed
// and whatever the caller does meanwhile: a client hanging up right after
// its write does not cost it the month-complete bonus.
const hookDeadline = 3 * time.Second

func (h *LedgerHandler) entryWritten(ctx context.Context, p *session.Principal, e Entry) {
	if !e.Pending && e.TransferID == nil {
		h.entryHook.Run(ctx, p.MemberID, p.MonthStartDay, e.EntryDate)
	}
}

// Run calls the hook, if any, after a write committed: on a context that
// outlives the caller's hang-up, with its own deadline. Other areas that
// write counting entries (a transfer's fee, a restore) run it too.
func (f EntryHook) Run(ctx context.Context, memberID int64, startDay int, day time.Time) {
	if f == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), hookDeadline)
	defer cancel()
	f(ctx, memberID, startDay, day)
}

// NewHandler returns the ledger handler. key is ACCOUNT_CRYPTO_KEY (nil
// stores account numbers as plain text); loc is APP_TIMEZONE.
func NewHandler(pool *pgxpool.Pool, c clock.Clock, loc *time.Location, key []byte) (*LedgerHandler, error) {
	crypto, err := NewAccountCrypto(key)
	if err != nil {
		return nil, err
	}
	return &LedgerHandler{pool: pool, clock: c, loc: loc, crypto: crypto}, nil
}

// Crypto is the account-number cipher, for areas that write wallets
// (restore).
func (h *LedgerHandler) Crypto() *AccountCrypto { return h.crypto }

// caller is the signed-in member of a request.
func caller(ctx context.Context) *session.Principal { return session.PrincipalFrom(ctx) }

// cleanName trims a name and checks its length and characters.
func cleanName(field, s string, maxLen int) (string, error) {
	s = strings.TrimSpace(s)
	if n := utf8.RuneCountInString(s); n < 1 || n > maxLen {
		return "", problem.Invalid(field, fmt.Sprintf("must be 1 to %d characters, not only spaces", maxLen))
	}
	if err := text.CheckLine(field, s); err != nil {
		return "", err
	}
	return s, nil
}

// cleanMemo trims a memo and checks it (line breaks and tabs are allowed).
func cleanMemo(field string, s *string) (string, error) {
	if s == nil {
		return "", nil
	}
	m := strings.TrimSpace(*s)
	if utf8.RuneCountInString(m) > 200 {
		return "", problem.Invalid(field, "must be at most 200 characters")
	}
	if err := text.CheckMultiline(field, m); err != nil {
		return "", err
	}
	return m, nil
}

// cleanType checks an entry or category type.
func cleanType(field, t string) (string, error) {
	if t != TypeIncome && t != TypeExpense {
		return "", problem.Invalid(field, "must be income or expense")
	}
	return t, nil
}

// checkIDs refuses an empty or repeated id list (the contract says so too).
func checkIDs(ids []int64) error {
	if len(ids) == 0 {
		return problem.Invalid("/ids", "must list at least one id")
	}
	seen := make(map[int64]bool, len(ids))
	for _, id := range ids {
		if seen[id] {
			return problem.Invalid("/ids", "must not repeat an id")
		}
		seen[id] = true
	}
	return nil
}

// inUse answers a delete that another record still refers to. A foreign key
// added by a later area (budgets, stocks) ends here rather than in a 500.
func inUse(err error, what string) error {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23503" { // foreign_key_violation
		return problem.Conflict(problem.CodeConflict, what+" is still in use")
	}
	return err
}

// refGone maps a foreign key violation of a write that names a wallet or
// category: the record was checked, then deleted by a parallel request
// before this write committed. It answers as if the check had missed it.
func refGone(err error, doing string) error {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23503" {
		switch {
		case strings.Contains(pgErr.ConstraintName, "wallet"):
			return ErrWalletNotFound
		case strings.Contains(pgErr.ConstraintName, "category"):
			return ErrCategoryNotFound
		}
	}
	if err != nil {
		return fmt.Errorf("%s: %w", doing, err)
	}
	return nil
}

// ErrFreeLimit is the answer to a FREE member over a free limit.
func errFreeLimit(detail string) error {
	return problem.New(http.StatusBadRequest, problem.CodeFreeLimitExceeded, detail)
}

// errPremiumTags answers a FREE member who sends tags.
var errPremiumTags = problem.New(http.StatusForbidden, problem.CodePremiumRequired, "tags need a PREMIUM membership")

func ptr[T any](v T) *T { return &v }

// DeleteLedgerTx deletes all of a member's ledger (restore starts with it).
func DeleteLedgerTx(ctx context.Context, q *db.Queries, memberID int64) error {
	steps := []struct {
		what string
		del  func(context.Context, int64) error
	}{
		{"entries", q.DeleteMemberEntries},
		{"recurring entries", q.DeleteMemberRecurrings},
		{"quick entries", q.DeleteMemberQuickEntries},
		{"categories", q.DeleteMemberCategories},
		{"tags", q.DeleteMemberTags},
		{"wallets", q.DeleteMemberWallets},
	}
	for _, s := range steps {
		if err := s.del(ctx, memberID); err != nil {
			return fmt.Errorf("delete %s of member %d: %w", s.what, memberID, err)
		}
	}
	return nil
}
