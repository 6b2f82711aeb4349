package account

import (
	"context"
	"errors"

	"github.com/nestegg/nestegg/generated/api"
)

// errTODO marks operations not built yet: they answer 500 until they are.
var errTODO = errors.New("not implemented yet")

func (h *AccountHandler) DeleteMe(ctx context.Context, _ api.DeleteMeRequestObject) (api.DeleteMeResponseObject, error) {
	return nil, errTODO
}

func (h *AccountHandler) ChangePassword(ctx context.Context, _ api.ChangePasswordRequestObject) (api.ChangePasswordResponseObject, error) {
	return nil, errTODO
}

func (h *AccountHandler) GetPointHistory(ctx context.Context, _ api.GetPointHistoryRequestObject) (api.GetPointHistoryResponseObject, error) {
	return nil, errTODO
}

func (h *AccountHandler) GetPoints(ctx context.Context, _ api.GetPointsRequestObject) (api.GetPointsResponseObject, error) {
	return nil, errTODO
}

func (h *AccountHandler) GetProfile(ctx context.Context, _ api.GetProfileRequestObject) (api.GetProfileResponseObject, error) {
	return nil, errTODO
}

func (h *AccountHandler) UpdateProfile(ctx context.Context, _ api.UpdateProfileRequestObject) (api.UpdateProfileResponseObject, error) {
	return nil, errTODO
}

func (h *AccountHandler) SetProfileImage(ctx context.Context, _ api.SetProfileImageRequestObject) (api.SetProfileImageResponseObject, error) {
	return nil, errTODO
}

func (h *AccountHandler) VerifyPassword(ctx context.Context, _ api.VerifyPasswordRequestObject) (api.VerifyPasswordResponseObject, error) {
	return nil, errTODO
}
