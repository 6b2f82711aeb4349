package admin

import (
	"context"
	"fmt"
	"log/slog"
	"strings"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/book"
	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/internal/member"
	"github.com/nestegg/nestegg/internal/problem"
	"github.com/nestegg/nestegg/internal/session"
)

// ListMembers answers one page of members, newest first, filtered by q.
func (h *AdminHandler) ListMembers(ctx context.Context, req api.ListMembersRequestObject) (api.ListMembersResponseObject, error) {
	p := pagingOf(req.Params.Page, req.Params.Size)
	members, total, err := listMembers(ctx, db.New(h.pool), p, req.Params.Q)
	if err != nil {
		return nil, err
	}
	items := make([]api.AdminMember, len(members))
	for i, m := range members {
		items[i] = member.ToAdmin(m)
	}
	return api.ListMembers200JSONResponse{Items: items, Page: p.page, Size: p.size, Total: total}, nil
}

// SetMemberRole changes another member's role.
func (h *AdminHandler) SetMemberRole(ctx context.Context, req api.SetMemberRoleRequestObject) (api.SetMemberRoleResponseObject, error) {
	m, err := setRole(ctx, db.New(h.pool), actor(ctx), req.ID, string(req.Body.Role))
	if err != nil {
		return nil, err
	}
	return api.SetMemberRole200JSONResponse(member.ToAdmin(m)), nil
}

// SetMemberStatus suspends or reactivates another member.
func (h *AdminHandler) SetMemberStatus(ctx context.Context, req api.SetMemberStatusRequestObject) (api.SetMemberStatusResponseObject, error) {
	m, err := h.setStatus(ctx, actor(ctx), req.ID, string(req.Body.Status))
	if err != nil {
		return nil, err
	}
	return api.SetMemberStatus200JSONResponse(member.ToAdmin(m)), nil
}

// SetMemberPlan gives another member a permanent plan.
func (h *AdminHandler) SetMemberPlan(ctx context.Context, req api.SetMemberPlanRequestObject) (api.SetMemberPlanResponseObject, error) {
	m, err := setPlan(ctx, db.New(h.pool), actor(ctx), req.ID, string(req.Body.Plan))
	if err != nil {
		return nil, err
	}
	return api.SetMemberPlan200JSONResponse(member.ToAdmin(m)), nil
}

// DeleteMember deletes another member and everything they own.
func (h *AdminHandler) DeleteMember(ctx context.Context, req api.DeleteMemberRequestObject) (api.DeleteMemberResponseObject, error) {
	if err := h.deleteMember(ctx, actor(ctx), req.ID); err != nil {
		return nil, err
	}
	return api.DeleteMember204Response{}, nil
}

// actor is the administrator the request acts for; the server lets only
// signed-in administrators reach these operations.
func actor(ctx context.Context) int64 { return session.PrincipalFrom(ctx).MemberID }

// paging is a page request with the contract's defaults filled in (the
// contract has already checked the bounds).
type paging struct{ page, size int32 }

func pagingOf(page, size *int32) paging {
	p := paging{page: 1, size: 20}
	if page != nil {
		p.page = *page
	}
	if size != nil {
		p.size = *size
	}
	return p
}

// offset is in 64 bits so that page × size can never overflow.
func (p paging) offset() int64 { return int64(p.page-1) * int64(p.size) }

// listMembers returns one page of the members whose e-mail or name contains
// text (all members when it is nil or blank), and how many match in all.
func listMembers(ctx context.Context, q *db.Queries, p paging, text *string) ([]db.Member, int64, error) {
	contains := likeText(text)
	rows, err := member.ListForAdmin(ctx, q, db.ListAdminMembersParams{Q: contains, Lim: p.size, Off: p.offset()})
	if err != nil {
		return nil, 0, fmt.Errorf("list members: %w", err)
	}
	var total int64
	if len(rows) > 0 {
		total = rows[0].Total
	} else if p.offset() > 0 {
		if total, err = member.Count(ctx, q, contains); err != nil {
			return nil, 0, fmt.Errorf("count members: %w", err)
		}
	}
	// The rows lack the profile image and password hash, which no list shows.
	members := make([]db.Member, len(rows))
	for i, r := range rows {
		members[i] = db.Member{
			ID: r.ID, Email: r.Email, Name: r.Name, Role: r.Role, Status: r.Status, Provider: r.Provider,
			Plan: r.Plan, PlanExpiresAt: r.PlanExpiresAt, PlanProduct: r.PlanProduct, PlanAutoRenew: r.PlanAutoRenew,
			Points: r.Points, CreatedAt: r.CreatedAt,
		}
	}
	return members, total, nil
}

// likeEscaper makes %, _ and the escape character itself (backslash,
// PostgreSQL's default for LIKE) match literally.
var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

// likeText prepares search text for the list queries, which match it with
// ILIKE '%' || q || '%'. Blank text filters nothing.
func likeText(text *string) *string {
	if text == nil {
		return nil
	}
	s := strings.TrimSpace(*text)
	if s == "" {
		return nil
	}
	s = likeEscaper.Replace(s)
	return &s
}

// notSelf refuses an administrator's change to their own account, so that
// an administrator cannot lock themselves out or leave the service with none.
func notSelf(actor, id int64) error {
	if actor == id {
		return member.ErrSelfAdminChange
	}
	return nil
}

// changed maps the error of a one-row change of member id: no row is a 404.
func changed(err error, what string, id int64) error {
	return database.NoRows(err, member.ErrNotFound, fmt.Sprintf("%s of member %d", what, id))
}

// setRole changes a member's role. Sessions reload their member on every
// request, so each of the member's sessions has the new role from its next
// one. One statement, so concurrent changes cannot interleave.
func setRole(ctx context.Context, q *db.Queries, actor, id int64, role string) (db.Member, error) {
	if err := notSelf(actor, id); err != nil {
		return db.Member{}, err
	}
	m, err := member.SetRole(ctx, q, db.SetMemberRoleParams{ID: id, Role: role})
	return m, changed(err, "set role", id)
}

// setPlan gives a member a permanent plan: no expiry, no subscription.
func setPlan(ctx context.Context, q *db.Queries, actor, id int64, plan string) (db.Member, error) {
	if err := notSelf(actor, id); err != nil {
		return db.Member{}, err
	}
	m, err := member.SetPlanPermanent(ctx, q, db.SetMemberPlanPermanentParams{ID: id, Plan: plan})
	return m, changed(err, "set plan", id)
}

// setStatus suspends or reactivates a member. Suspension also ends the
// member's sessions.
func (h *AdminHandler) setStatus(ctx context.Context, actor, id int64, status string) (db.Member, error) {
	if err := notSelf(actor, id); err != nil {
		return db.Member{}, err
	}
	suspend := status == member.StatusSuspended
	var m db.Member
	err := database.InTx(ctx, h.pool, func(q *db.Queries) error {
		var err error
		m, err = member.SetStatus(ctx, q, db.SetMemberStatusParams{ID: id, Status: status})
		if err = changed(err, "set status", id); err != nil || !suspend {
			return err
		}
		// Revoking keeps every session of the member ended, also after a
		// later reactivation.
		if _, err := member.RevokeSessions(ctx, q, id); err != nil {
			return fmt.Errorf("revoke sessions of member %d: %w", id, err)
		}
		return nil
	})
	if err != nil {
		return db.Member{}, err
	}
	if suspend {
		// The suspension stands and already shuts the sessions out; deleting
		// them only tidies the stores, so a failure is logged, not answered.
		if err := h.sessions.EndMemberSessions(ctx, id, ""); err != nil {
			slog.WarnContext(ctx, "end sessions of suspended member", "request_id", problem.RequestID(ctx), "member_id", id, "error", err)
		}
	}
	return m, nil
}

// deleteMember deletes another member, everything they own and their
// sessions.
func (h *AdminHandler) deleteMember(ctx context.Context, actor, id int64) error {
	if err := notSelf(actor, id); err != nil {
		return err
	}
	return book.DeleteAccount(ctx, h.pool, h.sessions, id)
}
