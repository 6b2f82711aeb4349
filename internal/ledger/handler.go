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
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/clock"
	"github.com/nestegg/nestegg/internal/idempotency"
	"github.com/nestegg/nestegg/internal/rates"
	"github.com/nestegg/nestegg/internal/session"
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
	rates *rates.Cache
	base  string
	// cycleHook runs before a card's statement cycle is edited or
	// cleared, in the update's transaction; nil runs nothing.
	cycleHook CycleHook
	// keys store the answers of creates sent with an Idempotency-Key
	// (UseKeys).
	keys *idempotency.Store
}

// CycleHook runs before a CARD's statement cycle is edited (cleared: it is
// removed) inside the wallet update's transaction; an error refuses the
// update. today is the service's day.
type CycleHook func(ctx context.Context, q *db.Queries, memberID, walletID int64, cleared bool, today time.Time) error

// OnCycleChange sets the hook run before a card's cycle changes (the cards
// area keeps the statements already paid where they are).
func (h *LedgerHandler) OnCycleChange(f CycleHook) { h.cycleHook = f }

// UseRates lets a foreign entry given with neither amount nor exchange rate
// take the FX rate of its date from rateCache, into base (BASE_CURRENCY).
func (h *LedgerHandler) UseRates(rateCache *rates.Cache, base string) {
	h.rates, h.base = rateCache, base
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
	// Points and the month-complete bonus count the personal ledger only
	// (DECISIONS section 10): a write in a household book runs no hook.
	if p := session.PrincipalFrom(ctx); p != nil && p.Book != nil {
		return
	}
	// Its caller runs it once the entry's write has committed (the hook
	// must see the entry); it runs in transactions of its own, within a
	// deadline of its own rather than what is left of the request's.
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

func ptr[T any](v T) *T { return &v }
