package ledger

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"sync/atomic"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/oapi-codegen/runtime/types"
	"github.com/shopspring/decimal"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/calendar"
	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/internal/etag"
	"github.com/nestegg/nestegg/internal/money"
	"github.com/nestegg/nestegg/internal/problem"
)

// FreeLimit is how many wallets of one type, and how many recurring entries
// in total, a FREE member may hold.
const FreeLimit = 2

// walletTypes are the wallet types of DECISIONS.md section 5.
var walletTypes = map[string]bool{
	"CASH": true, "BANK": true, "SAVINGS": true, "CARD": true, "CHECK_CARD": true, "LOAN": true,
	"MINUS": true, "INVEST": true, "PENSION": true, "POINT": true, "ETC": true,
}

// Loan methods, as stored.
const (
	LoanEqualPayment   = "EQUAL_PAYMENT"
	LoanEqualPrincipal = "EQUAL_PRINCIPAL"
	LoanBullet         = "BULLET"
)

var accountNumberPattern = regexp.MustCompile(`^[0-9A-Za-z -]+$`)

// ErrWalletNotFound answers a wallet that is not the member's.
var ErrWalletNotFound = problem.NotFound("wallet")

// Limited names what a free limit counts.
type Limited struct {
	walletType string // "" for recurring entries
}

// WalletsOfType is the free limit of wallets of one type.
func WalletsOfType(walletType string) Limited { return Limited{walletType: walletType} }

// Recurrings is the free limit of recurring entries.
var Recurrings = Limited{}

// CheckFreeLimit is the one place the free limits are decided. Call it in the
// creating transaction, before the insert: it takes the member's reservation
// lock (LockReservationsTx), so parallel creations count one after another
// and the limit is exact, while other writes go on. unlimited is true for
// PREMIUM members and administrators; restore does not call it.
func CheckFreeLimit(ctx context.Context, q *db.Queries, memberID int64, unlimited bool, what Limited) error {
	if unlimited {
		return nil
	}
	if err := LockReservationsTx(ctx, q, memberID); err != nil {
		return err
	}
	var n int64
	var err error
	if what.walletType == "" {
		n, err = q.CountRecurrings(ctx, memberID)
	} else {
		n, err = q.CountWalletsOfType(ctx, db.CountWalletsOfTypeParams{MemberID: memberID, Type: what.walletType})
	}
	if err != nil {
		return fmt.Errorf("count for free limit: %w", err)
	}
	if n >= FreeLimit {
		if what.walletType == "" {
			return errFreeLimit(fmt.Sprintf("a FREE membership holds at most %d recurring entries", FreeLimit))
		}
		return errFreeLimit(fmt.Sprintf("a FREE membership holds at most %d wallets of type %s", FreeLimit, what.walletType))
	}
	return nil
}

// Wallet is a wallet with its live balance and plain account number.
type Wallet struct {
	db.Wallet
	Balance int64
	// BalanceOutOfRange says the balance is beyond int64 (a ledger stored
	// before the write check): Balance is then held at the nearest end of
	// the range (money.Held) and the answer flags it.
	BalanceOutOfRange bool
}

// withBalance is w with its balance summed as numeric, held and flagged
// when beyond int64: a wallet is answered whatever its balance (issue 42),
// here, in the list and in the changes feed.
func withBalance(w db.Wallet, sum decimal.Decimal) Wallet {
	balance, exact := money.Held(sum)
	return Wallet{Wallet: w, Balance: balance, BalanceOutOfRange: !exact}
}

// walletParams checks a wallet request and turns it into the stored fields
// (the account number sealed).
func walletParams(c *AccountCrypto, memberID int64, in api.WalletRequest) (db.CreateWalletParams, error) {
	p := db.CreateWalletParams{MemberID: memberID}
	var err error
	if p.Name, err = cleanName("/name", in.Name, 50); err != nil {
		return p, err
	}
	if !walletTypes[string(in.Type)] {
		return p, problem.Invalid("/type", "is not a wallet type")
	}
	p.Type = string(in.Type)
	if in.OpeningBalance != nil {
		p.OpeningBalance = *in.OpeningBalance
	}
	if in.AccountNumber != nil {
		n := *in.AccountNumber
		if len(n) < 1 || len(n) > MaxAccountNumber || !accountNumberPattern.MatchString(n) {
			return p, problem.Invalid("/accountNumber", "must be 1 to 64 digits, letters, spaces or hyphens")
		}
		sealed, err := c.Seal(memberID, n)
		if err != nil {
			return p, err
		}
		p.AccountNumber = &sealed
	}
	if err := loanParams(&p, in); err != nil {
		return p, err
	}
	if in.ManualValuation != nil && *in.ManualValuation {
		if in.CurrentValue == nil {
			return p, problem.Invalid("/currentValue", "is required with manualValuation")
		}
		p.ManualValuation = true
		p.CurrentValue = in.CurrentValue
	}
	if err := cycleParams(&p, in); err != nil {
		return p, err
	}
	return p, nil
}

// cycleParams checks the shape of a card's statement cycle, whose three
// fields go together on a CARD wallet; checkPaymentWallet checks the wallet
// it names.
func cycleParams(p *db.CreateWalletParams, in api.WalletRequest) error {
	given := in.StatementDay != nil || in.PaymentDay != nil || in.PaymentWalletID != nil
	if !given {
		return nil
	}
	for _, f := range []struct {
		field   string
		missing bool
	}{{"/statementDay", in.StatementDay == nil}, {"/paymentDay", in.PaymentDay == nil}, {"/paymentWalletId", in.PaymentWalletID == nil}} {
		if f.missing {
			return problem.Invalid(f.field, "statementDay, paymentDay and paymentWalletId go together")
		}
	}
	if p.Type != "CARD" {
		return problem.Invalid("/statementDay", "only a CARD wallet has a statement cycle")
	}
	if *in.StatementDay < 1 || *in.StatementDay > 31 {
		return problem.Invalid("/statementDay", "must be 1 to 31")
	}
	if *in.PaymentDay < 1 || *in.PaymentDay > 31 {
		return problem.Invalid("/paymentDay", "must be 1 to 31")
	}
	p.StatementDay, p.PaymentDay, p.PaymentWalletID = in.StatementDay, in.PaymentDay, in.PaymentWalletID
	return nil
}

// errPaymentWallet answers a paying wallet that is missing, another member's
// or a CARD: a field of the request, not the record the path names.
var errPaymentWallet = problem.Invalid("/paymentWalletId", "must be one of your wallets that is not a CARD")

// checkPaymentWallet checks the wallet a card is paid from, and
// checkCardPayer a wallet's change to CARD, under the member's reservation
// lock: the two go one after the other, so no wallet becomes a CARD while a
// card is set to be paid from it. self is the wallet being written (0 on
// create).
func checkPaymentWallet(ctx context.Context, q *db.Queries, memberID, self int64, p db.CreateWalletParams) error {
	if p.PaymentWalletID == nil {
		return nil
	}
	if err := LockReservationsTx(ctx, q, memberID); err != nil {
		return err
	}
	if *p.PaymentWalletID == self {
		return errPaymentWallet
	}
	w, err := q.GetWallet(ctx, db.GetWalletParams{MemberID: memberID, ID: *p.PaymentWalletID})
	if err := database.NoRows(err, errPaymentWallet, fmt.Sprintf("payment wallet %d", *p.PaymentWalletID)); err != nil {
		return err
	}
	if w.Type == "CARD" {
		return errPaymentWallet
	}
	return nil
}

// checkCardPayer refuses to make a wallet that pays a card a CARD itself.
func checkCardPayer(ctx context.Context, q *db.Queries, memberID, id int64) error {
	if err := LockReservationsTx(ctx, q, memberID); err != nil {
		return err
	}
	pays, err := q.WalletPaysCards(ctx, db.WalletPaysCardsParams{MemberID: memberID, WalletID: id})
	if err != nil {
		return fmt.Errorf("cards paid from wallet %d: %w", id, err)
	}
	if pays {
		return problem.Invalid("/type", "a card is paid from this wallet; pay it from another wallet first")
	}
	return nil
}

// paymentWalletGone maps the foreign key of a paying wallet deleted between
// its check and the write.
func paymentWalletGone(err error) error {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.ConstraintName == "wallet_payment_wallet_fkey" {
		return errPaymentWallet
	}
	return err
}

// loanParams checks the loan fields, which go together.
func loanParams(p *db.CreateWalletParams, in api.WalletRequest) error {
	given := 0
	for _, set := range []bool{in.LoanAmount != nil, in.LoanRate != nil, in.LoanMethod != nil, in.LoanMonths != nil, in.LoanStart != nil} {
		if set {
			given++
		}
	}
	if given == 0 {
		if in.LoanPayment != nil {
			return problem.Invalid("/loanPayment", "needs the other loan fields")
		}
		return nil
	}
	if given < 5 {
		for field, missing := range map[string]bool{
			"/loanAmount": in.LoanAmount == nil, "/loanRate": in.LoanRate == nil, "/loanMethod": in.LoanMethod == nil,
			"/loanMonths": in.LoanMonths == nil, "/loanStart": in.LoanStart == nil,
		} {
			if missing {
				return problem.Invalid(field, "loanAmount, loanRate, loanMethod, loanMonths and loanStart go together")
			}
		}
	}
	if *in.LoanAmount < 1 {
		return problem.Invalid("/loanAmount", "must be positive")
	}
	rate, err := decimal.NewFromString(*in.LoanRate)
	if err != nil || rate.IsNegative() || rate.GreaterThan(decimal.NewFromInt(100)) {
		return problem.Invalid("/loanRate", "must be a decimal from 0 to 100")
	}
	switch string(*in.LoanMethod) {
	case LoanEqualPayment, LoanEqualPrincipal, LoanBullet:
	default:
		return problem.Invalid("/loanMethod", "must be EQUAL_PAYMENT, EQUAL_PRINCIPAL or BULLET")
	}
	if *in.LoanMonths < 1 || *in.LoanMonths > 600 {
		return problem.Invalid("/loanMonths", "must be 1 to 600")
	}
	if in.LoanPayment != nil && *in.LoanPayment < 1 {
		return problem.Invalid("/loanPayment", "must be positive")
	}
	if in.LoanPayment != nil {
		if err := CheckLoanPayment("/loanPayment", *in.LoanAmount, *in.LoanPayment, rate, string(*in.LoanMethod)); err != nil {
			return err
		}
	}
	p.LoanAmount = in.LoanAmount
	p.LoanRate = decimal.NullDecimal{Decimal: rate, Valid: true}
	p.LoanMethod = ptr(string(*in.LoanMethod))
	p.LoanMonths = in.LoanMonths
	p.LoanStart = pgtype.Date{Time: in.LoanStart.Time, Valid: true}
	p.LoanPayment = in.LoanPayment
	return nil
}

// ListWallets answers the member's wallets with their balances (one query).
func (h *LedgerHandler) ListWallets(ctx context.Context, _ api.ListWalletsRequestObject) (api.ListWalletsResponseObject, error) {
	memberID := caller(ctx).MemberID
	rows, err := db.New(h.pool).ListWalletsWithBalance(ctx, memberID)
	if err != nil {
		return nil, fmt.Errorf("list wallets of member %d: %w", memberID, err)
	}
	items := make([]api.Wallet, len(rows))
	for i, r := range rows {
		if items[i], err = h.crypto.toAPIWallet(withBalance(r.Wallet, r.Balance)); err != nil {
			return nil, err
		}
	}
	return api.ListWallets200JSONResponse{Items: items}, nil
}

// CreateWallet creates a wallet within the free limit.
func (h *LedgerHandler) CreateWallet(ctx context.Context, req api.CreateWalletRequestObject) (api.CreateWalletResponseObject, error) {
	p := caller(ctx)
	out, replayed, err := createOnce(ctx, h, "createWallet", req.Params.IdempotencyKey, req, func(q *db.Queries) (etag.Tagged[api.Wallet], error) {
		if err := CheckFreeLimit(ctx, q, p.MemberID, p.HasPremium(), WalletsOfType(string(req.Body.Type))); err != nil {
			return etag.Tagged[api.Wallet]{}, err
		}
		var w Wallet
		// Its opening balance or current value counts in net worth.
		err := CheckWalletWriteTx(ctx, q, p.MemberID, func() (err error) {
			w, err = CreateWalletTx(ctx, q, h.crypto, p.MemberID, *req.Body)
			return err
		})
		if err != nil {
			return etag.Tagged[api.Wallet]{}, err
		}
		body, err := h.crypto.toAPIWallet(w)
		if err != nil {
			return etag.Tagged[api.Wallet]{}, err
		}
		return etag.Answered(w.Version, body)
	})
	if err != nil {
		return nil, err
	}
	return api.CreateWallet201JSONResponse{Body: out.Body, Headers: api.CreateWallet201ResponseHeaders{
		ETag: etag.Ptr(out.ETag), IdempotentReplayed: replayed,
	}}, nil
}

// CreateWalletTx creates a wallet, placed last, without the free limit (the
// caller applies CheckFreeLimit where it holds).
func CreateWalletTx(ctx context.Context, q *db.Queries, c *AccountCrypto, memberID int64, in api.WalletRequest) (Wallet, error) {
	params, err := walletParams(c, memberID, in)
	if err != nil {
		return Wallet{}, err
	}
	if err := checkPaymentWallet(ctx, q, memberID, 0, params); err != nil {
		return Wallet{}, err
	}
	w, err := q.CreateWallet(ctx, params)
	if err != nil {
		return Wallet{}, paymentWalletGone(fmt.Errorf("create wallet: %w", err))
	}
	return Wallet{Wallet: w, Balance: w.OpeningBalance}, nil
}

// GetWallet answers one wallet with its balance.
func (h *LedgerHandler) GetWallet(ctx context.Context, req api.GetWalletRequestObject) (api.GetWalletResponseObject, error) {
	w, err := getWallet(ctx, db.New(h.pool), caller(ctx).MemberID, req.ID)
	if err != nil {
		return nil, err
	}
	out, err := h.crypto.toAPIWallet(w)
	return api.GetWallet200JSONResponse{Body: out}, err
}

func getWallet(ctx context.Context, q *db.Queries, memberID, id int64) (Wallet, error) {
	r, err := q.GetWalletWithBalance(ctx, db.GetWalletWithBalanceParams{MemberID: memberID, ID: id})
	if err := database.NoRows(err, ErrWalletNotFound, fmt.Sprintf("wallet %d", id)); err != nil {
		return Wallet{}, err
	}
	// The balance is summed as numeric, so an out-of-range balance is an
	// answer here (held and flagged) rather than an aborted transaction
	// (UpdateWallet reads it inside its own).
	return withBalance(r.Wallet, r.Balance), nil
}

// ownWallet loads a wallet a request names (nil for none): another member's
// is a 404.
func ownWallet(ctx context.Context, q *db.Queries, memberID int64, id *int64) (*db.Wallet, error) {
	if id == nil {
		return nil, nil
	}
	w, err := q.GetWallet(ctx, db.GetWalletParams{MemberID: memberID, ID: *id})
	if err := database.NoRows(err, ErrWalletNotFound, fmt.Sprintf("wallet %d", *id)); err != nil {
		return nil, err
	}
	return &w, nil
}

// UpdateWallet replaces a wallet's fields.
func (h *LedgerHandler) UpdateWallet(ctx context.Context, req api.UpdateWalletRequestObject) (api.UpdateWalletResponseObject, error) {
	caller := caller(ctx)
	memberID := caller.MemberID
	match := etag.Parse(req.Params.IfMatch)
	w, err := WriteTxV(ctx, h.pool, memberID, func(q *db.Queries) (Wallet, error) {
		p, err := walletParams(h.crypto, memberID, *req.Body)
		if err != nil {
			return Wallet{}, err
		}
		old, err := ownWallet(ctx, q, memberID, &req.ID)
		if err != nil {
			return Wallet{}, err
		}
		// Changing the type moves the wallet into another type's limit.
		if old.Type != p.Type {
			if err := installmentsMayLeave(ctx, q, memberID, req.ID, p.Type, "/type"); err != nil {
				return Wallet{}, err
			}
			if err := CheckFreeLimit(ctx, q, memberID, caller.HasPremium(), WalletsOfType(p.Type)); err != nil {
				return Wallet{}, err
			}
			if p.Type == "CARD" {
				if err := checkCardPayer(ctx, q, memberID, req.ID); err != nil {
					return Wallet{}, err
				}
			}
		}
		if err := checkPaymentWallet(ctx, q, memberID, req.ID, p); err != nil {
			return Wallet{}, err
		}
		if h.cycleHook != nil && old.StatementDay != nil && old.PaymentDay != nil &&
			(p.StatementDay == nil || *p.StatementDay != *old.StatementDay || *p.PaymentDay != *old.PaymentDay) {
			today := calendar.Day(h.clock.Now(), h.loc)
			if err := h.cycleHook(ctx, q, memberID, req.ID, p.StatementDay == nil, today); err != nil {
				return Wallet{}, err
			}
		}
		// A new opening balance or current value moves the balance and net
		// worth: the write check around the UPDATE.
		err = CheckWalletWriteTx(ctx, q, memberID, func() error {
			_, err := q.UpdateWallet(ctx, db.UpdateWalletParams{
				MemberID: memberID, ID: req.ID, Name: p.Name, Type: p.Type, OpeningBalance: p.OpeningBalance,
				AccountNumber: p.AccountNumber, LoanAmount: p.LoanAmount, LoanRate: p.LoanRate, LoanMethod: p.LoanMethod,
				LoanMonths: p.LoanMonths, LoanStart: p.LoanStart, LoanPayment: p.LoanPayment,
				ManualValuation: p.ManualValuation, CurrentValue: p.CurrentValue,
				StatementDay: p.StatementDay, PaymentDay: p.PaymentDay, PaymentWalletID: p.PaymentWalletID,
				IfVersions: match.Versions(),
			})
			return database.NoRows(paymentWalletGone(err), errMissed, fmt.Sprintf("update wallet %d", req.ID))
		})
		if err != nil {
			return Wallet{}, err
		}
		return getWallet(ctx, q, memberID, req.ID)
	})
	if errors.Is(err, errMissed) {
		return nil, etag.Missed(match, ErrWalletNotFound, func() (string, bool, error) { return h.currentWalletTag(ctx, memberID, req.ID) })
	}
	if err != nil {
		return nil, err
	}
	body, err := h.crypto.toAPIWallet(w)
	if err != nil {
		return nil, err
	}
	out, err := etag.Answered(w.Version, body)
	if err != nil {
		return nil, err
	}
	return api.UpdateWallet200JSONResponse{Body: out.Body, Headers: api.UpdateWallet200ResponseHeaders{ETag: etag.Ptr(out.ETag)}}, nil
}

// currentWalletTag is the ETag a GET of the wallet answers now, for a 412.
func (h *LedgerHandler) currentWalletTag(ctx context.Context, memberID, id int64) (string, bool, error) {
	w, err := getWallet(ctx, db.New(h.pool), memberID, id)
	if errors.Is(err, ErrWalletNotFound) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	body, err := h.crypto.toAPIWallet(w)
	if err != nil {
		return "", false, err
	}
	tag, err := etag.Of(w.Version, body)
	return tag, err == nil, err
}

// installmentsMayLeave refuses, as a 400 naming field, to let a wallet's
// entries end up in a wallet of type toType when some carry installments:
// installments belong on CARD expenses only, whether the entries move to
// another wallet or their wallet changes type.
func installmentsMayLeave(ctx context.Context, q *db.Queries, memberID, walletID int64, toType, field string) error {
	if toType == "CARD" {
		return nil
	}
	has, err := q.WalletHasInstallments(ctx, db.WalletHasInstallmentsParams{MemberID: memberID, WalletID: &walletID})
	if err != nil {
		return fmt.Errorf("installments of wallet %d: %w", walletID, err)
	}
	if has {
		return problem.Invalid(field, "entries with installments belong on a CARD wallet")
	}
	return nil
}

// walletDeleted, when a test sets it, runs after a wallet's row is deleted
// and before the deletion commits, with the row still locked: a race test
// holds the deletion there to make it go first for certain.
var walletDeleted atomic.Pointer[func(walletID int64)]

// DeleteWallet deletes a wallet; entries using it move to moveTo or refuse
// the deletion.
func (h *LedgerHandler) DeleteWallet(ctx context.Context, req api.DeleteWalletRequestObject) (api.DeleteWalletResponseObject, error) {
	memberID := caller(ctx).MemberID
	match := etag.Parse(req.Params.IfMatch)
	err := writeTx(ctx, h.pool, memberID, func(q *db.Queries) error {
		if req.Params.MoveTo == nil {
			return h.deleteWalletTx(ctx, q, memberID, req, match)
		}
		// Entries moved to another wallet move its balance: the write
		// check around the deletion.
		return CheckWalletWriteTx(ctx, q, memberID, func() error { return h.deleteWalletTx(ctx, q, memberID, req, match) })
	})
	if errors.Is(err, errMissed) {
		return nil, etag.Missed(match, ErrWalletNotFound, func() (string, bool, error) { return h.currentWalletTag(ctx, memberID, req.ID) })
	}
	if err != nil {
		return nil, err
	}
	return api.DeleteWallet204Response{}, nil
}

// deleteWalletTx is DeleteWallet's write, in its transaction.
func (h *LedgerHandler) deleteWalletTx(ctx context.Context, q *db.Queries, memberID int64, req api.DeleteWalletRequestObject, match etag.Match) error {
	if _, err := ownWallet(ctx, q, memberID, &req.ID); err != nil {
		return err
	}
	if req.Params.MoveTo != nil {
		if *req.Params.MoveTo == req.ID {
			return problem.Invalid("moveTo", "must be another wallet")
		}
		to, err := ownWallet(ctx, q, memberID, req.Params.MoveTo)
		if err != nil {
			return err
		}
		if err := installmentsMayLeave(ctx, q, memberID, req.ID, to.Type, "moveTo"); err != nil {
			return err
		}
		err = q.MoveWalletEntries(ctx, db.MoveWalletEntriesParams{MemberID: memberID, WalletID: &req.ID, ToWalletID: req.Params.MoveTo})
		if err != nil {
			return refGone(err, fmt.Sprintf("move entries of wallet %d", req.ID))
		}
	} else {
		used, err := q.WalletInUse(ctx, db.WalletInUseParams{MemberID: memberID, WalletID: &req.ID})
		if err != nil {
			return fmt.Errorf("wallet %d in use: %w", req.ID, err)
		}
		if used {
			return problem.Conflict(problem.CodeConflict, "entries use this wallet: name a moveTo wallet for them")
		}
	}
	if err := q.MoveWalletTemplates(ctx, db.MoveWalletTemplatesParams{MemberID: memberID, WalletID: &req.ID, ToWalletID: req.Params.MoveTo}); err != nil {
		return refGone(err, fmt.Sprintf("move templates of wallet %d", req.ID))
	}
	n, err := q.DeleteWallet(ctx, db.DeleteWalletParams{MemberID: memberID, ID: req.ID, IfVersions: match.Versions()})
	if err == nil && n == 0 {
		return errMissed
	}
	if hold := walletDeleted.Load(); err == nil && hold != nil {
		(*hold)(req.ID)
	}
	return inUse(err, "the wallet")
}

// ReorderWallets puts the listed wallets first, in the given order.
func (h *LedgerHandler) ReorderWallets(ctx context.Context, req api.ReorderWalletsRequestObject) (api.ReorderWalletsResponseObject, error) {
	memberID := caller(ctx).MemberID
	if err := checkIDs(req.Body.Ids); err != nil {
		return nil, err
	}
	err := writeTx(ctx, h.pool, memberID, func(q *db.Queries) error {
		n, err := q.CountOwnedWallets(ctx, db.CountOwnedWalletsParams{MemberID: memberID, Ids: req.Body.Ids})
		if err != nil {
			return fmt.Errorf("count wallets: %w", err)
		}
		if n != int64(len(req.Body.Ids)) {
			return ErrWalletNotFound
		}
		return q.ReorderWallets(ctx, db.ReorderWalletsParams{MemberID: memberID, Ids: req.Body.Ids})
	})
	if err != nil {
		return nil, err
	}
	return api.ReorderWallets204Response{}, nil
}

// toAPIWallet maps a wallet to the wire, opening its account number.
func (c *AccountCrypto) toAPIWallet(w Wallet) (api.Wallet, error) {
	out := api.Wallet{
		ID: w.ID, Name: w.Name, Type: api.WalletTypeValue(w.Type), OpeningBalance: w.OpeningBalance, Balance: w.Balance,
		SortOrder: w.SortOrder, LoanAmount: w.LoanAmount, LoanMethod: (*api.NullableLoanMethodValue)(w.LoanMethod), LoanMonths: w.LoanMonths,
		LoanPayment: w.LoanPayment, ManualValuation: w.ManualValuation, CurrentValue: w.CurrentValue,
		StatementDay: w.StatementDay, PaymentDay: w.PaymentDay, PaymentWalletID: w.PaymentWalletID,
	}
	if w.AccountNumber != nil {
		plain, err := c.Open(w.MemberID, *w.AccountNumber)
		if err != nil {
			return api.Wallet{}, fmt.Errorf("wallet %d: %w", w.ID, err)
		}
		out.AccountNumber = &plain
	}
	if w.BalanceOutOfRange {
		out.BalanceOutOfRange = ptr(true)
	}
	if w.LoanRate.Valid {
		out.LoanRate = ptr(w.LoanRate.Decimal.String())
	}
	if w.LoanStart.Valid {
		out.LoanStart = &types.Date{Time: w.LoanStart.Time}
	}
	return out, nil
}

// SetCardCycleTx gives the member's CARD wallet id its statement cycle,
// with the checks an update makes (the days 1 to 31; the paying wallet the
// member's, not a CARD, not itself): a restore sets cycles once every
// wallet of the document exists, whatever their order. Errors name the
// fields as WalletRequest does.
func SetCardCycleTx(ctx context.Context, q *db.Queries, memberID, id int64, statementDay, paymentDay int32, paymentWalletID int64) error {
	p := db.CreateWalletParams{Type: "CARD"}
	if err := cycleParams(&p, api.WalletRequest{StatementDay: &statementDay, PaymentDay: &paymentDay, PaymentWalletID: &paymentWalletID}); err != nil {
		return err
	}
	if err := checkPaymentWallet(ctx, q, memberID, id, p); err != nil {
		return err
	}
	n, err := q.SetWalletCycle(ctx, db.SetWalletCycleParams{
		MemberID: memberID, ID: id, StatementDay: statementDay, PaymentDay: paymentDay, PaymentWalletID: paymentWalletID,
	})
	if err != nil {
		return paymentWalletGone(err)
	}
	if n == 0 {
		return problem.Invalid("/statementDay", "only a CARD wallet has a statement cycle")
	}
	return nil
}
