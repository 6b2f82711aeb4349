package admin_test

import (
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"testing"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
)

func userPath(id int64) string { return fmt.Sprintf("/api/users/%d", id) }

func TestUsersCreateReadUpdateDelete(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	admin := env.NewMember(apitest.AsAdmin())

	var created api.User
	admin.Do(http.MethodPost, "/api/users", api.CreateUserJSONRequestBody{
		Email: "New.User@Nestegg.test", Password: "a fine password", Name: "  New User ",
	}).Want(http.StatusCreated).JSON(&created)
	if created.Email == nil || *created.Email != "new.user@nestegg.test" || created.Name != "New User" ||
		created.Role != api.RoleValueUser || created.Plan != "FREE" || created.PlanExpiresAt != nil {
		t.Fatalf("created %+v", created)
	}
	newUser := env.LogIn("new.user@nestegg.test", "a fine password")

	var staff api.User
	staffRole := api.RoleAdmin
	admin.Do(http.MethodPost, "/api/users", api.CreateUserJSONRequestBody{
		Email: "staff@nestegg.test", Password: "another password", Name: "Staff", Role: &staffRole,
	}).Want(http.StatusCreated).JSON(&staff)
	if staff.Role != api.RoleValueAdmin {
		t.Fatalf("role %s, want ADMIN", staff.Role)
	}

	var got api.User
	admin.Do(http.MethodGet, userPath(created.ID), nil).Want(http.StatusOK).JSON(&got)
	if !reflect.DeepEqual(got, created) {
		t.Fatalf("read %+v, want %+v", got, created)
	}

	var page api.UserPage
	admin.Do(http.MethodGet, "/api/users?size=2", nil).Want(http.StatusOK).JSON(&page)
	if page.Total != 3 || page.Page != 1 || page.Size != 2 || len(page.Items) != 2 ||
		page.Items[0].ID != staff.ID || page.Items[1].ID != created.ID {
		t.Fatalf("page %+v, want the two newest of 3", page)
	}

	var updated api.User
	admin.Do(http.MethodPut, userPath(created.ID), api.UpdateUserJSONRequestBody{Email: "Renamed@Nestegg.test", Name: " Renamed "}).
		Want(http.StatusOK).JSON(&updated)
	if *updated.Email != "renamed@nestegg.test" || updated.Name != "Renamed" || updated.Role != api.RoleValueUser {
		t.Fatalf("updated %+v", updated)
	}
	if u := sessionOfClient(t, newUser); u.Name != "Renamed" {
		t.Fatalf("the user's session shows name %q, want the new one", u.Name)
	}
	env.LogIn("renamed@nestegg.test", "a fine password")

	// An administrator may edit their own name and e-mail here.
	admin.Do(http.MethodPut, userPath(admin.ID), api.UpdateUserJSONRequestBody{Email: "boss@nestegg.test", Name: "Boss"}).Want(http.StatusOK)

	admin.Do(http.MethodDelete, userPath(created.ID), nil).Want(http.StatusNoContent)
	admin.Do(http.MethodGet, userPath(created.ID), nil).WantProblem(http.StatusNotFound, "NOT_FOUND")
	newUser.Do(http.MethodGet, "/api/auth/session", nil).WantProblem(http.StatusUnauthorized, "UNAUTHENTICATED")
	admin.Do(http.MethodGet, "/api/users", nil).Want(http.StatusOK).JSON(&page)
	if got := []int64{page.Items[0].ID, page.Items[1].ID}; page.Total != 2 || !slices.Equal(got, []int64{staff.ID, admin.ID}) {
		t.Fatalf("users after deletion %+v", page)
	}
}

func sessionOfClient(t *testing.T, c *apitest.Client) api.User {
	t.Helper()
	var u api.User
	c.Do(http.MethodGet, "/api/auth/session", nil).Want(http.StatusOK).JSON(&u)
	return u
}

func TestUsersRefuseDuplicateAndInvalidInput(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	admin := env.NewMember(apitest.AsAdmin())
	env.NewMember(apitest.WithEmail("taken@nestegg.test"))
	other := env.NewMember(apitest.WithEmail("other@nestegg.test"), apitest.WithName("Other"))

	admin.Do(http.MethodPost, "/api/users", api.CreateUserJSONRequestBody{
		Email: "TAKEN@nestegg.test", Password: "a fine password", Name: "Copy",
	}).WantProblem(http.StatusConflict, "CONFLICT")
	admin.Do(http.MethodPut, userPath(other.ID), api.UpdateUserJSONRequestBody{Email: "Taken@Nestegg.test", Name: "Other"}).
		WantProblem(http.StatusConflict, "CONFLICT")

	for _, body := range []any{
		// The generated type refuses to encode a malformed e-mail, so that
		// body is written out.
		`{"email": "not-an-email", "password": "a fine password", "name": "Bad"}`,
		api.CreateUserJSONRequestBody{Email: "fine@nestegg.test", Password: "short", Name: "Bad"},
		api.CreateUserJSONRequestBody{Email: "fine@nestegg.test", Password: "a fine password", Name: "   "},
	} {
		admin.Raw().Do(http.MethodPost, "/api/users", body).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
	}
	admin.Raw().Do(http.MethodPut, userPath(other.ID), `{"email": "not-an-email", "name": "Other"}`).
		WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
	admin.Raw().Do(http.MethodPut, userPath(other.ID), api.UpdateUserJSONRequestBody{Email: "other@nestegg.test", Name: " "}).
		WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")

	// Nothing was created or changed.
	var u api.User
	admin.Do(http.MethodGet, userPath(other.ID), nil).Want(http.StatusOK).JSON(&u)
	if *u.Email != "other@nestegg.test" || u.Name != "Other" {
		t.Fatalf("other member now %+v", u)
	}
	var page api.UserPage
	admin.Do(http.MethodGet, "/api/users", nil).Want(http.StatusOK).JSON(&page)
	if page.Total != 3 {
		t.Fatalf("%d users, want 3", page.Total)
	}
}
