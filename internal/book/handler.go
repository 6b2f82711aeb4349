package book

import (
	"context"

	api "github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/session"
)

// BookHandler implements the /api/books operations of the contract.
type BookHandler struct {
	books *Books
}

// NewHandler returns the handler of the /api/books operations.
func NewHandler(b *Books) *BookHandler { return &BookHandler{books: b} }

// actor is the signed-in member: /api/books operations never take X-Book-Id.
func actor(ctx context.Context) int64 { return session.PrincipalFrom(ctx).ActorID() }

func toAPI(v View) api.Book {
	out := api.Book{ID: v.ID, Name: v.Name, Role: api.BookRole(v.Role), MonthStartDay: int32(v.MonthStartDay), Members: make([]api.BookMember, len(v.Members))}
	for i, m := range v.Members {
		out.Members[i] = api.BookMember{MemberID: m.ID, Name: m.Name, Role: api.BookRole(m.Role), Weight: m.Weight}
	}
	return out
}

// ListBooks answers the caller's books.
func (h *BookHandler) ListBooks(ctx context.Context, _ api.ListBooksRequestObject) (api.ListBooksResponseObject, error) {
	views, err := h.books.List(ctx, actor(ctx))
	if err != nil {
		return nil, err
	}
	out := api.ListBooks200JSONResponse{Items: make([]api.Book, len(views))}
	for i, v := range views {
		out.Items[i] = toAPI(v)
	}
	return out, nil
}

// CreateBook creates a book with the caller as OWNER.
func (h *BookHandler) CreateBook(ctx context.Context, req api.CreateBookRequestObject) (api.CreateBookResponseObject, error) {
	v, err := h.books.Create(ctx, actor(ctx), req.Body.Name)
	if err != nil {
		return nil, err
	}
	return api.CreateBook201JSONResponse(toAPI(v)), nil
}

// JoinBook accepts an invitation code.
func (h *BookHandler) JoinBook(ctx context.Context, req api.JoinBookRequestObject) (api.JoinBookResponseObject, error) {
	v, err := h.books.Join(ctx, actor(ctx), req.Body.Code)
	if err != nil {
		return nil, err
	}
	return api.JoinBook200JSONResponse(toAPI(v)), nil
}

// GetBook answers one of the caller's books.
func (h *BookHandler) GetBook(ctx context.Context, req api.GetBookRequestObject) (api.GetBookResponseObject, error) {
	v, err := h.books.Get(ctx, actor(ctx), req.ID)
	if err != nil {
		return nil, err
	}
	return api.GetBook200JSONResponse(toAPI(v)), nil
}

// UpdateBook renames a book and sets its month start day.
func (h *BookHandler) UpdateBook(ctx context.Context, req api.UpdateBookRequestObject) (api.UpdateBookResponseObject, error) {
	v, err := h.books.Update(ctx, actor(ctx), req.ID, req.Body.Name, int(req.Body.MonthStartDay))
	if err != nil {
		return nil, err
	}
	return api.UpdateBook200JSONResponse(toAPI(v)), nil
}

// DeleteBook deletes a book and its records.
func (h *BookHandler) DeleteBook(ctx context.Context, req api.DeleteBookRequestObject) (api.DeleteBookResponseObject, error) {
	if err := h.books.Delete(ctx, actor(ctx), req.ID); err != nil {
		return nil, err
	}
	return api.DeleteBook204Response{}, nil
}

// CreateBookInvitation makes an invitation code.
func (h *BookHandler) CreateBookInvitation(ctx context.Context, req api.CreateBookInvitationRequestObject) (api.CreateBookInvitationResponseObject, error) {
	role := RoleEditor
	if req.Body != nil && req.Body.Role != nil {
		role = string(*req.Body.Role)
	}
	inv, err := h.books.Invite(ctx, actor(ctx), req.ID, role)
	if err != nil {
		return nil, err
	}
	return api.CreateBookInvitation201JSONResponse{Code: inv.Code, Role: api.BookInvitationRole(inv.Role), ExpiresAt: inv.ExpiresAt}, nil
}

// RevokeBookInvitation revokes an invitation code.
func (h *BookHandler) RevokeBookInvitation(ctx context.Context, req api.RevokeBookInvitationRequestObject) (api.RevokeBookInvitationResponseObject, error) {
	if err := h.books.Revoke(ctx, actor(ctx), req.ID, req.Code); err != nil {
		return nil, err
	}
	return api.RevokeBookInvitation204Response{}, nil
}

// UpdateBookMember changes a member's role and weight.
func (h *BookHandler) UpdateBookMember(ctx context.Context, req api.UpdateBookMemberRequestObject) (api.UpdateBookMemberResponseObject, error) {
	v, err := h.books.SetMember(ctx, actor(ctx), req.ID, req.MemberID, string(req.Body.Role), req.Body.Weight)
	if err != nil {
		return nil, err
	}
	return api.UpdateBookMember200JSONResponse(toAPI(v)), nil
}

// RemoveBookMember removes a member, or the caller leaves.
func (h *BookHandler) RemoveBookMember(ctx context.Context, req api.RemoveBookMemberRequestObject) (api.RemoveBookMemberResponseObject, error) {
	if err := h.books.Remove(ctx, actor(ctx), req.ID, req.MemberID); err != nil {
		return nil, err
	}
	return api.RemoveBookMember204Response{}, nil
}

func settlementAPI(v SettlementView) api.Settlement {
	out := api.Settlement{
		Year: int32(v.Year), Month: int32(v.Month), Total: v.Total,
		Members: make([]api.SettlementMember, len(v.Members)), Payments: make([]api.SettlementPayment, len(v.Payments)),
		Settled: v.SettledAt != nil, SettledAt: v.SettledAt, SettledBy: v.SettledBy,
	}
	for i, m := range v.Members {
		out.Members[i] = api.SettlementMember{MemberID: m.ID, Name: m.Name, Former: m.Former, Paid: m.Paid, Share: m.Share, Balance: m.Amount}
	}
	for i, p := range v.Payments {
		out.Payments[i] = api.SettlementPayment{FromMemberID: p.From, ToMemberID: p.To, Amount: p.Amount}
	}
	return out
}

// GetBookSettlement answers a month's settlement.
func (h *BookHandler) GetBookSettlement(ctx context.Context, req api.GetBookSettlementRequestObject) (api.GetBookSettlementResponseObject, error) {
	v, err := h.books.Settlement(ctx, actor(ctx), req.ID, int(req.Params.Year), int(req.Params.Month))
	if err != nil {
		return nil, err
	}
	return api.GetBookSettlement200JSONResponse(settlementAPI(v)), nil
}

// SettleBookMonth marks a month settled.
func (h *BookHandler) SettleBookMonth(ctx context.Context, req api.SettleBookMonthRequestObject) (api.SettleBookMonthResponseObject, error) {
	v, err := h.books.MarkSettled(ctx, actor(ctx), req.ID, int(req.Params.Year), int(req.Params.Month), true)
	if err != nil {
		return nil, err
	}
	return api.SettleBookMonth200JSONResponse(settlementAPI(v)), nil
}

// UnsettleBookMonth undoes marking a month settled.
func (h *BookHandler) UnsettleBookMonth(ctx context.Context, req api.UnsettleBookMonthRequestObject) (api.UnsettleBookMonthResponseObject, error) {
	v, err := h.books.MarkSettled(ctx, actor(ctx), req.ID, int(req.Params.Year), int(req.Params.Month), false)
	if err != nil {
		return nil, err
	}
	return api.UnsettleBookMonth200JSONResponse(settlementAPI(v)), nil
}
