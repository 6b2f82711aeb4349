package ledger

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/oapi-codegen/runtime/types"
	"github.com/shopspring/decimal"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/calendar"
	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/internal/etag"
	"github.com/nestegg/nestegg/internal/idempotency"
	"github.com/nestegg/nestegg/internal/money"
	"github.com/nestegg/nestegg/internal/problem"
	"github.com/nestegg/nestegg/internal/rates"
	"github.com/nestegg/nestegg/internal/session"
)

// Limits of an entry.
const (
	maxAmount      = 1_000_000_000_000_000
	minInstallment = 2
	maxInstallment = 24
	// maxRangeDays bounds a from/to list so one request cannot read years.
	maxRangeDays = 366
)

// MaxAmount is the largest amount an entry or a transfer holds (10^15
// won): what the API refuses past it no other path may store.
const MaxAmount = maxAmount

// ErrEntryNotFound answers an entry that is not the member's.
var ErrEntryNotFound = problem.NotFound("entry")

// errTransferEntry refuses a direct change to one side of a transfer, naming
// the transfer so a client can go there.
func errTransferEntry(transferID int64) error {
	return problem.Conflict(problem.CodeConflict, fmt.Sprintf(
		"this entry is one side of transfer %d: change or delete it at /api/account/transfers/%d", transferID, transferID))
}

// EntryInput is a checked entry.
type EntryInput struct {
	Date              time.Time
	Type              string
	Amount            int64
	WalletID          *int64
	CategoryID        *int64
	Memo              string
	Currency          *string
	OriginalAmount    decimal.NullDecimal
	ExchangeRate      decimal.NullDecimal
	InstallmentMonths *int32
	// Tags are names; nil leaves an updated entry's tags as they are.
	Tags []string
	// Pending and NotifKey are set by card-notification intake only.
	Pending  bool
	NotifKey *string
	// TransferID makes a created entry a side of that transfer, the
	// member's, whose row the caller wrote first in its transaction. Set by
	// the transfer area only, on entries without tags; an update keeps an
	// entry's transfer as it is.
	TransferID *int64
	// ProbeNewDay asks the create whether the entry is the first that
	// counts on its day (Entry.NewDay), a read of the member's entries of
	// that day. Only a create that may complete its month today needs the
	// answer (LedgerHandler.mayCompleteToday); without it NewDay is false.
	ProbeNewDay bool
	// PaidBy is the payer the request names (household books; nil: the
	// writer on create, unchanged on update). CreatedBy and PaidBy are the
	// attribution columns a create writes (Attribution.Write): nil in a
	// personal ledger, where they mean its owner.
	PaidBy, CreatedBy, PaidByColumn *int64
	// needsRate marks a foreign entry with neither amount nor rate: Amount
	// waits for the FX rate of its date.
	needsRate bool
	// aloneBound, set by CreateEntryAlone, makes the create's statement
	// refuse (no row) any entry whose totals it cannot tell within Limit.
	aloneBound *int64
}

// NeedsRate says the entry has neither amount nor exchange rate: its
// Amount is not known until the FX rate of its date is filled in.
func (e EntryInput) NeedsRate() bool { return e.needsRate }

// fillRate gives an entry that needs one the FX rate of its date. It calls
// the FX service, so it runs before the caller's transaction; a lookup that
// calls the provider counts against the member's daily FX limit.
func (h *LedgerHandler) fillRate(ctx context.Context, memberID int64, e *EntryInput) error {
	if !e.needsRate {
		return nil
	}
	if h.rates == nil {
		return problem.Invalid("/exchangeRate", "is required when amount is absent")
	}
	if !rates.IsCurrency(*e.Currency) {
		return problem.Invalid("/currency", "must be an ISO 4217 currency code such as USD")
	}
	r, err := h.rates.RateOn(ctx, memberID, *e.Currency, h.base, e.Date)
	if err != nil {
		return err
	}
	e.ExchangeRate = decimal.NullDecimal{Decimal: r.Rate, Valid: true}
	e.Amount = ConvertAmount(e.OriginalAmount.Decimal, r.Rate)
	e.needsRate = false
	if e.Amount < 0 || e.Amount > maxAmount {
		return problem.Invalid("/amount", "must be 0 to 10^15 won")
	}
	return nil
}

// Entry is an entry with its tag names.
type Entry struct {
	db.AccountEntry
	Tags []string
	// NewDay is set when the write may have covered a day that had no
	// counting entry: on create when no other counting entry of the member
	// was on the entry's day (asked only with EntryInput.ProbeNewDay), on
	// update when the date changed. Only such a write can complete a month.
	NewDay bool
}

// EntryInputFrom checks an entry request as far as it can without the
// database (CreateEntryTx checks the rest); premium decides whether tags may
// be sent.
func EntryInputFrom(in api.EntryRequest, premium bool) (EntryInput, error) {
	e := EntryInput{Date: in.Date.Time, WalletID: in.WalletID, CategoryID: in.CategoryID, InstallmentMonths: in.InstallmentMonths, PaidBy: in.PaidBy}
	var err error
	if e.Type, err = cleanType("/type", string(in.Type)); err != nil {
		return e, err
	}
	if e.Memo, err = cleanMemo("/memo", in.Memo); err != nil {
		return e, err
	}
	if e.Tags, err = cleanTags(in.Tags, premium); err != nil {
		return e, err
	}
	if in.Currency != nil {
		c := *in.Currency
		if len(c) != 3 || strings.ToUpper(c) != c || strings.ContainsFunc(c, func(r rune) bool { return r < 'A' || r > 'Z' }) {
			return e, problem.Invalid("/currency", "must be a three-letter ISO 4217 code such as USD")
		}
		e.Currency = &c
	}
	if e.OriginalAmount, err = decimalField("/originalAmount", in.OriginalAmount, OriginalAmountBounds); err != nil {
		return e, err
	}
	if e.ExchangeRate, err = decimalField("/exchangeRate", in.ExchangeRate, ExchangeRateBounds); err != nil {
		return e, err
	}
	switch {
	case in.Amount != nil:
		e.Amount = *in.Amount
	case !e.OriginalAmount.Valid:
		return e, problem.Invalid("/amount", "is required unless originalAmount and exchangeRate are given")
	case !e.ExchangeRate.Valid:
		if e.Currency == nil {
			return e, problem.Invalid("/exchangeRate", "is required when amount is absent, unless currency is given")
		}
		// The caller looks the rate of the entry's date up (fillRate),
		// before any transaction.
		e.needsRate = true
		return e, nil
	default:
		e.Amount = ConvertAmount(e.OriginalAmount.Decimal, e.ExchangeRate.Decimal)
	}
	if e.Amount < 0 || e.Amount > maxAmount {
		return e, problem.Invalid("/amount", "must be 0 to 10^15 won")
	}
	if e.InstallmentMonths != nil {
		if m := *e.InstallmentMonths; m < minInstallment || m > maxInstallment {
			return e, problem.Invalid("/installmentMonths", "must be 2 to 24")
		}
	}
	return e, nil
}

// ConvertAmount is originalAmount × exchangeRate rounded half up to the won.
func ConvertAmount(original, rate decimal.Decimal) int64 {
	v := original.Mul(rate).Round(0)
	if v.GreaterThan(decimal.NewFromInt(maxAmount)) {
		return maxAmount + 1 // refused by the caller's range check
	}
	return v.IntPart()
}

func decimalField(field string, s *string, b DecimalBounds) (decimal.NullDecimal, error) {
	if s == nil {
		return decimal.NullDecimal{}, nil
	}
	d, err := decimal.NewFromString(*s)
	if err != nil || d.IsNegative() {
		return decimal.NullDecimal{}, problem.Invalid(field, "must be a non-negative decimal string such as 12.50")
	}
	if err := b.Check(field, d); err != nil {
		return decimal.NullDecimal{}, err
	}
	return decimal.NullDecimal{Decimal: d, Valid: true}, nil
}

// checkEntryRefs checks the records an entry names: the member's own wallet
// and category (404 otherwise), a category of the entry's type, and
// installments only on a card expense.
func checkEntryRefs(ctx context.Context, q *db.Queries, memberID int64, e EntryInput) error {
	w, err := ownWallet(ctx, q, memberID, e.WalletID)
	if err != nil {
		return err
	}
	c, err := ownCategory(ctx, q, memberID, e.CategoryID)
	if err != nil {
		return err
	}
	if c != nil && c.Type != e.Type {
		return problem.Invalid("/categoryId", "must be a category of the entry's type")
	}
	if e.InstallmentMonths != nil && (e.Type != TypeExpense || w == nil || w.Type != "CARD") {
		return problem.Invalid("/installmentMonths", "only for an expense on a CARD wallet")
	}
	return nil
}

// CreateEntryTx creates an entry with its tags. The caller has decided
// whether the member may use tags.
//
// It is one statement (the checks of checkEntryRefs and the INSERT,
// answering the whole row as committed; with tags, the tags made, linked
// and named too), so it needs no transaction of its own. Only a refused
// entry reads again, to say which check refused it. A tag of the same name
// that a parallel request made meanwhile fails the statement as a
// serialization failure, which the caller's InTx or Exec runs again.
func CreateEntryTx(ctx context.Context, q *db.Queries, memberID int64, e EntryInput) (Entry, error) {
	if e.needsRate {
		return Entry{}, errors.New("create entry: the exchange rate was not filled in (fillRate)")
	}
	if e.TransferID != nil && len(e.Tags) > 0 {
		return Entry{}, errors.New("create entry: a transfer's side has no tags")
	}
	// Its statement takes the ledger lock itself; in a book the writer's
	// membership is held first (locks.go).
	if err := holdBookTx(ctx, q, memberID); err != nil {
		return Entry{}, err
	}
	insert := func() (Entry, error) {
		p := db.CreateEntryCheckedParams{
			MemberID: memberID, WalletID: e.WalletID, CategoryID: e.CategoryID, Type: e.Type, Amount: e.Amount,
			EntryDate: e.Date, Memo: e.Memo, Currency: e.Currency, OriginalAmount: e.OriginalAmount,
			ExchangeRate: e.ExchangeRate, InstallmentMonths: e.InstallmentMonths, Pending: e.Pending, NotifKey: e.NotifKey,
			ProbeNewDay: e.ProbeNewDay, TransferID: e.TransferID, CreatedBy: e.CreatedBy, PaidBy: e.PaidByColumn,
			AloneBound: e.aloneBound,
		}
		if len(e.Tags) == 0 {
			// Without the tag CTEs, whose empty INSERTs would fire the
			// tag tables' statement triggers (CreateEntryChecked).
			row, err := q.CreateEntryChecked(ctx, p)
			return Entry{AccountEntry: row.AccountEntry, NewDay: row.NewDay}, err
		}
		row, err := q.CreateTaggedEntryChecked(ctx, db.CreateTaggedEntryCheckedParams{
			MemberID: p.MemberID, WalletID: p.WalletID, CategoryID: p.CategoryID, Type: p.Type, Amount: p.Amount,
			EntryDate: p.EntryDate, Memo: p.Memo, Currency: p.Currency, OriginalAmount: p.OriginalAmount,
			ExchangeRate: p.ExchangeRate, InstallmentMonths: p.InstallmentMonths, Pending: p.Pending, NotifKey: p.NotifKey,
			ProbeNewDay: p.ProbeNewDay, Tags: e.Tags, CreatedBy: p.CreatedBy, PaidBy: p.PaidBy,
			AloneBound: p.AloneBound,
		})
		return Entry{AccountEntry: row.AccountEntry, NewDay: row.NewDay, Tags: row.TagNames}, err
	}
	out, err := insert()
	if errors.Is(err, pgx.ErrNoRows) && e.aloneBound != nil {
		return Entry{}, errNotAlone
	}
	if errors.Is(err, pgx.ErrNoRows) {
		// A check refused it: say which. When none does now, what the
		// entry names changed in between (a wallet's type, say): one more
		// try decides.
		if err := checkEntryRefs(ctx, q, memberID, e); err != nil {
			return Entry{}, err
		}
		out, err = insert()
		if errors.Is(err, pgx.ErrNoRows) {
			if err := checkEntryRefs(ctx, q, memberID, e); err != nil {
				return Entry{}, err
			}
			// What it names changed twice under it: busy, not a 500.
			return Entry{}, problem.Busy(errors.New("create entry: refused twice by checks that pass"))
		}
	}
	if err != nil {
		return Entry{}, refGone(err, "create entry")
	}
	return out, nil
}

// errNotAlone says the statement of CreateEntryAlone refused the entry.
var errNotAlone = errors.New("create entry: not alone")

// CreateEntryAlone creates an entry in one statement that is its own
// transaction (no BEGIN, no write check after it, no COMMIT: one round
// trip), where nothing needs a transaction: the caller has no
// Idempotency-Key answer to store, the ledger is the member's own (a book
// holds the writer's membership first, in the transaction), and the
// statement (with tags or without; either takes the totals lock after the
// wallet, the category and the tags, as database.LockOrder has it) can
// tell every total the write check keeps within Limit (its
// sufficient bound: opening balances, manual values and the wallets' gross,
// with this entry's amount, summed). ok is false, nothing written, when the
// statement refused the entry for any reason (a check, the bound) or lost a
// race that a transaction runs again (past the bound with tags, the tag
// links' foreign key refuses the statement; a tag deleted meanwhile, a wallet's
// foreign key): the caller then creates it in a transaction
// (CreateEntryTx, CheckTotalsTx), which says why or checks the totals
// exactly.
func CreateEntryAlone(ctx context.Context, pool *pgxpool.Pool, memberID int64, e EntryInput) (out Entry, ok bool, err error) {
	if p := session.PrincipalFrom(ctx); p != nil && p.Book != nil {
		return Entry{}, false, nil
	}
	bound := int64(Limit)
	e.aloneBound = &bound
	out, err = CreateEntryTx(ctx, db.New(pool), memberID, e)
	switch {
	case database.IsContention(err):
		database.NoteRetried(pool)
		return Entry{}, false, nil
	case errors.Is(err, errNotAlone), database.IsForeignKeyViolation(err):
		return Entry{}, false, nil
	case err != nil:
		return Entry{}, false, err
	}
	return out, true, nil
}

// UpdateEntryTx rewrites an entry's fields (not its tags) inside the
// caller's transaction, after the checks every entry write passes: the
// member's own wallet and category (404), a category of the entry's type
// (400), installments only on a card expense. A wallet or category deleted
// between the check and the write is the same 404, not a foreign key error.
// Areas whose records are entries (transfer sides and fees) write them
// through it; the caller holds the entry's lock or its owner's.
func UpdateEntryTx(ctx context.Context, q *db.Queries, memberID, id int64, e EntryInput) (db.AccountEntry, error) {
	if e.needsRate {
		return db.AccountEntry{}, errors.New("update entry: the exchange rate was not filled in (fillRate)")
	}
	if err := checkEntryRefs(ctx, q, memberID, e); err != nil {
		return db.AccountEntry{}, err
	}
	row, err := q.UpdateEntry(ctx, db.UpdateEntryParams{
		MemberID: memberID, ID: id, WalletID: e.WalletID, CategoryID: e.CategoryID, Type: e.Type,
		Amount: e.Amount, EntryDate: e.Date, Memo: e.Memo, Currency: e.Currency,
		OriginalAmount: e.OriginalAmount, ExchangeRate: e.ExchangeRate, InstallmentMonths: e.InstallmentMonths,
		PaidBy: e.PaidByColumn,
	})
	if errors.Is(err, pgx.ErrNoRows) {
		return db.AccountEntry{}, ErrEntryNotFound
	}
	if err != nil {
		return db.AccountEntry{}, refGone(err, fmt.Sprintf("update entry %d", id))
	}
	return row, nil
}

// setEntryTags gives an entry exactly the named tags (replace) or adds them.
func setEntryTags(ctx context.Context, q *db.Queries, memberID, entryID int64, names []string, replace bool) ([]string, error) {
	if replace {
		if err := q.ClearEntryTags(ctx, entryID); err != nil {
			return nil, fmt.Errorf("clear tags of entry %d: %w", entryID, err)
		}
	}
	ids, err := EnsureTagsTx(ctx, q, memberID, names)
	if err != nil {
		return nil, err
	}
	if len(ids) > 0 {
		if err := q.AddEntryTags(ctx, db.AddEntryTagsParams{EntryID: entryID, TagIds: ids}); err != nil {
			return nil, fmt.Errorf("tag entry %d: %w", entryID, err)
		}
	}
	return entryTags(ctx, q, memberID, entryID)
}

func entryTags(ctx context.Context, q *db.Queries, memberID, entryID int64) ([]string, error) {
	byEntry, err := tagsOf(ctx, q, memberID, []int64{entryID})
	if err != nil {
		return nil, err
	}
	return byEntry[entryID], nil
}

// tagsOf answers the tag names of many entries in one query.
func tagsOf(ctx context.Context, q *db.Queries, memberID int64, ids []int64) (map[int64][]string, error) {
	out := map[int64][]string{}
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := q.ListEntryTags(ctx, db.ListEntryTagsParams{MemberID: memberID, EntryIds: ids})
	if err != nil {
		return nil, fmt.Errorf("tags of entries: %w", err)
	}
	for _, r := range rows {
		out[r.EntryID] = append(out[r.EntryID], r.Name)
	}
	return out, nil
}

// CreateEntry creates an entry.
func (h *LedgerHandler) CreateEntry(ctx context.Context, req api.CreateEntryRequestObject) (api.CreateEntryResponseObject, error) {
	p := caller(ctx)
	in, err := EntryInputFrom(*req.Body, p.HasPremium())
	if err != nil {
		return nil, err
	}
	att, err := AttributionOf(ctx)
	if err != nil {
		return nil, err
	}
	if in.CreatedBy, in.PaidByColumn, err = att.Write("/paidBy", in.PaidBy); err != nil {
		return nil, err
	}
	if err := h.fillRate(ctx, p.MemberID, &in); err != nil {
		return nil, err
	}
	in.ProbeNewDay = h.mayCompleteToday(p.MonthStartDay, in.Date)
	// The entry's statement takes the member's ledger lock (shared) before
	// its checks (an untagged create's key-share lock what they find; a
	// tagged one's foreign keys catch a deletion in between: refGone). Without an Idempotency-Key it is first tried as a
	// transaction of its own that bounds the totals itself
	// (CreateEntryAlone); otherwise, or where that cannot decide, the
	// statement and then, when the entry moves money, the write check of
	// the totals it moved (totals.go) run in one transaction with the key.
	var e Entry
	var out etag.Tagged[api.Entry]
	var replayed *string
	alone := false
	if req.Params.IdempotencyKey == nil {
		if e, alone, err = CreateEntryAlone(ctx, h.pool, p.MemberID, in); err != nil {
			return nil, err
		}
		if alone {
			if out, err = etag.Answered(e.Version, att.Entry(e)); err != nil {
				return nil, err
			}
		}
	}
	if !alone {
		out, replayed, err = idempotency.Create(ctx, h.keys, "createEntry", req.Params.IdempotencyKey, req, func(q *db.Queries) (etag.Tagged[api.Entry], error) {
			var err error
			if e, err = CreateEntryTx(ctx, q, p.MemberID, in); err != nil {
				return etag.Tagged[api.Entry]{}, err
			}
			var moved Totals
			moved.Entry(nil, &e.AccountEntry)
			if err := CheckTotalsTx(ctx, q, p.MemberID, &moved); err != nil {
				return etag.Tagged[api.Entry]{}, err
			}
			// The version after its tag links, which raise it.
			return etag.Answered(e.Version, att.Entry(e))
		})
	}
	if err != nil {
		return nil, err
	}
	if replayed == nil && h.mayCompleteMonth(e) {
		h.entryWritten(ctx, p, e)
	}
	return api.CreateEntry201JSONResponse{Body: out.Body, Headers: api.CreateEntry201ResponseHeaders{
		ETag: etag.Ptr(out.ETag), IdempotentReplayed: replayed,
	}}, nil
}

// mayCompleteMonth says whether writing e may have completed its month, so
// that the entry hook (the month-complete check) is worth running: a write
// that covered a day the month lacked, or one dated today. A day covered
// before by an entry written ahead begins to count only when it comes
// (DECISIONS 9), so on that day a write of today may complete the month
// without covering a new day.
func (h *LedgerHandler) mayCompleteMonth(e Entry) bool {
	if e.NewDay {
		return true
	}
	return e.EntryDate.Equal(calendar.Day(h.clock.Now(), h.loc))
}

// mayCompleteToday says whether an entry dated day may complete its month
// today (calendar.MayCompleteOn), so that its create asks whether it covers
// a new day. On the other days of a month the create reads none of the
// member's entries.
func (h *LedgerHandler) mayCompleteToday(startDay int, day time.Time) bool {
	_, ok := calendar.MayCompleteOn(calendar.Day(h.clock.Now(), h.loc), startDay, day)
	return ok
}

// GetEntry answers one entry with its tags.
func (h *LedgerHandler) GetEntry(ctx context.Context, req api.GetEntryRequestObject) (api.GetEntryResponseObject, error) {
	memberID := caller(ctx).MemberID
	q := db.New(h.pool)
	row, err := q.GetEntry(ctx, db.GetEntryParams{MemberID: memberID, ID: req.ID})
	if err := database.NoRows(err, ErrEntryNotFound, fmt.Sprintf("entry %d", req.ID)); err != nil {
		return nil, err
	}
	tags, err := entryTags(ctx, q, memberID, row.ID)
	if err != nil {
		return nil, err
	}
	att, err := AttributionOf(ctx)
	if err != nil {
		return nil, err
	}
	return api.GetEntry200JSONResponse{Body: att.Entry(Entry{AccountEntry: row, Tags: tags})}, nil
}

// UpdateEntry replaces an entry's fields (tags only when sent).
func (h *LedgerHandler) UpdateEntry(ctx context.Context, req api.UpdateEntryRequestObject) (api.UpdateEntryResponseObject, error) {
	p := caller(ctx)
	in, err := EntryInputFrom(*req.Body, p.HasPremium())
	if err != nil {
		return nil, err
	}
	att, err := AttributionOf(ctx)
	if err != nil {
		return nil, err
	}
	if err := att.CheckPaidBy("/paidBy", in.PaidBy); err != nil {
		return nil, err
	}
	in.PaidByColumn = att.PaidByUpdate(in.PaidBy)
	if err := h.fillRate(ctx, p.MemberID, &in); err != nil {
		return nil, err
	}
	match := etag.Parse(req.Params.IfMatch)
	e, err := WriteTxV(ctx, h.pool, p.MemberID, func(q *db.Queries) (Entry, error) {
		feeOf, err := lockFeeTransfer(ctx, q, p.MemberID, req.ID)
		if err != nil {
			return Entry{}, err
		}
		old, err := q.GetEntryForUpdate(ctx, db.GetEntryForUpdateParams{MemberID: p.MemberID, ID: req.ID})
		if err := database.NoRows(err, ErrEntryNotFound, fmt.Sprintf("entry %d", req.ID)); err != nil {
			return Entry{}, err
		}
		// The row is locked until the commit: the version it has now is
		// the one this write changes.
		if !match.Hits(old.Version) {
			return Entry{}, errMissed
		}
		if old.TransferID != nil {
			return Entry{}, errTransferEntry(*old.TransferID)
		}
		row, err := UpdateEntryTx(ctx, q, p.MemberID, req.ID, in)
		if err != nil {
			return Entry{}, err
		}
		var moved Totals
		moved.Entry(&old, &row)
		if err := CheckTotalsTx(ctx, q, p.MemberID, &moved); err != nil {
			return Entry{}, err
		}
		if feeOf != 0 && row.Amount != old.Amount {
			// The transfer answers its fee: a new amount is a new
			// version of the transfer too, so a stale If-Match on it
			// cannot put the old fee back.
			if err := q.TouchTransfer(ctx, db.TouchTransferParams{MemberID: p.MemberID, ID: feeOf}); err != nil {
				return Entry{}, fmt.Errorf("version of transfer %d: %w", feeOf, err)
			}
		}
		var tags []string
		if in.Tags != nil {
			tags, err = setEntryTags(ctx, q, p.MemberID, row.ID, in.Tags, true)
		} else {
			tags, err = entryTags(ctx, q, p.MemberID, row.ID)
		}
		if err != nil {
			return Entry{}, err
		}
		// Only a new date can cover a day the month lacked. New tag links
		// raised the version the UPDATE answered: the one committed.
		e := Entry{AccountEntry: row, Tags: tags, NewDay: !row.EntryDate.Equal(old.EntryDate)}
		if in.Tags != nil {
			e.Version, err = q.EntryVersion(ctx, db.EntryVersionParams{MemberID: p.MemberID, ID: req.ID})
		}
		return e, err
	})
	if errors.Is(err, errMissed) {
		return nil, etag.Failed(h.currentEntryTag(ctx, att, p.MemberID, req.ID))
	}
	if err != nil {
		return nil, err
	}
	if h.mayCompleteMonth(e) {
		h.entryWritten(ctx, p, e)
	}
	out, err := etag.Answered(e.Version, att.Entry(e))
	if err != nil {
		return nil, err
	}
	return api.UpdateEntry200JSONResponse{Body: out.Body, Headers: api.UpdateEntry200ResponseHeaders{ETag: etag.Ptr(out.ETag)}}, nil
}

// currentEntryTag is the ETag a GET of the entry answers now, for a 412
// ("" when it is gone, or cannot be read: the client reads it again).
func (h *LedgerHandler) currentEntryTag(ctx context.Context, att Attribution, memberID, id int64) string {
	q := db.New(h.pool)
	row, err := q.GetEntry(ctx, db.GetEntryParams{MemberID: memberID, ID: id})
	if err != nil {
		return ""
	}
	tags, err := entryTags(ctx, q, memberID, row.ID)
	if err != nil {
		return ""
	}
	tag, _ := etag.Of(row.Version, att.Entry(Entry{AccountEntry: row, Tags: tags}))
	return tag
}

// DeleteEntry deletes an entry that is not part of a transfer.
func (h *LedgerHandler) DeleteEntry(ctx context.Context, req api.DeleteEntryRequestObject) (api.DeleteEntryResponseObject, error) {
	memberID := caller(ctx).MemberID
	match := etag.Parse(req.Params.IfMatch)
	err := writeTx(ctx, h.pool, memberID, func(q *db.Queries) error {
		// A fee entry's deletion sets its transfer's fee_entry_id to NULL
		// (a write of the transfer, which raises its version): the
		// transfer first, in lock order.
		if _, err := lockFeeTransfer(ctx, q, memberID, req.ID); err != nil {
			return err
		}
		old, err := q.GetEntryForUpdate(ctx, db.GetEntryForUpdateParams{MemberID: memberID, ID: req.ID})
		if err := database.NoRows(err, ErrEntryNotFound, fmt.Sprintf("entry %d", req.ID)); err != nil {
			return err
		}
		if !match.Hits(old.Version) { // locked until the commit
			return errMissed
		}
		if old.TransferID != nil {
			return errTransferEntry(*old.TransferID)
		}
		if _, err = q.DeleteEntry(ctx, db.DeleteEntryParams{MemberID: memberID, ID: req.ID}); err != nil {
			return err
		}
		// Deleting an expense raises its wallet's balance.
		var moved Totals
		moved.Entry(&old, nil)
		return CheckTotalsTx(ctx, q, memberID, &moved)
	})
	if errors.Is(err, errMissed) {
		att, aerr := AttributionOf(ctx)
		if aerr != nil {
			return nil, etag.Failed("")
		}
		return nil, etag.Failed(h.currentEntryTag(ctx, att, memberID, req.ID))
	}
	if err != nil {
		return nil, err
	}
	return api.DeleteEntry204Response{}, nil
}

// ConfirmEntry makes a pending entry count.
func (h *LedgerHandler) ConfirmEntry(ctx context.Context, req api.ConfirmEntryRequestObject) (api.ConfirmEntryResponseObject, error) {
	p := caller(ctx)
	memberID := p.MemberID
	q := db.New(h.pool)
	row, err := h.confirm(ctx, memberID, req.ID)
	if errors.Is(err, pgx.ErrNoRows) {
		// Not the member's, or awaiting its exchange rate.
		row, err = h.confirmAtRate(ctx, q, memberID, req.ID)
	}
	if err := database.NoRows(err, ErrEntryNotFound, fmt.Sprintf("confirm entry %d", req.ID)); err != nil {
		return nil, err
	}
	e := Entry{AccountEntry: row.AccountEntry}
	if e.Tags, err = entryTags(ctx, q, memberID, row.AccountEntry.ID); err != nil {
		return nil, err
	}
	// A confirmation retried after it went through changes nothing, and
	// asks for no second month-complete check.
	if row.WasPending {
		h.entryWritten(ctx, p, e)
	}
	att, err := AttributionOf(ctx)
	if err != nil {
		return nil, err
	}
	return api.ConfirmEntry200JSONResponse(att.Entry(e)), nil
}

// confirm confirms a pending entry that does not await its rate, under the
// member's ledger lock (pgx.ErrNoRows: none such of the member).
func (h *LedgerHandler) confirm(ctx context.Context, memberID, id int64) (db.ConfirmEntryRow, error) {
	return WriteTxV(ctx, h.pool, memberID, func(q *db.Queries) (db.ConfirmEntryRow, error) {
		row, err := q.ConfirmEntry(ctx, db.ConfirmEntryParams{MemberID: memberID, ID: id})
		if err != nil || !row.WasPending {
			return row, err
		}
		var moved Totals
		moved.Entry(nil, &row.AccountEntry)
		return row, CheckTotalsTx(ctx, q, memberID, &moved)
	})
}

// lockFeeTransfer locks the transfer whose fee entry id is, before the
// entry is locked (database.LockOrder: transfer, then entry), and answers its
// id (0: the entry is no transfer's fee).
func lockFeeTransfer(ctx context.Context, q *db.Queries, memberID, id int64) (int64, error) {
	t, err := q.LockFeeTransfer(ctx, db.LockFeeTransferParams{MemberID: memberID, EntryID: &id})
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("transfer of fee entry %d: %w", id, err)
	}
	return t, nil
}

// confirmAtRate confirms an entry that awaits its exchange rate (a foreign
// card payment stored while no rate could be had): the rate of its day is
// looked up with no connection held, then the entry is confirmed with its
// won amount in one statement that finds it unchanged. No rate now is the
// lookup's 503 or 429, and the entry stays pending. pgx.ErrNoRows: no such
// entry of the member.
func (h *LedgerHandler) confirmAtRate(ctx context.Context, q *db.Queries, memberID, id int64) (db.ConfirmEntryRow, error) {
	e, err := q.GetEntry(ctx, db.GetEntryParams{MemberID: memberID, ID: id})
	if err != nil {
		return db.ConfirmEntryRow{}, err
	}
	if e.TransferID != nil {
		// A pending transfer (a card bill payment) is confirmed whole.
		return db.ConfirmEntryRow{}, errTransferEntry(*e.TransferID)
	}
	if !e.AwaitingRate || e.Currency == nil {
		// Confirmed or given an amount since the first statement.
		return h.confirm(ctx, memberID, id)
	}
	if h.rates == nil {
		return db.ConfirmEntryRow{}, rates.ErrNotConfigured
	}
	r, err := h.rates.RateOn(ctx, memberID, *e.Currency, h.base, e.EntryDate)
	if err != nil {
		return db.ConfirmEntryRow{}, err
	}
	amount := ConvertAmount(e.OriginalAmount.Decimal, r.Rate)
	if amount < 0 || amount > maxAmount {
		return db.ConfirmEntryRow{}, problem.Conflict(problem.CodeConflict,
			fmt.Sprintf("%s %s at %s is past 10^15 won: edit the entry instead", e.OriginalAmount.Decimal, *e.Currency, r.Rate))
	}
	// The rate was looked up with no transaction open; the write takes
	// the ledger lock as every write does.
	done, err := WriteTxV(ctx, h.pool, memberID, func(q *db.Queries) (db.AccountEntry, error) {
		row, err := q.ConfirmEntryAtRate(ctx, db.ConfirmEntryAtRateParams{
			MemberID: memberID, ID: id, Amount: amount, ExchangeRate: decimal.NullDecimal{Decimal: r.Rate, Valid: true},
			Currency: e.Currency, OriginalAmount: e.OriginalAmount, EntryDate: e.EntryDate,
		})
		if err != nil {
			return row, err
		}
		var moved Totals
		moved.Entry(nil, &row)
		return row, CheckTotalsTx(ctx, q, memberID, &moved)
	})
	if errors.Is(err, pgx.ErrNoRows) {
		return db.ConfirmEntryRow{}, problem.Conflict(problem.CodeConflict, fmt.Sprintf("entry %d changed while its exchange rate was looked up: confirm it again", id))
	}
	return db.ConfirmEntryRow{AccountEntry: done, WasPending: true}, err
}

// CountPendingEntries answers how many entries await confirmation.
func (h *LedgerHandler) CountPendingEntries(ctx context.Context, _ api.CountPendingEntriesRequestObject) (api.CountPendingEntriesResponseObject, error) {
	memberID := caller(ctx).MemberID
	n, err := db.New(h.pool).CountPendingEntries(ctx, memberID)
	if err != nil {
		return nil, fmt.Errorf("pending entries of member %d: %w", memberID, err)
	}
	return api.CountPendingEntries200JSONResponse{Count: n}, nil
}

// EntryFilter selects the entries of a list.
type EntryFilter struct {
	// From and To are a half-open range of dates [From, To).
	From, To   time.Time
	WalletID   *int64
	CategoryID *int64
	Tag        *string
	Type       *string
	Pending    *bool
	// Transfer true selects only transfer entries, false only the others.
	Transfer *bool
	// Text is searched in memos, case-insensitively.
	Text *string
	// CreatedBy and PaidBy select by attribution; AttrDefault is the member
	// a NULL attribution stands for (Attribution.Default).
	CreatedBy, PaidBy, AttrDefault *int64
	Page, Size                     int32
}

// EntryList is one page of entries with the whole selection's totals.
type EntryList struct {
	Items                  []Entry
	Total, Income, Expense int64
	// IncomeExact and ExpenseExact are false for a total beyond int64
	// (held at the bound, money.Held): the page is answered all the same.
	IncomeExact, ExpenseExact bool
}

// ReadEntryPage answers a page of entries in two statements whatever its
// size, sent together in one round trip (database.Pipeline, through dbtx: a
// pool, a connection or a transaction): the page with each entry's tags, and
// the selection's count and totals.
func ReadEntryPage(ctx context.Context, dbtx db.DBTX, memberID int64, f EntryFilter) (EntryList, error) {
	var pattern *string
	if f.Text != nil {
		pattern = ptr("%" + likeEscaper.Replace(*f.Text) + "%")
	}
	pipe := database.NewPipeline(dbtx)
	defer pipe.Close()
	q := db.New(pipe)
	pageQ := q.ListEntries(ctx, []db.ListEntriesParams{{
		MemberID: memberID, FromDate: f.From, ToDate: f.To, WalletID: f.WalletID, CategoryID: f.CategoryID,
		Type: f.Type, Pending: f.Pending, Transfer: f.Transfer, MemoPattern: pattern, Tag: f.Tag,
		CreatedBy: f.CreatedBy, PaidBy: f.PaidBy, AttrDefault: f.AttrDefault,
		Lim: f.Size, Off: (f.Page - 1) * f.Size,
	}})
	sumQ := q.SummarizeEntries(ctx, []db.SummarizeEntriesParams{{
		MemberID: memberID, FromDate: f.From, ToDate: f.To, WalletID: f.WalletID, CategoryID: f.CategoryID,
		Type: f.Type, Pending: f.Pending, Transfer: f.Transfer, MemoPattern: pattern, Tag: f.Tag,
		CreatedBy: f.CreatedBy, PaidBy: f.PaidBy, AttrDefault: f.AttrDefault,
	}})
	rows, err := database.Rows(pageQ.Query)
	if err != nil {
		return EntryList{}, fmt.Errorf("list entries of member %d: %w", memberID, err)
	}
	var sum db.SummarizeEntriesRow
	sumQ.QueryRow(func(_ int, r db.SummarizeEntriesRow, e error) { sum, err = r, e })
	if err != nil {
		return EntryList{}, fmt.Errorf("summarize entries of member %d: %w", memberID, err)
	}
	// A total beyond int64 is held and flagged, not a 422: the member must
	// reach the entries behind it (issue 42).
	out := EntryList{Items: make([]Entry, len(rows)), Total: sum.Total}
	out.Income, out.IncomeExact = money.Held(sum.Income)
	out.Expense, out.ExpenseExact = money.Held(sum.Expense)
	for i, r := range rows {
		out.Items[i] = Entry{AccountEntry: r.AccountEntry, Tags: r.Tags}
	}
	return out, nil
}

var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

// Period turns a list's period parameters into a date range [from, to): a
// ledger month of a member whose month begins on startDay (year and month),
// or a from/to range (both days included, at most maxRangeDays). given is
// false when none of them was sent; each caller picks its own default. The
// entry and transfer lists share it, so both read a month the same way.
func Period(startDay int, year, month *int32, fromDay, toDay *types.Date) (from, to time.Time, given bool, err error) {
	switch {
	case year != nil || month != nil:
		if year == nil || month == nil {
			return from, to, true, problem.Invalid("year", "year and month go together")
		}
		if fromDay != nil || toDay != nil {
			return from, to, true, problem.Invalid("from", "give either year and month or from and to")
		}
		if *month < 1 || *month > 12 {
			return from, to, true, problem.Invalid("month", "must be 1 to 12")
		}
		m := calendar.NewMonth(int(*year), time.Month(*month), startDay)
		return m.From(), m.To(), true, nil
	case fromDay != nil || toDay != nil:
		if fromDay == nil || toDay == nil {
			return from, to, true, problem.Invalid("from", "from and to go together")
		}
		from, to = fromDay.Time, toDay.Time.AddDate(0, 0, 1)
		if !to.After(from) {
			return from, to, true, problem.Invalid("to", "must not be before from")
		}
		if to.Sub(from) > maxRangeDays*24*time.Hour {
			return from, to, true, problem.Invalid("to", fmt.Sprintf("a range spans at most %d days", maxRangeDays))
		}
		return from, to, true, nil
	}
	return from, to, false, nil
}

// period is the entry list's period: Period, or the current ledger month in
// the service time zone when none was given.
func (h *LedgerHandler) period(startDay int, p api.ListEntriesParams) (from, to time.Time, err error) {
	from, to, given, err := Period(startDay, p.Year, p.Month, p.From, p.To)
	if given || err != nil {
		return from, to, err
	}
	m := calendar.MonthOf(calendar.Day(h.clock.Now(), h.loc), startDay)
	return m.From(), m.To(), nil
}

// ListEntries answers a page of a period's entries with the period's summary.
func (h *LedgerHandler) ListEntries(ctx context.Context, req api.ListEntriesRequestObject) (api.ListEntriesResponseObject, error) {
	who := caller(ctx)
	memberID := who.MemberID
	p := req.Params
	f := EntryFilter{WalletID: p.WalletID, CategoryID: p.CategoryID, Tag: p.Tag, Pending: p.Pending, Transfer: p.Transfer, Text: p.Q, Page: 1, Size: 20,
		CreatedBy: p.CreatedBy, PaidBy: p.PaidBy}
	if p.CreatedBy != nil || p.PaidBy != nil {
		att, err := AttributionOf(ctx)
		if err != nil {
			return nil, err
		}
		f.AttrDefault = ptr(att.Default())
	}
	var err error
	if f.From, f.To, err = h.period(who.MonthStartDay, p); err != nil {
		return nil, err
	}
	if p.Type != nil {
		t, err := cleanType("type", string(*p.Type))
		if err != nil {
			return nil, err
		}
		f.Type = &t
	}
	if p.Page != nil {
		f.Page = *p.Page
	}
	if p.Size != nil {
		f.Size = *p.Size
	}
	if f.Page < 1 || f.Size < 1 || f.Size > 100 {
		return nil, problem.Invalid("size", "page from 1, size 1 to 100")
	}
	q := db.New(h.pool)
	// A filter naming another member's wallet or category is a 404, as
	// everywhere else.
	if _, err := ownWallet(ctx, q, memberID, f.WalletID); err != nil {
		return nil, err
	}
	if _, err := ownCategory(ctx, q, memberID, f.CategoryID); err != nil {
		return nil, err
	}
	list, err := ReadEntryPage(ctx, h.pool, memberID, f)
	if err != nil {
		return nil, err
	}
	out := entryPageAnswer{
		Items: make([]api.Entry, len(list.Items)), Page: f.Page, Size: f.Size, Total: list.Total,
		Summary: api.EntrySummary{Income: list.Income, Expense: list.Expense},
	}
	var beyond []api.EntrySummaryTotalValue
	if !list.IncomeExact {
		beyond = append(beyond, api.EntrySummaryTotalValueIncome)
	}
	if !list.ExpenseExact {
		beyond = append(beyond, api.EntrySummaryTotalValueExpense)
	}
	if beyond != nil {
		out.Summary.OutOfRange = &beyond
	}
	att, err := AttributionOf(ctx)
	if err != nil {
		return nil, err
	}
	for i, e := range list.Items {
		out.Items[i] = att.Entry(e)
	}
	return out, nil
}

// ToAPIEntry maps an entry to the wire.
func ToAPIEntry(e Entry) api.Entry {
	out := api.Entry{
		ID: e.ID, Date: types.Date{Time: e.EntryDate}, Type: api.EntryTypeValue(e.Type), Amount: e.Amount,
		WalletID: e.WalletID, CategoryID: e.CategoryID, Memo: e.Memo, Tags: e.Tags, Currency: e.Currency,
		InstallmentMonths: e.InstallmentMonths, Pending: e.Pending, AwaitingRate: e.AwaitingRate,
		TransferID: e.TransferID, CreatedAt: e.CreatedAt,
	}
	if out.Tags == nil {
		out.Tags = []string{}
	}
	// Without the request's attribution (Attribution.Entry names them):
	// the ids only, NULL being the ledger's owner.
	out.CreatedBy.MemberID, out.PaidBy.MemberID = e.MemberID, e.MemberID
	if e.CreatedBy != nil {
		out.CreatedBy.MemberID = *e.CreatedBy
	}
	if e.PaidBy != nil {
		out.PaidBy.MemberID = *e.PaidBy
	}
	if e.OriginalAmount.Valid {
		out.OriginalAmount = ptr(e.OriginalAmount.Decimal.String())
	}
	if e.ExchangeRate.Valid {
		out.ExchangeRate = ptr(e.ExchangeRate.Decimal.String())
	}
	return out
}
