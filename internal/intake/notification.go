package intake

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/shopspring/decimal"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/calendar"
	"github.com/nestegg/nestegg/internal/clock"
	"github.com/nestegg/nestegg/internal/idempotency"
	"github.com/nestegg/nestegg/internal/intake/parser"
	"github.com/nestegg/nestegg/internal/ledger"
	"github.com/nestegg/nestegg/internal/problem"
	"github.com/nestegg/nestegg/internal/rates"
	"github.com/nestegg/nestegg/internal/session"
	"github.com/nestegg/nestegg/internal/text"
)

// Outcomes of a notification, as the contract names them.
const (
	OutcomeCreated   = "CREATED"
	OutcomeDuplicate = "DUPLICATE"
	OutcomeDeleted   = "DELETED"
	OutcomeReversed  = "REVERSED"
	OutcomeIgnored   = "IGNORED"
)

// Reasons of this package (package parser gives the not-a-payment ones).
const (
	ReasonDuplicate = "already recorded"
	ReasonNoMatch   = "a cancellation that matches no expense"
)

const (
	maxKeyLen    = 128
	maxMemoRunes = 200
)

// Wallet types a card notification belongs to.
const (
	walletCard      = "CARD"
	walletCheckCard = "CHECK_CARD"
)

// NotificationHandler implements the notification operation of the contract:
// it turns card and bank payment notifications into pending ledger entries.
// It parses the text (package parser), ignores what is not a payment, drops
// duplicates by notif_key (the key of an entry, or of a cancellation seen
// before), matches the card wallet, prefills the category from the member's
// history and offsets cancellations.
//
// One notification runs in one transaction under a per-member advisory lock,
// so the same text delivered many times in parallel creates, or cancels,
// exactly one entry. An FX rate a foreign payment needs is looked up before
// that transaction, never inside it, and a payment whose rate cannot be had
// now is stored awaiting it rather than lost.
type NotificationHandler struct {
	pool  *pgxpool.Pool
	clock clock.Clock
	loc   *time.Location
	rates *rates.Cache
	base  string
	// keys store the answers of creates sent with an Idempotency-Key
	// (UseKeys).
	keys *idempotency.Store
}

// UseKeys sets the store of Idempotency-Keys the creates answer retries
// from.
func (h *NotificationHandler) UseKeys(keys *idempotency.Store) { h.keys = keys }

// NewNotificationHandler returns the notification handler; loc is
// APP_TIMEZONE and base BASE_CURRENCY, the currency entry amounts are in.
func NewNotificationHandler(pool *pgxpool.Pool, clk clock.Clock, loc *time.Location, rateCache *rates.Cache, base string) *NotificationHandler {
	return &NotificationHandler{pool: pool, clock: clk, loc: loc, rates: rateCache, base: base}
}

// Result is what one notification did.
type Result struct {
	Outcome string
	Entry   *ledger.Entry
	Reason  string
}

// CreateEntryFromNotification handles a card payment notification.
func (h *NotificationHandler) CreateEntryFromNotification(ctx context.Context, req api.CreateEntryFromNotificationRequestObject) (api.CreateEntryFromNotificationResponseObject, error) {
	body := req.Body
	if err := checkText(body.Text); err != nil {
		return nil, err
	}
	var key string
	if body.NotifKey != nil {
		key = *body.NotifKey
		if key == "" || len(key) > maxKeyLen || strings.ContainsFunc(key, func(r rune) bool { return r < 0x21 || r > 0x7e }) {
			return nil, problem.Invalid("/notifKey", "must be 1 to 128 printable ASCII characters without spaces")
		}
	}
	postedAt := h.clock.Now()
	if body.PostedAt != nil {
		postedAt = *body.PostedAt
	}
	p := session.PrincipalFrom(ctx)
	k, err := idempotency.KeyFor(p, req.Params.IdempotencyKey, "createEntryFromNotification", req)
	if err != nil {
		return nil, err
	}
	// Every answer, "ignored" included, is the answer of the request's
	// Idempotency-Key: its retry replays it (the notification's own key
	// would answer "duplicate" instead).
	var out api.NotificationResult
	var replayed bool
	err = h.Intake(ctx, p.MemberID, body.Text, postedAt, key, func(write func(q *db.Queries) (Result, error), writes bool) error {
		var err error
		if !writes && !k.Given() {
			// A result decided before any write, with no key to store it
			// under: no transaction (most notifications a phone forwards
			// are not payments, and answer "ignored" here).
			res, err := write(nil)
			if err != nil {
				return err
			}
			out, err = toAPIResult(ctx, res)
			return err
		}
		out, replayed, err = idempotency.Once(ctx, h.keys, k, func(tx pgx.Tx) (api.NotificationResult, error) {
			res, err := write(db.New(tx))
			if err != nil {
				return api.NotificationResult{}, err
			}
			return toAPIResult(ctx, res)
		})
		return err
	})
	if err != nil {
		return nil, err
	}
	return api.CreateEntryFromNotification200JSONResponse{Body: out, Headers: api.CreateEntryFromNotification200ResponseHeaders{
		IdempotentReplayed: idempotency.Replayed(replayed),
	}}, nil
}

// toAPIResult is a notification's result as the contract answers it to the
// request's caller.
func toAPIResult(ctx context.Context, res Result) (api.NotificationResult, error) {
	out := api.NotificationResult{Outcome: api.NotificationOutcome(res.Outcome)}
	if res.Entry != nil {
		e, err := ledger.AttributedEntry(ctx, *res.Entry)
		if err != nil {
			return api.NotificationResult{}, err
		}
		out.Entry = &e
	}
	if res.Reason != "" {
		out.Reason = &res.Reason
	}
	return out, nil
}

func checkText(s string) error {
	if n := utf8.RuneCountInString(s); n < 1 || n > maxTextRunes {
		return problem.Invalid("/text", fmt.Sprintf("must be 1 to %d characters", maxTextRunes))
	}
	return text.CheckMultiline("/text", s)
}

// Run runs a notification's write in one transaction of its own, and keeps
// its result: the handler's runs it under the request's Idempotency-Key
// (idempotency.Once). writes false: the result was decided before any
// write, and write reads nothing from q (nil then, where no key must store
// the result).
type Run func(write func(q *db.Queries) (Result, error), writes bool) error

// Intake reads a notification posted at postedAt and records it, each
// answer through run. key is the device's id of the notification; ""
// derives one from what the text says.
func (h *NotificationHandler) Intake(ctx context.Context, memberID int64, msg string, postedAt time.Time, key string, run Run) error {
	answer := func(res Result, err error) error {
		if err != nil {
			return err
		}
		return run(func(*db.Queries) (Result, error) { return res, nil }, false)
	}
	n := parser.ParseNotification(msg, postedAt.In(h.loc))
	if n.Kind == parser.KindNotPayment {
		return answer(Result{Outcome: OutcomeIgnored, Reason: n.Reason}, nil)
	}
	if key == "" {
		key = n.Key()
	}
	if h.needsRate(n) {
		// A redelivery is answered before a rate is looked up (and
		// counted against the member's FX limit); the check is repeated
		// under the lock below.
		if res, dup, err := duplicate(ctx, db.New(h.pool), memberID, key, false); dup || err != nil {
			return answer(res, err)
		}
	}
	p, err := h.payment(ctx, memberID, n)
	if err != nil {
		return err
	}
	// A wallet or category the entry names can be deleted between the
	// insert's check and its row (a parallel request); the notification is
	// then recorded again, whose new transaction no longer sees it, rather
	// than lost to a 404 about something the member did not send.
	for attempt := 1; ; attempt++ {
		err := run(func(q *db.Queries) (Result, error) { return h.recordTx(ctx, q, memberID, n, msg, p, key) }, true)
		if attempt < maxRecordAttempts && (errors.Is(err, ledger.ErrWalletNotFound) || errors.Is(err, ledger.ErrCategoryNotFound)) {
			continue
		}
		return err
	}
}

// maxRecordAttempts bounds the retries of Intake's transaction: each one
// follows a deletion of what the notification named, which a member makes
// by hand.
const maxRecordAttempts = 3

// recordTx writes the notification in its transaction, under the member's
// notification lock.
func (h *NotificationHandler) recordTx(ctx context.Context, q *db.Queries, memberID int64, n parser.Notification, msg string, p payment, key string) (Result, error) {
	// The ledger's lock, shared, as every ledger write (ledger/locks.go),
	// then the notifications' own.
	if err := ledger.LockLedgerSharedTx(ctx, q, memberID); err != nil {
		return Result{}, err
	}
	if err := q.LockMemberNotifications(ctx, memberID); err != nil {
		return Result{}, fmt.Errorf("lock notifications of member %d: %w", memberID, err)
	}
	if res, dup, err := duplicate(ctx, q, memberID, key, n.Kind == parser.KindCancel); dup || err != nil {
		return res, err
	}
	wallets, err := ledger.ListWalletNamesTx(ctx, q, memberID)
	if err != nil {
		return Result{}, fmt.Errorf("wallets of member %d: %w", memberID, err)
	}
	p.wallet = MatchWallet(n, msg, wallets)
	if n.Kind == parser.KindCancel {
		return cancelTx(ctx, q, memberID, p, key)
	}
	return createTx(ctx, q, memberID, p, key)
}

// duplicate answers a notification whose key was seen before: on an entry
// (a payment, or the income a cancellation offset a confirmed payment with)
// or claimed by an earlier cancellation. A cancellation claims its key here,
// whatever it goes on to find: the pending payment it deletes takes no key
// with it, and a redelivery must not match and delete the next equal
// payment. The caller holds the member's notification lock.
func duplicate(ctx context.Context, q *db.Queries, memberID int64, key string, cancel bool) (Result, bool, error) {
	old, err := ledger.EntryByNotifKeyTx(ctx, q, db.GetEntryByNotifKeyParams{MemberID: memberID, NotifKey: &key})
	switch {
	case err == nil:
		e, err := withTags(ctx, q, memberID, old)
		return Result{Outcome: OutcomeDuplicate, Entry: &e, Reason: ReasonDuplicate}, true, err
	case !errors.Is(err, pgx.ErrNoRows):
		return Result{}, false, fmt.Errorf("entry by notification key: %w", err)
	}
	if !cancel {
		return Result{}, false, nil
	}
	claimed, err := q.ClaimNotificationKey(ctx, db.ClaimNotificationKeyParams{MemberID: memberID, NotifKey: key})
	if err != nil {
		return Result{}, false, fmt.Errorf("claim cancellation key: %w", err)
	}
	if claimed == 0 {
		return Result{Outcome: OutcomeDuplicate, Reason: ReasonDuplicate}, true, nil
	}
	return Result{}, false, nil
}

// payment is a parsed notification as an entry would hold it.
type payment struct {
	day            time.Time
	amount         int64
	currency       *string
	originalAmount decimal.NullDecimal
	exchangeRate   decimal.NullDecimal
	installments   int
	merchant       string
	wallet         *db.ListNotifyWalletsRow
}

// needsRate says whether n is a foreign-currency payment that prints no won
// amount, which the FX rate of its day converts. (A cancellation matches by
// currency and original amount: it needs no rate.)
func (h *NotificationHandler) needsRate(n parser.Notification) bool {
	return n.Kind == parser.KindPayment && n.Currency != "" && n.Currency != h.base && n.Amount == 0
}

// payment converts a parsed notification, with the FX rate of its day when
// it needs one (a lookup that calls the FX provider counts against the
// member's daily FX limit). When no rate can be had now, the payment is
// recorded without one (amount 0: the entry awaits its rate, which its
// confirmation looks up): a notification is never lost to an outside
// service (DECISIONS.md section 9).
func (h *NotificationHandler) payment(ctx context.Context, memberID int64, n parser.Notification) (payment, error) {
	p := payment{
		day:          calendar.Day(n.At, h.loc),
		amount:       n.Amount,
		installments: n.Installments,
		merchant:     memo(n),
	}
	if n.Currency != "" && n.Currency != h.base {
		c := n.Currency
		p.currency = &c
		// The entry's bounds, as the API, restore and CSV import check
		// them (ledger.OriginalAmountBounds): an entry stored past them
		// could not be saved unchanged.
		if ledger.OriginalAmountBounds.Check("/text", n.OriginalAmount) != nil {
			return p, problem.Invalid("/text", "the foreign amount is out of range")
		}
		p.originalAmount = decimal.NullDecimal{Decimal: n.OriginalAmount, Valid: true}
		if h.needsRate(n) {
			r, err := h.rates.RateOn(ctx, memberID, n.Currency, h.base, n.At)
			switch {
			case err == nil:
				p.exchangeRate = decimal.NullDecimal{Decimal: r.Rate, Valid: true}
				p.amount = ledger.ConvertAmount(n.OriginalAmount, r.Rate)
			case rateLater(err):
				slog.WarnContext(ctx, "notification stored awaiting its exchange rate",
					"member_id", memberID, "currency", n.Currency, "error", err)
			default:
				return p, err
			}
		}
	}
	// ledger.ConvertAmount answers MaxEntryAmount+1 for an amount past it,
	// for this check to refuse.
	if p.amount < 0 || p.amount > ledger.MaxEntryAmount {
		return p, problem.Invalid("/text", "the amount is out of range")
	}
	return p, nil
}

// rateLater says whether a rate lookup failed for now only: the provider
// down or slow with nothing stored, or the member's daily FX limit reached.
func rateLater(err error) bool {
	if p, ok := problem.As(err); ok {
		return p.Status == http.StatusServiceUnavailable || p.Status == http.StatusTooManyRequests
	}
	return errors.Is(err, context.DeadlineExceeded)
}

// memo is the merchant, or the card when the text names no merchant, cut to
// a memo's length.
func memo(n parser.Notification) string {
	m := strings.TrimSpace(n.Merchant)
	if m == "" {
		m = strings.TrimSpace(n.CardName)
	}
	if m == "" {
		m = n.Issuer
	}
	if text.CheckLine("/memo", m) != nil {
		m = strings.Map(func(r rune) rune {
			if text.CheckLine("", string(r)) != nil {
				return -1
			}
			return r
		}, m)
	}
	if r := []rune(m); len(r) > maxMemoRunes {
		m = string(r[:maxMemoRunes])
	}
	return m
}

func createTx(ctx context.Context, q *db.Queries, memberID int64, p payment, key string) (Result, error) {
	in := ledger.EntryInput{
		Date: p.day, Type: ledger.TypeExpense, Amount: p.amount, Memo: p.merchant,
		Currency: p.currency, OriginalAmount: p.originalAmount, ExchangeRate: p.exchangeRate,
		Pending: true, NotifKey: &key,
	}
	if p.wallet != nil {
		in.WalletID = &p.wallet.ID
		// Installments live on a credit card only; elsewhere the payment
		// is recorded as a lump sum rather than refused.
		if p.wallet.Type == walletCard && p.installments >= 2 && p.installments <= 24 {
			m := int32(p.installments)
			in.InstallmentMonths = &m
		}
	}
	if p.merchant != "" {
		id, err := ledger.MostUsedCategoryForMemoTx(ctx, q, db.MostUsedCategoryForMemoParams{
			MemberID: memberID, Type: ledger.TypeExpense, MemoPattern: "%" + likeEscaper.Replace(p.merchant) + "%",
		})
		switch {
		case err == nil:
			in.CategoryID = &id
		case !errors.Is(err, pgx.ErrNoRows):
			return Result{}, fmt.Errorf("category for %q: %w", p.merchant, err)
		}
	}
	e, err := ledger.CreateEntryTx(ctx, q, memberID, in)
	if err != nil {
		return Result{}, err
	}
	return Result{Outcome: OutcomeCreated, Entry: &e}, nil
}

// cancelTx offsets the expense a cancellation undoes: a pending one is
// deleted, a confirmed one gets a pending income of the same amount (the
// member confirms it as any recognised entry).
func cancelTx(ctx context.Context, q *db.Queries, memberID int64, p payment, key string) (Result, error) {
	arg := db.FindCancelledEntryParams{
		MemberID: memberID, EntryDate: p.day, Currency: p.currency, Amount: p.amount,
		OriginalAmount: p.originalAmount, Merchant: p.merchant,
	}
	if p.wallet != nil {
		arg.WalletID = &p.wallet.ID
	}
	old, err := ledger.FindCancelledEntryTx(ctx, q, arg)
	if errors.Is(err, pgx.ErrNoRows) {
		return Result{Outcome: OutcomeIgnored, Reason: ReasonNoMatch}, nil
	}
	if err != nil {
		return Result{}, fmt.Errorf("find the cancelled entry: %w", err)
	}
	e, err := withTags(ctx, q, memberID, old)
	if err != nil {
		return Result{}, err
	}
	if old.Pending {
		if _, err := ledger.DeleteEntryTx(ctx, q, db.DeleteEntryParams{MemberID: memberID, ID: old.ID}); err != nil {
			return Result{}, fmt.Errorf("delete cancelled entry %d: %w", old.ID, err)
		}
		return Result{Outcome: OutcomeDeleted, Entry: &e}, nil
	}
	rev, err := ledger.CreateEntryTx(ctx, q, memberID, ledger.EntryInput{
		Date: p.day, Type: ledger.TypeIncome, Amount: old.Amount, WalletID: old.WalletID, Memo: old.Memo,
		Currency: old.Currency, OriginalAmount: old.OriginalAmount, ExchangeRate: old.ExchangeRate,
		Pending: true, NotifKey: &key,
	})
	if err != nil {
		return Result{}, err
	}
	return Result{Outcome: OutcomeReversed, Entry: &rev}, nil
}

func withTags(ctx context.Context, q *db.Queries, memberID int64, row db.AccountEntry) (ledger.Entry, error) {
	rows, err := ledger.ListEntryTagsTx(ctx, q, db.ListEntryTagsParams{MemberID: memberID, EntryIds: []int64{row.ID}})
	if err != nil {
		return ledger.Entry{}, fmt.Errorf("tags of entry %d: %w", row.ID, err)
	}
	e := ledger.Entry{AccountEntry: row}
	for _, r := range rows {
		e.Tags = append(e.Tags, r.Name)
	}
	return e, nil
}

var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

// MatchWallet picks the member's wallet a notification belongs to, matching
// in both directions: the issuer (any of its spellings), the card name or the
// card's last digits in the wallet's name, and the wallet's name in the text.
// Only card wallets are matched (a bank notification of a check card names
// the bank too, and a cash wallet is never what a card paid with). With no
// match, the only card wallet when the member has exactly one; else none.
func MatchWallet(n parser.Notification, msg string, wallets []db.ListNotifyWalletsRow) *db.ListNotifyWalletsRow {
	flatText := flat(msg)
	var names []string
	for _, a := range parser.Aliases(n.Issuer) {
		names = append(names, flat(a))
	}
	card := flat(n.CardName)
	digits := ""
	if len(n.Last4) == 4 && !strings.Contains(n.Last4, "*") {
		digits = n.Last4
	}
	var best *db.ListNotifyWalletsRow
	bestScore, cards := 0, 0
	var onlyCard *db.ListNotifyWalletsRow
	for i := range wallets {
		w := &wallets[i]
		if w.Type != walletCard && w.Type != walletCheckCard {
			continue
		}
		cards++
		onlyCard = w
		name := flat(w.Name)
		score := 0
		if digits != "" && strings.Contains(name, digits) {
			score += 8
		}
		if card != "" && strings.Contains(name, card) {
			score += 4
		}
		for _, a := range names {
			if a != "" && strings.Contains(name, a) {
				score += 2
				break
			}
		}
		if len([]rune(name)) >= 2 && strings.Contains(flatText, name) {
			score += 3
		}
		if score > 0 && (w.Type == walletCheckCard) == n.CheckCard {
			score++
		}
		if score > bestScore {
			best, bestScore = w, score
		}
	}
	if best == nil && cards == 1 {
		return onlyCard
	}
	return best
}

// flat is a name as matching compares it: upper-case, without spaces.
func flat(s string) string {
	return strings.ToUpper(strings.Join(strings.Fields(s), ""))
}
