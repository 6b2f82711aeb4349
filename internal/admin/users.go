package admin

import (
	"context"
	"fmt"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/internal/member"
)

// The user records are the members again, as plain users: the same list,
// the same deletion, and creation and editing of name and e-mail.

// ListUsers answers one page of users, newest first.
func (h *AdminHandler) ListUsers(ctx context.Context, req api.ListUsersRequestObject) (api.ListUsersResponseObject, error) {
	p := pagingOf(req.Params.Page, req.Params.Size)
	members, total, err := listMembers(ctx, db.New(h.pool), p, nil)
	if err != nil {
		return nil, err
	}
	items := make([]api.User, len(members))
	for i, m := range members {
		items[i] = member.ToUser(m)
	}
	return api.ListUsers200JSONResponse{Items: items, Page: p.page, Size: p.size, Total: total}, nil
}

// CreateUser creates a LOCAL member with a password, USER unless a role is
// given.
func (h *AdminHandler) CreateUser(ctx context.Context, req api.CreateUserRequestObject) (api.CreateUserResponseObject, error) {
	b := req.Body
	in := member.NewLocal{Email: string(b.Email), Password: b.Password, Name: b.Name}
	if b.Role != nil {
		in.Role = string(*b.Role)
	}
	m, err := member.CreateLocal(ctx, db.New(h.pool), in)
	if err != nil {
		return nil, err
	}
	return api.CreateUser201JSONResponse(member.ToUser(m)), nil
}

// GetUser answers one user.
func (h *AdminHandler) GetUser(ctx context.Context, req api.GetUserRequestObject) (api.GetUserResponseObject, error) {
	m, err := member.Get(ctx, db.New(h.pool), req.ID)
	if err != nil {
		return nil, err
	}
	return api.GetUser200JSONResponse(member.ToUser(m)), nil
}

// UpdateUser changes a user's name and e-mail.
func (h *AdminHandler) UpdateUser(ctx context.Context, req api.UpdateUserRequestObject) (api.UpdateUserResponseObject, error) {
	m, err := updateUser(ctx, db.New(h.pool), req.ID, string(req.Body.Email), req.Body.Name)
	if err != nil {
		return nil, err
	}
	return api.UpdateUser200JSONResponse(member.ToUser(m)), nil
}

// DeleteUser deletes another member and everything they own.
func (h *AdminHandler) DeleteUser(ctx context.Context, req api.DeleteUserRequestObject) (api.DeleteUserResponseObject, error) {
	if err := h.deleteMember(ctx, actor(ctx), req.ID); err != nil {
		return nil, err
	}
	return api.DeleteUser204Response{}, nil
}

// updateUser sets a member's e-mail and name. It may be the administrator's
// own account: neither touches what they may do.
func updateUser(ctx context.Context, q *db.Queries, id int64, email, name string) (db.Member, error) {
	email, err := member.NormalizeEmail("/email", email)
	if err != nil {
		return db.Member{}, err
	}
	name, err = member.NormalizeName("/name", name)
	if err != nil {
		return db.Member{}, err
	}
	m, err := member.UpdateEmailName(ctx, q, db.UpdateMemberEmailNameParams{ID: id, Email: &email, Name: name})
	if database.IsUniqueViolation(err, "member_email_key") {
		return db.Member{}, member.ErrEmailTaken
	}
	return m, database.NoRows(err, member.ErrNotFound, fmt.Sprintf("update member %d", id))
}
