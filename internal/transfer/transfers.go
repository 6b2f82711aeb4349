// Package transfer moves money between two of a member's wallets: card bill
// payments, savings, cash withdrawals.
//
// A transfer is a linked pair of ledger entries (account_entry.transfer_id):
// an expense on the wallet the money leaves and an income on the wallet it
// reaches. Balances and the entry list see them like any entry; income and
// expense totals, budgets and statistics leave out entries with a
// transfer_id. A fee is an ordinary expense entry of the leaving wallet that
// the transfer points at (transfer.fee_entry_id), so it does count.
package transfer

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/oapi-codegen/runtime/types"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/internal/etag"
	"github.com/nestegg/nestegg/internal/idempotency"
	"github.com/nestegg/nestegg/internal/ledger"
	"github.com/nestegg/nestegg/internal/problem"
	"github.com/nestegg/nestegg/internal/session"
)

// ErrTransferNotFound answers a transfer that is not the member's.
var ErrTransferNotFound = problem.NotFound("transfer")

// TransferHandler implements the transfer operations of the contract.
type TransferHandler struct {
	pool      *pgxpool.Pool
	entryHook ledger.EntryHook
	// keys store the answers of creates sent with an Idempotency-Key
	// (UseKeys).
	keys *idempotency.Store
}

// UseKeys sets the store of Idempotency-Keys the creates answer retries
// from.
func (h *TransferHandler) UseKeys(keys *idempotency.Store) { h.keys = keys }

// NewHandler returns the transfer handler.
func NewHandler(pool *pgxpool.Pool) *TransferHandler { return &TransferHandler{pool: pool} }

// OnEntryWritten sets the hook run after a transfer wrote a fee entry (an
// ordinary expense, so it may complete a month), as the ledger runs it
// after its own entry writes.
func (h *TransferHandler) OnEntryWritten(f ledger.EntryHook) { h.entryHook = f }

// feeWritten runs the entry hook for t's fee, if it has one.
func (h *TransferHandler) feeWritten(ctx context.Context, p *session.Principal, t Transfer) {
	if t.FeeEntryID != nil {
		h.entryHook.Run(ctx, p.MemberID, p.MonthStartDay, t.TransferDate)
	}
}

// Input is a checked transfer request. From and To carry the checked
// date, amount and memo of the two sides.
type Input struct {
	From, To ledger.EntryInput
	// Fee is 0 for none.
	Fee int64
	// Pending makes both sides pending: a card bill payment proposed for
	// the member to confirm (ConfirmTx). Only the cards' payment-day job
	// sets it.
	Pending bool
	// PaidBy is the payer the request names (household books);
	// CreatedBy and PaidByColumn the attribution a write records
	// (Attribute).
	PaidBy, CreatedBy, PaidByColumn *int64
}

// Attribute sets the attribution columns the transfer, its sides and its
// fee are written with (ledger.Attribution.Write, PaidByUpdate).
func (in *Input) Attribute(createdBy, paidBy *int64) {
	in.CreatedBy, in.PaidByColumn = createdBy, paidBy
	for _, e := range []*ledger.EntryInput{&in.From, &in.To} {
		e.CreatedBy, e.PaidByColumn = createdBy, paidBy
	}
}

// Transfer is a transfer with its entries and wallets (read from its
// entries).
type Transfer db.GetTransferRow

// InputFrom checks a transfer request as far as it can without the
// database; the ledger's entry checks bound the amount and the memo.
func InputFrom(in api.TransferRequest) (Input, error) {
	side := func(typ api.EntryType, walletID int64) (ledger.EntryInput, error) {
		return ledger.EntryInputFrom(api.EntryRequest{
			Date: in.Date, Type: typ, Amount: &in.Amount, WalletID: &walletID, Memo: in.Memo,
		}, false)
	}
	from, err := side(api.EntryTypeExpense, in.FromWalletID)
	if err != nil {
		return Input{}, err
	}
	to, err := side(api.EntryTypeIncome, in.ToWalletID)
	if err != nil {
		return Input{}, err
	}
	out := Input{From: from, To: to, PaidBy: in.PaidBy}
	if in.Fee != nil {
		if out.Fee = *in.Fee; out.Fee < 0 || out.Fee > 1_000_000_000_000_000 {
			return Input{}, problem.Invalid("/fee", "must be 0 to 10^15 won")
		}
	}
	return out, nil
}

// feeEntry is the expense a fee is recorded as.
func (in Input) feeEntry() ledger.EntryInput {
	return ledger.EntryInput{Date: in.From.Date, Type: ledger.TypeExpense, Amount: in.Fee, WalletID: in.From.WalletID, Memo: in.From.Memo,
		CreatedBy: in.CreatedBy, PaidByColumn: in.PaidByColumn}
}

// CreateTx records a transfer: its row, its two sides and its fee entry.
// The caller holds the member's ledger lock, shared (ledger/locks.go), as
// UpdateTx's and DeleteTx's do.
func CreateTx(ctx context.Context, q *db.Queries, memberID int64, in Input) (Transfer, error) {
	if err := checkWallets(ctx, q, memberID, in); err != nil {
		return Transfer{}, err
	}
	t, err := q.CreateTransfer(ctx, db.CreateTransferParams{
		MemberID: memberID, TransferDate: in.From.Date, Amount: in.From.Amount, Memo: in.From.Memo,
		CreatedBy: in.CreatedBy, PaidBy: in.PaidByColumn,
	})
	if err != nil {
		return Transfer{}, fmt.Errorf("create transfer: %w", err)
	}
	// Each side is written as the transfer's in its INSERT: no UPDATE
	// fires the entries' triggers a second time.
	for _, side := range []ledger.EntryInput{in.From, in.To} {
		side.TransferID = &t.ID
		side.Pending = in.Pending
		if _, err := ledger.CreateEntryTx(ctx, q, memberID, side); err != nil {
			return Transfer{}, err
		}
	}
	if in.Fee > 0 {
		fee, err := ledger.CreateEntryTx(ctx, q, memberID, in.feeEntry())
		if err != nil {
			return Transfer{}, err
		}
		if _, err := q.UpdateTransfer(ctx, db.UpdateTransferParams{
			MemberID: memberID, ID: t.ID, TransferDate: t.TransferDate, Amount: t.Amount, Memo: t.Memo, FeeEntryID: &fee.ID,
		}); err != nil {
			return Transfer{}, fmt.Errorf("record fee of transfer %d: %w", t.ID, err)
		}
	}
	return getTx(ctx, q, memberID, t.ID)
}

// UpdateTx replaces a transfer's fields and both its sides, keeping the
// entries' ids. The transfer's row lock makes concurrent updates and
// deletions of one transfer run one after the other.
func UpdateTx(ctx context.Context, q *db.Queries, memberID, id int64, in Input) (Transfer, error) {
	t, err := q.LockTransfer(ctx, db.LockTransferParams{MemberID: memberID, ID: id})
	if err := database.NoRows(err, ErrTransferNotFound, fmt.Sprintf("transfer %d", id)); err != nil {
		return Transfer{}, err
	}
	if err := checkWallets(ctx, q, memberID, in); err != nil {
		return Transfer{}, err
	}
	sides, err := ledger.TransferSidesTx(ctx, q, db.ListTransferSidesParams{MemberID: memberID, TransferID: &t.ID})
	if err != nil {
		return Transfer{}, fmt.Errorf("sides of transfer %d: %w", id, err)
	}
	for _, s := range sides {
		e := in.To
		if s.Type == ledger.TypeExpense {
			e = in.From
		}
		if err := updateEntry(ctx, q, memberID, s.ID, e, nil); err != nil {
			return Transfer{}, err
		}
	}
	feeEntryID, err := updateFee(ctx, q, memberID, t.FeeEntryID, in)
	if err != nil {
		return Transfer{}, err
	}
	if _, err := q.UpdateTransfer(ctx, db.UpdateTransferParams{
		MemberID: memberID, ID: id, TransferDate: in.From.Date, Amount: in.From.Amount, Memo: in.From.Memo, FeeEntryID: feeEntryID,
		PaidBy: in.PaidByColumn,
	}); err != nil {
		return Transfer{}, fmt.Errorf("update transfer %d: %w", id, err)
	}
	return getTx(ctx, q, memberID, id)
}

// checkWallets answers 404 for a wallet that is not the member's, then 400
// for one wallet on both sides: another member's id is never told apart
// from a missing one by a different answer.
func checkWallets(ctx context.Context, q *db.Queries, memberID int64, in Input) error {
	for _, id := range []int64{*in.From.WalletID, *in.To.WalletID} {
		_, err := ledger.GetWalletTx(ctx, q, db.GetWalletParams{MemberID: memberID, ID: id})
		if err := database.NoRows(err, ledger.ErrWalletNotFound, fmt.Sprintf("wallet %d", id)); err != nil {
			return err
		}
	}
	if *in.From.WalletID == *in.To.WalletID {
		return problem.Invalid("/toWalletId", "must be another wallet than fromWalletId")
	}
	return nil
}

// updateEntry rewrites one entry of a transfer through the ledger's checks;
// category is the entry's category to keep (a fee entry the member filed
// under one). A wallet deleted meanwhile is the ledger's 404; a fee entry the
// member re-filed under a category of another type cannot stay there as an
// expense (400 naming the fee).
func updateEntry(ctx context.Context, q *db.Queries, memberID, id int64, e ledger.EntryInput, category *int64) error {
	e.CategoryID = category
	_, err := ledger.UpdateEntryTx(ctx, q, memberID, id, e)
	if pe, ok := problem.As(err); ok && len(pe.Fields) == 1 && pe.Fields[0].Field == "/categoryId" && pe.Status == http.StatusBadRequest {
		return problem.Invalid("/fee", fmt.Sprintf("the fee entry %d is filed under a category that is not an expense category: change its category first", id))
	}
	return err
}

// updateFee brings the fee entry in line with the request: created, changed
// or deleted. It answers the fee entry's id (nil for none).
func updateFee(ctx context.Context, q *db.Queries, memberID int64, old *int64, in Input) (*int64, error) {
	if old != nil {
		prev, err := ledger.GetEntryForUpdateTx(ctx, q, db.GetEntryForUpdateParams{MemberID: memberID, ID: *old})
		if errors.Is(err, pgx.ErrNoRows) {
			// The member deleted the fee entry meanwhile: as if there were none.
			return updateFee(ctx, q, memberID, nil, in)
		}
		if err != nil {
			return nil, fmt.Errorf("fee entry %d: %w", *old, err)
		}
		if in.Fee == 0 {
			if _, err := ledger.DeleteEntryTx(ctx, q, db.DeleteEntryParams{MemberID: memberID, ID: *old}); err != nil {
				return nil, fmt.Errorf("delete fee entry %d: %w", *old, err)
			}
			return nil, nil
		}
		return old, updateEntry(ctx, q, memberID, *old, in.feeEntry(), prev.CategoryID)
	}
	if in.Fee == 0 {
		return nil, nil
	}
	fee, err := ledger.CreateEntryTx(ctx, q, memberID, in.feeEntry())
	if err != nil {
		return nil, err
	}
	return &fee.ID, nil
}

// ConfirmTx confirms a pending transfer (both its sides) and answers it;
// a confirmed one is answered unchanged. check runs first, with the
// transfer's row locked, and may refuse the confirmation. The caller holds
// the member's ledger lock, shared.
func ConfirmTx(ctx context.Context, q *db.Queries, memberID, id int64, check func(Transfer) error) (Transfer, error) {
	if _, err := q.LockTransfer(ctx, db.LockTransferParams{MemberID: memberID, ID: id}); err != nil {
		return Transfer{}, database.NoRows(err, ErrTransferNotFound, fmt.Sprintf("transfer %d", id))
	}
	t, err := getTx(ctx, q, memberID, id)
	if err != nil || !t.Pending {
		return t, err
	}
	if err := check(t); err != nil {
		return Transfer{}, err
	}
	if _, err := ledger.ConfirmTransferSidesTx(ctx, q, memberID, id); err != nil {
		return Transfer{}, fmt.Errorf("confirm sides of transfer %d: %w", id, err)
	}
	// The answer shows pending: its version (ETag) moves with it.
	if err := q.RaiseTransferVersion(ctx, db.RaiseTransferVersionParams{MemberID: memberID, ID: id}); err != nil {
		return Transfer{}, fmt.Errorf("version of transfer %d: %w", id, err)
	}
	if t, err = getTx(ctx, q, memberID, id); err != nil {
		return Transfer{}, err
	}
	// Confirmed, its sides move their balances: they stay within int64.
	return t, ledger.CheckTotalsTx(ctx, q, memberID, moveTotals(nil, &t))
}

// DeleteTx deletes a transfer; its sides go with it (foreign key cascade),
// its fee entry is deleted here.
func DeleteTx(ctx context.Context, q *db.Queries, memberID, id int64) error {
	t, err := q.LockTransfer(ctx, db.LockTransferParams{MemberID: memberID, ID: id})
	if err := database.NoRows(err, ErrTransferNotFound, fmt.Sprintf("transfer %d", id)); err != nil {
		return err
	}
	if t.FeeEntryID != nil {
		if _, err := ledger.DeleteEntryTx(ctx, q, db.DeleteEntryParams{MemberID: memberID, ID: *t.FeeEntryID}); err != nil {
			return fmt.Errorf("delete fee entry of transfer %d: %w", id, err)
		}
	}
	if _, err := q.DeleteTransfer(ctx, db.DeleteTransferParams{MemberID: memberID, ID: id}); err != nil {
		return fmt.Errorf("delete transfer %d: %w", id, err)
	}
	return nil
}

// DeleteAllTx deletes all of a member's transfers with their sides (restore
// runs it before ledger.DeleteLedgerTx); fee entries are left to the
// ledger's own deletion.
func DeleteAllTx(ctx context.Context, q *db.Queries, memberID int64) error {
	if err := q.DeleteMemberTransfers(ctx, memberID); err != nil {
		return fmt.Errorf("delete transfers of member %d: %w", memberID, err)
	}
	return nil
}

func getTx(ctx context.Context, q *db.Queries, memberID, id int64) (Transfer, error) {
	r, err := q.GetTransfer(ctx, db.GetTransferParams{MemberID: memberID, ID: id})
	if err := database.NoRows(err, ErrTransferNotFound, fmt.Sprintf("transfer %d", id)); err != nil {
		return Transfer{}, err
	}
	return Transfer(r), nil
}

// caller is the signed-in member of a request.
func caller(ctx context.Context) int64 { return session.PrincipalFrom(ctx).MemberID }

// ListTransfers answers a page of transfers.
func (h *TransferHandler) ListTransfers(ctx context.Context, req api.ListTransfersRequestObject) (api.ListTransfersResponseObject, error) {
	who := session.PrincipalFrom(ctx)
	memberID := who.MemberID
	p := req.Params
	from, to, given, err := ledger.Period(who.MonthStartDay, p.Year, p.Month, p.From, p.To)
	if err != nil {
		return nil, err
	}
	var dateFrom, dateTo pgtype.Date
	if given {
		dateFrom, dateTo = pgtype.Date{Time: from, Valid: true}, pgtype.Date{Time: to, Valid: true}
	}
	page, size := int32(1), int32(20)
	if req.Params.Page != nil {
		page = *req.Params.Page
	}
	if req.Params.Size != nil {
		size = *req.Params.Size
	}
	if page < 1 || size < 1 || size > 100 {
		return nil, problem.Invalid("size", "page from 1, size 1 to 100")
	}
	q := db.New(h.pool)
	rows, err := q.ListTransfers(ctx, db.ListTransfersParams{MemberID: memberID, DateFrom: dateFrom, DateTo: dateTo, Lim: size, Off: (page - 1) * size})
	if err != nil {
		return nil, fmt.Errorf("list transfers of member %d: %w", memberID, err)
	}
	total, err := q.CountTransfers(ctx, db.CountTransfersParams{MemberID: memberID, DateFrom: dateFrom, DateTo: dateTo})
	if err != nil {
		return nil, fmt.Errorf("count transfers of member %d: %w", memberID, err)
	}
	out := api.ListTransfers200JSONResponse{Items: make([]api.Transfer, len(rows)), Page: page, Size: size, Total: total}
	att, err := ledger.AttributionOf(ctx)
	if err != nil {
		return nil, err
	}
	for i, r := range rows {
		out.Items[i] = toAPI(att, Transfer(db.GetTransferRow(r)))
	}
	return out, nil
}

// CreateTransfer records a transfer, once under its Idempotency-Key.
func (h *TransferHandler) CreateTransfer(ctx context.Context, req api.CreateTransferRequestObject) (api.CreateTransferResponseObject, error) {
	p := session.PrincipalFrom(ctx)
	memberID := p.MemberID
	in, err := InputFrom(*req.Body)
	if err != nil {
		return nil, err
	}
	att, err := ledger.AttributionOf(ctx)
	if err != nil {
		return nil, err
	}
	createdBy, paidBy, err := att.Write("/paidBy", in.PaidBy)
	if err != nil {
		return nil, err
	}
	in.Attribute(createdBy, paidBy)
	k, err := idempotency.KeyFor(p, req.Params.IdempotencyKey, "createTransfer", req)
	if err != nil {
		return nil, err
	}
	var created Transfer
	out, replayed, err := idempotency.Once(ctx, h.keys, k, func(tx pgx.Tx) (etag.Tagged[api.Transfer], error) {
		q := db.New(tx)
		if err := ledger.LockLedgerSharedTx(ctx, q, memberID); err != nil {
			return etag.Tagged[api.Transfer]{}, err
		}
		t, err := CreateTx(ctx, q, memberID, in)
		if err != nil {
			return etag.Tagged[api.Transfer]{}, err
		}
		// The balances, month and net worth it moved stay within int64.
		if err := ledger.CheckTotalsTx(ctx, q, memberID, moveTotals(nil, &t)); err != nil {
			return etag.Tagged[api.Transfer]{}, err
		}
		created = t
		return answeredTx(ctx, q, att, memberID, t)
	})
	if err != nil {
		return nil, err
	}
	if !replayed {
		h.feeWritten(ctx, p, created)
	}
	return api.CreateTransfer201JSONResponse{Body: out.Body, Headers: api.CreateTransfer201ResponseHeaders{
		ETag: etag.Ptr(out.ETag), IdempotentReplayed: idempotency.Replayed(replayed),
	}}, nil
}

// answeredTx is transfer t as its GET answers it, with its ETag: of the
// version its write's transaction leaves it at (read last: its sides' and
// fee entry's writes raise it), and the digest of the answer.
func answeredTx(ctx context.Context, q *db.Queries, att ledger.Attribution, memberID int64, t Transfer) (etag.Tagged[api.Transfer], error) {
	row, err := q.LockTransfer(ctx, db.LockTransferParams{MemberID: memberID, ID: t.ID})
	if err := database.NoRows(err, ErrTransferNotFound, fmt.Sprintf("version of transfer %d", t.ID)); err != nil {
		return etag.Tagged[api.Transfer]{}, err
	}
	return etag.Answered(row.Version, toAPI(att, t))
}

// failed is the 412 of a write of transfer locked (in the write's
// transaction, which then rolls back) whose If-Match names another
// version: with the ETag a GET of the transfer answers now.
func failed(ctx context.Context, q *db.Queries, att ledger.Attribution, memberID int64, locked db.Transfer) error {
	t, err := getTx(ctx, q, memberID, locked.ID)
	if err != nil {
		return err
	}
	tag, err := etag.Of(locked.Version, toAPI(att, t))
	if err != nil {
		return err
	}
	return etag.Failed(tag)
}

// GetTransfer answers one transfer.
func (h *TransferHandler) GetTransfer(ctx context.Context, req api.GetTransferRequestObject) (api.GetTransferResponseObject, error) {
	t, err := getTx(ctx, db.New(h.pool), caller(ctx), req.ID)
	if err != nil {
		return nil, err
	}
	att, err := ledger.AttributionOf(ctx)
	if err != nil {
		return nil, err
	}
	return api.GetTransfer200JSONResponse{Body: toAPI(att, t)}, nil
}

// UpdateTransfer replaces a transfer and both its sides, at the version
// If-Match names (none: any).
func (h *TransferHandler) UpdateTransfer(ctx context.Context, req api.UpdateTransferRequestObject) (api.UpdateTransferResponseObject, error) {
	p := session.PrincipalFrom(ctx)
	memberID := p.MemberID
	match := etag.Parse(req.Params.IfMatch)
	in, err := InputFrom(*req.Body)
	if err != nil {
		return nil, err
	}
	att, err := ledger.AttributionOf(ctx)
	if err != nil {
		return nil, err
	}
	if err := att.CheckPaidBy("/paidBy", in.PaidBy); err != nil {
		return nil, err
	}
	in.Attribute(nil, att.PaidByUpdate(in.PaidBy))
	var written Transfer
	out, err := database.InTxV(ctx, h.pool, func(q *db.Queries) (etag.Tagged[api.Transfer], error) {
		if err := ledger.LockLedgerSharedTx(ctx, q, memberID); err != nil {
			return etag.Tagged[api.Transfer]{}, err
		}
		// The transfer as it was, under its lock (UpdateTx takes it again),
		// for what the write moves; its version is the one the write meets.
		locked, err := q.LockTransfer(ctx, db.LockTransferParams{MemberID: memberID, ID: req.ID})
		if err != nil {
			return etag.Tagged[api.Transfer]{}, database.NoRows(err, ErrTransferNotFound, fmt.Sprintf("transfer %d", req.ID))
		}
		if !match.Hits(locked.Version) {
			return etag.Tagged[api.Transfer]{}, failed(ctx, q, att, memberID, locked)
		}
		old, err := getTx(ctx, q, memberID, req.ID)
		if err != nil {
			return etag.Tagged[api.Transfer]{}, err
		}
		t, err := UpdateTx(ctx, q, memberID, req.ID, in)
		if err != nil {
			return etag.Tagged[api.Transfer]{}, err
		}
		if err := ledger.CheckTotalsTx(ctx, q, memberID, moveTotals(&old, &t)); err != nil {
			return etag.Tagged[api.Transfer]{}, err
		}
		written = t
		return answeredTx(ctx, q, att, memberID, t)
	})
	if err != nil {
		return nil, err
	}
	h.feeWritten(ctx, p, written)
	return api.UpdateTransfer200JSONResponse{Body: out.Body, Headers: api.UpdateTransfer200ResponseHeaders{ETag: etag.Ptr(out.ETag)}}, nil
}

// DeleteTransfer deletes a transfer with its entries, at the version
// If-Match names (none: any).
func (h *TransferHandler) DeleteTransfer(ctx context.Context, req api.DeleteTransferRequestObject) (api.DeleteTransferResponseObject, error) {
	memberID := caller(ctx)
	match := etag.Parse(req.Params.IfMatch)
	att, err := ledger.AttributionOf(ctx)
	if err != nil {
		return nil, err
	}
	if err := database.InTx(ctx, h.pool, func(q *db.Queries) error {
		if err := ledger.LockLedgerSharedTx(ctx, q, memberID); err != nil {
			return err
		}
		locked, err := q.LockTransfer(ctx, db.LockTransferParams{MemberID: memberID, ID: req.ID})
		if err != nil {
			return database.NoRows(err, ErrTransferNotFound, fmt.Sprintf("transfer %d", req.ID))
		}
		if !match.Hits(locked.Version) {
			return failed(ctx, q, att, memberID, locked)
		}
		old, err := getTx(ctx, q, memberID, req.ID)
		if err != nil {
			return err
		}
		if err := DeleteTx(ctx, q, memberID, req.ID); err != nil {
			return err
		}
		// Deleting a transfer out of a wallet raises its balance.
		return ledger.CheckTotalsTx(ctx, q, memberID, moveTotals(&old, nil))
	}); err != nil {
		return nil, err
	}
	return api.DeleteTransfer204Response{}, nil
}

func toAPI(att ledger.Attribution, t Transfer) api.Transfer {
	return api.Transfer{
		ID: t.ID, Date: types.Date{Time: t.TransferDate}, Amount: t.Amount, Memo: t.Memo,
		FromWalletID: t.FromWalletID, ToWalletID: t.ToWalletID, FromEntryID: t.FromEntryID, ToEntryID: t.ToEntryID,
		FeeEntryID: t.FeeEntryID, Fee: t.Fee, CreatedAt: t.CreatedAt, Pending: t.Pending,
		CreatedBy: att.Ref(t.CreatedBy), PaidBy: att.Ref(t.PaidBy),
	}
}

// ToAPI is a transfer as the contract answers it to the request's caller
// (the cards area answers the bill payments it confirms).
func ToAPI(ctx context.Context, t Transfer) (api.Transfer, error) {
	att, err := ledger.AttributionOf(ctx)
	if err != nil {
		return api.Transfer{}, err
	}
	return toAPI(att, t), nil
}
