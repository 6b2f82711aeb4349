package admin_test

import (
	"net/http"
	"testing"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
)

func TestSignupSwitch(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	admin := env.NewMember(apitest.AsAdmin())
	anon := env.Client()
	var got api.SignupEnabled

	admin.Do(http.MethodGet, "/api/admin/settings/signup-enabled", nil).Want(http.StatusOK).JSON(&got)
	if !got.Enabled {
		t.Fatal("sign-up closed before anyone closed it")
	}
	admin.Do(http.MethodPut, "/api/admin/settings/signup-enabled", api.SetAdminSignupEnabledJSONRequestBody{Enabled: false}).Want(http.StatusOK).JSON(&got)
	if got.Enabled {
		t.Fatal("PUT false answered enabled")
	}
	admin.Do(http.MethodGet, "/api/admin/settings/signup-enabled", nil).Want(http.StatusOK).JSON(&got)
	if got.Enabled {
		t.Fatal("administrators still see sign-up open")
	}
	anon.Do(http.MethodGet, "/api/auth/signup-enabled", nil).Want(http.StatusOK).JSON(&got)
	if got.Enabled {
		t.Fatal("the public switch still says open")
	}
	signup := api.SignUpJSONRequestBody{Email: "late@nestegg.test", Password: "a fine password", Name: "Late"}
	anon.Do(http.MethodPost, "/api/auth/signup", signup).WantProblem(http.StatusForbidden, "SIGNUP_DISABLED")

	admin.Do(http.MethodPut, "/api/admin/settings/signup-enabled", api.SetAdminSignupEnabledJSONRequestBody{Enabled: true}).Want(http.StatusOK).JSON(&got)
	if !got.Enabled {
		t.Fatal("PUT true answered closed")
	}
	anon.Do(http.MethodPost, "/api/auth/signup", signup).Want(http.StatusCreated)
}
