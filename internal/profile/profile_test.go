package profile_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
)

func getProfile(t *testing.T, c *apitest.Client) api.Profile {
	t.Helper()
	var p api.Profile
	c.Do(http.MethodGet, "/api/auth/profile", nil).Want(http.StatusOK).JSON(&p)
	return p
}

func TestGetProfile(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.WithName("Minji"), apitest.AsPremium())
	env.Exec(`UPDATE member SET points = 15, idp_a_picture = 'https://idp-a.test/minji.png' WHERE id = $1`, m.ID)

	p := getProfile(t, m.Client)
	if p.ID != m.ID || p.Email == nil || *p.Email != m.Email || p.Name != "Minji" ||
		p.Role != "USER" || p.Plan != "PREMIUM" || p.PlanExpiresAt != nil ||
		p.Points != 15 || p.Provider != "LOCAL" ||
		p.IDPAPicture == nil || *p.IDPAPicture != "https://idp-a.test/minji.png" || p.ProfileImage != nil {
		t.Fatalf("profile %+v", p)
	}
}

func TestUpdateProfileRenamesEverySession(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.WithName("Minji"))
	other := env.LogIn(m.Email, apitest.DefaultPassword)

	var p api.Profile
	m.Do(http.MethodPut, "/api/auth/profile", api.UpdateProfileJSONRequestBody{Name: "  Jisoo Kim  "}).Want(http.StatusOK).JSON(&p)
	if p.Name != "Jisoo Kim" {
		t.Fatalf("name %q, want it trimmed", p.Name)
	}
	if got := getProfile(t, m.Client).Name; got != "Jisoo Kim" {
		t.Fatalf("profile name %q after update", got)
	}
	// The other session shows the new name on its next request.
	var user api.User
	other.Do(http.MethodGet, "/api/auth/session", nil).Want(http.StatusOK).JSON(&user)
	if user.Name != "Jisoo Kim" {
		t.Fatalf("other session's name %q", user.Name)
	}
	// 50 characters of any script are fine.
	long := strings.Repeat("민", 50)
	m.Do(http.MethodPut, "/api/auth/profile", api.UpdateProfileJSONRequestBody{Name: long}).Want(http.StatusOK).JSON(&p)
	if p.Name != long {
		t.Fatalf("name %q", p.Name)
	}
}

func TestUpdateProfileIgnoresFieldsItDoesNotOwn(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.WithName("Minji"))
	before := getProfile(t, m.Client)

	var p api.Profile
	// Fields UpdateProfileRequest does not have, so the body is written out
	// (the contract lets a client send them: unknown fields are ignored).
	m.Do(http.MethodPut, "/api/auth/profile", `{
		"name": "Jisoo", "role": "ADMIN", "plan": "PREMIUM", "points": 9999, "email": "taken-over@nestegg.test",
		"provider": "IDP_A", "profileImage": "data:image/png;base64,AAAA", "planExpiresAt": "2099-01-01T00:00:00Z"
	}`).Want(http.StatusOK).JSON(&p)

	after := getProfile(t, m.Client)
	for _, got := range []api.Profile{p, after} {
		want := before
		want.Name = "Jisoo"
		if !sameProfile(got, want) {
			t.Fatalf("profile %+v, want %+v: only the name may change", got, want)
		}
	}
	// Signing in with the old e-mail still works: it did not change.
	wantSignedIn(t, env.LogIn(m.Email, apitest.DefaultPassword))
}

func sameProfile(a, b api.Profile) bool {
	eq := func(x, y *string) bool { return (x == nil) == (y == nil) && (x == nil || *x == *y) }
	return a.ID == b.ID && eq(a.Email, b.Email) && a.Name == b.Name && a.Role == b.Role && a.Plan == b.Plan &&
		(a.PlanExpiresAt == nil) == (b.PlanExpiresAt == nil) && a.Points == b.Points && a.Provider == b.Provider &&
		eq(a.IDPAPicture, b.IDPAPicture) && eq(a.ProfileImage, b.ProfileImage)
}

func TestUpdateProfileRefusesBadNames(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.WithName("Minji"))

	// Only spaces passes the contract's length check and is refused here.
	p := m.Do(http.MethodPut, "/api/auth/profile", api.UpdateProfileJSONRequestBody{Name: "   "}).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
	if len(p.Errors) != 1 || p.Errors[0].Field != "/name" {
		t.Fatalf("errors %+v, want /name", p.Errors)
	}
	// Empty and too long are refused by the contract.
	for _, name := range []string{"", strings.Repeat("a", 51)} {
		p := m.Raw().Do(http.MethodPut, "/api/auth/profile", api.UpdateProfileJSONRequestBody{Name: name}).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
		if len(p.Errors) == 0 || p.Errors[0].Field != "/name" {
			t.Fatalf("name of %d characters: errors %+v, want /name", len(name), p.Errors)
		}
	}
	if got := getProfile(t, m.Client).Name; got != "Minji" {
		t.Fatalf("name %q after refusals", got)
	}
}
