package admin

import (
	"context"
	"errors"

	"github.com/nestegg/nestegg/generated/api"
)

// errTODO marks operations not built yet: they answer 500 until they are.
var errTODO = errors.New("not implemented yet")

func (h *AdminHandler) ListMembers(ctx context.Context, _ api.ListMembersRequestObject) (api.ListMembersResponseObject, error) {
	return nil, errTODO
}

func (h *AdminHandler) DeleteMember(ctx context.Context, _ api.DeleteMemberRequestObject) (api.DeleteMemberResponseObject, error) {
	return nil, errTODO
}

func (h *AdminHandler) SetMemberPlan(ctx context.Context, _ api.SetMemberPlanRequestObject) (api.SetMemberPlanResponseObject, error) {
	return nil, errTODO
}

func (h *AdminHandler) SetMemberRole(ctx context.Context, _ api.SetMemberRoleRequestObject) (api.SetMemberRoleResponseObject, error) {
	return nil, errTODO
}

func (h *AdminHandler) SetMemberStatus(ctx context.Context, _ api.SetMemberStatusRequestObject) (api.SetMemberStatusResponseObject, error) {
	return nil, errTODO
}

func (h *AdminHandler) GetAdminSignupEnabled(ctx context.Context, _ api.GetAdminSignupEnabledRequestObject) (api.GetAdminSignupEnabledResponseObject, error) {
	return nil, errTODO
}

func (h *AdminHandler) SetSignupEnabled(ctx context.Context, _ api.SetSignupEnabledRequestObject) (api.SetSignupEnabledResponseObject, error) {
	return nil, errTODO
}

func (h *AdminHandler) ListUsers(ctx context.Context, _ api.ListUsersRequestObject) (api.ListUsersResponseObject, error) {
	return nil, errTODO
}

func (h *AdminHandler) CreateUser(ctx context.Context, _ api.CreateUserRequestObject) (api.CreateUserResponseObject, error) {
	return nil, errTODO
}

func (h *AdminHandler) DeleteUser(ctx context.Context, _ api.DeleteUserRequestObject) (api.DeleteUserResponseObject, error) {
	return nil, errTODO
}

func (h *AdminHandler) GetUser(ctx context.Context, _ api.GetUserRequestObject) (api.GetUserResponseObject, error) {
	return nil, errTODO
}

func (h *AdminHandler) UpdateUser(ctx context.Context, _ api.UpdateUserRequestObject) (api.UpdateUserResponseObject, error) {
	return nil, errTODO
}
