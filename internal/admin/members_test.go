package admin_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"testing"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
)

func memberPath(id int64, sub string) string {
	return fmt.Sprintf("/api/admin/members/%d%s", id, sub)
}

func listMembers(t *testing.T, c *apitest.Member, query url.Values) api.MemberPage {
	t.Helper()
	var page api.MemberPage
	c.Do(http.MethodGet, "/api/admin/members?"+query.Encode(), nil).Want(http.StatusOK).JSON(&page)
	return page
}

func ids(items []api.AdminMember) []int64 {
	out := make([]int64, len(items))
	for i, m := range items {
		out[i] = m.ID
	}
	return out
}

func TestListMembersPagesNewestFirst(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	admin := env.NewMember(apitest.AsAdmin())
	a, b, c, d := env.NewMember(), env.NewMember(), env.NewMember(), env.NewMember()

	page := listMembers(t, admin, nil)
	if page.Page != 1 || page.Size != 20 || page.Total != 5 {
		t.Fatalf("default page %d size %d total %d, want 1, 20, 5", page.Page, page.Size, page.Total)
	}
	if got, want := ids(page.Items), []int64{d.ID, c.ID, b.ID, a.ID, admin.ID}; !slices.Equal(got, want) {
		t.Fatalf("order %v, want newest first %v", got, want)
	}

	page = listMembers(t, admin, url.Values{"page": {"2"}, "size": {"2"}})
	if got, want := ids(page.Items), []int64{b.ID, a.ID}; !slices.Equal(got, want) || page.Page != 2 || page.Size != 2 || page.Total != 5 {
		t.Fatalf("page 2 of size 2: %v (page %d size %d total %d), want %v", got, page.Page, page.Size, page.Total, want)
	}
	page = listMembers(t, admin, url.Values{"page": {"3"}, "size": {"2"}})
	if got := ids(page.Items); !slices.Equal(got, []int64{admin.ID}) {
		t.Fatalf("last page %v, want only the administrator", got)
	}
	// Far past the end (the last page the contract allows): empty, with the total.
	page = listMembers(t, admin, url.Values{"page": {"100000"}, "size": {"100"}})
	if len(page.Items) != 0 || page.Total != 5 {
		t.Fatalf("page past the end: %d items, total %d", len(page.Items), page.Total)
	}
	admin.Raw().Do(http.MethodGet, "/api/admin/members?size=101", nil).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
	admin.Raw().Do(http.MethodGet, "/api/admin/members?page=100001", nil).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
	admin.Raw().Do(http.MethodGet, "/api/admin/members?page=0", nil).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
}

func TestListMembersFindsTextLiterally(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	admin := env.NewMember(apitest.AsAdmin(), apitest.WithName("Admin"))
	percent := env.NewMember(apitest.WithName("100% Kim"))
	env.NewMember(apitest.WithName("1000 Kim"))
	underscore := env.NewMember(apitest.WithName("Kim_Lee"))
	plain := env.NewMember(apitest.WithName("KimxLee"))
	backslash := env.NewMember(apitest.WithName(`Kim\Park`))
	byEmail := env.NewMember(apitest.WithEmail("needle.haystack@nestegg.test"))

	for _, tc := range []struct {
		q    string
		want []int64
	}{
		{"100%", []int64{percent.ID}},
		{"_", []int64{underscore.ID}},
		{"kim_", []int64{underscore.ID}},
		{`\`, []int64{backslash.ID}},
		{`m\p`, []int64{backslash.ID}},
		{"KIMXLEE", []int64{plain.ID}},
		{"Kim", []int64{backslash.ID, plain.ID, underscore.ID, 0, percent.ID}},
		{"NEEDLE.hay", []int64{byEmail.ID}},
		{"  ", nil}, // blank: everyone
		{"nobody", []int64{}},
	} {
		page := listMembers(t, admin, url.Values{"q": {tc.q}})
		got := ids(page.Items)
		switch {
		case tc.want == nil:
			if page.Total != 7 || len(got) != 7 {
				t.Errorf("q %q: %d of %d, want all 7", tc.q, len(got), page.Total)
			}
		case len(got) != len(tc.want) || page.Total != int64(len(tc.want)):
			t.Errorf("q %q: %v (total %d), want %v", tc.q, got, page.Total, tc.want)
		default:
			for i, id := range tc.want {
				if id != 0 && got[i] != id {
					t.Errorf("q %q: %v, want %v", tc.q, got, tc.want)
					break
				}
			}
		}
	}
	// The list carries no profile images (the contract check refuses any
	// field AdminMember does not declare, so this is belt and braces).
	res := admin.Do(http.MethodGet, "/api/admin/members", nil).Want(http.StatusOK)
	var raw struct{ Items []map[string]any }
	res.JSON(&raw)
	for _, item := range raw.Items {
		if _, ok := item["profileImage"]; ok {
			t.Fatal("member list shows profileImage")
		}
	}
}

func sessionOf(t *testing.T, c *apitest.Member) api.User {
	t.Helper()
	var u api.User
	c.Do(http.MethodGet, "/api/auth/session", nil).Want(http.StatusOK).JSON(&u)
	return u
}

func TestRoleChangeReachesTheMembersSessions(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	admin := env.NewMember(apitest.AsAdmin())
	user := env.NewMember()
	other := env.NewMember(apitest.AsAdmin())

	user.Do(http.MethodGet, "/api/admin/members", nil).WantProblem(http.StatusForbidden, "FORBIDDEN")
	var m api.AdminMember
	admin.Do(http.MethodPut, memberPath(user.ID, "/role"), api.SetMemberRoleJSONRequestBody{Role: api.RoleAdmin}).Want(http.StatusOK).JSON(&m)
	if m.ID != user.ID || m.Role != api.RoleValueAdmin {
		t.Fatalf("answered %+v, want member %d as ADMIN", m, user.ID)
	}
	if got := sessionOf(t, user).Role; got != "ADMIN" {
		t.Fatalf("session role %q after promotion, want ADMIN", got)
	}
	user.Do(http.MethodGet, "/api/admin/members", nil).Want(http.StatusOK)

	// An administrator demoted by another loses access on the next request.
	other.Do(http.MethodGet, "/api/admin/members", nil).Want(http.StatusOK)
	admin.Do(http.MethodPut, memberPath(other.ID, "/role"), api.SetMemberRoleJSONRequestBody{Role: api.RoleUser}).Want(http.StatusOK).JSON(&m)
	if m.Role != api.RoleValueUser {
		t.Fatalf("role %q after demotion", m.Role)
	}
	other.Do(http.MethodGet, "/api/admin/members", nil).WantProblem(http.StatusForbidden, "FORBIDDEN")
	if got := sessionOf(t, other).Role; got != "USER" {
		t.Fatalf("session role %q after demotion, want USER", got)
	}
}

func countSessions(t *testing.T, env *apitest.Env, memberID int64) int {
	t.Helper()
	var n int
	err := env.Pool.QueryRow(context.Background(), "SELECT count(*) FROM auth_session WHERE member_id = $1", memberID).Scan(&n)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestSuspensionEndsSessionsAndRefusesLogin(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	admin := env.NewMember(apitest.AsAdmin())
	user := env.NewMember()
	second := env.LogIn(user.Email, apitest.DefaultPassword)
	if n := countSessions(t, env, user.ID); n != 2 {
		t.Fatalf("%d stored sessions before suspension, want 2", n)
	}

	var m api.AdminMember
	admin.Do(http.MethodPut, memberPath(user.ID, "/status"), api.SetMemberStatusJSONRequestBody{Status: api.MemberStatusSuspended}).Want(http.StatusOK).JSON(&m)
	if m.Status != "SUSPENDED" {
		t.Fatalf("status %q, want SUSPENDED", m.Status)
	}
	if n := countSessions(t, env, user.ID); n != 0 {
		t.Fatalf("%d stored sessions after suspension, want none", n)
	}
	user.Do(http.MethodGet, "/api/auth/session", nil).WantProblem(http.StatusUnauthorized, "UNAUTHENTICATED")
	second.Do(http.MethodGet, "/api/auth/session", nil).WantProblem(http.StatusUnauthorized, "UNAUTHENTICATED")
	login := api.LogInJSONRequestBody{Email: user.Email, Password: apitest.DefaultPassword}
	env.Client().Do(http.MethodPost, "/api/auth/login", login).WantProblem(http.StatusUnauthorized, "UNAUTHENTICATED")

	admin.Do(http.MethodPut, memberPath(user.ID, "/status"), api.SetMemberStatusJSONRequestBody{Status: api.MemberStatusActive}).Want(http.StatusOK).JSON(&m)
	if m.Status != "ACTIVE" {
		t.Fatalf("status %q, want ACTIVE", m.Status)
	}
	env.Client().Do(http.MethodPost, "/api/auth/login", login).Want(http.StatusOK)
	// Sessions ended by the suspension stay ended.
	user.Do(http.MethodGet, "/api/auth/session", nil).WantProblem(http.StatusUnauthorized, "UNAUTHENTICATED")
}

func TestPlanChangeIsPermanentAndReachesTheSession(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	admin := env.NewMember(apitest.AsAdmin())
	user := env.NewMember()
	// A running store subscription, which the administrator's plan replaces.
	_, err := env.Pool.Exec(context.Background(),
		`UPDATE member SET plan = 'PREMIUM', plan_expires_at = $2, plan_product = 'premium_monthly', plan_auto_renew = true WHERE id = $1`,
		user.ID, apitest.Start.AddDate(0, 1, 0))
	if err != nil {
		t.Fatal(err)
	}
	if u := sessionOf(t, user); u.Plan != "PREMIUM" || u.PlanExpiresAt == nil {
		t.Fatalf("session %+v, want PREMIUM with an expiry", u)
	}

	var m api.AdminMember
	admin.Do(http.MethodPut, memberPath(user.ID, "/plan"), api.SetMemberPlanJSONRequestBody{Plan: api.PlanPremium}).Want(http.StatusOK).JSON(&m)
	if m.Plan != "PREMIUM" || m.PlanExpiresAt != nil || m.PlanProduct != nil || m.PlanAutoRenew {
		t.Fatalf("answered plan %s, expires %v, product %v, auto-renew %v; want permanent PREMIUM without subscription",
			m.Plan, m.PlanExpiresAt, m.PlanProduct, m.PlanAutoRenew)
	}
	if u := sessionOf(t, user); u.Plan != "PREMIUM" || u.PlanExpiresAt != nil {
		t.Fatalf("session plan %s expiring %v, want PREMIUM without expiry", u.Plan, u.PlanExpiresAt)
	}

	admin.Do(http.MethodPut, memberPath(user.ID, "/plan"), api.SetMemberPlanJSONRequestBody{Plan: api.PlanFree}).Want(http.StatusOK).JSON(&m)
	if m.Plan != "FREE" {
		t.Fatalf("plan %s, want FREE", m.Plan)
	}
	if u := sessionOf(t, user); u.Plan != "FREE" {
		t.Fatalf("session plan %s, want FREE", u.Plan)
	}
}

func TestAdministratorCannotChangeOrDeleteThemselves(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	admin := env.NewMember(apitest.AsAdmin())

	admin.Do(http.MethodPut, memberPath(admin.ID, "/role"), api.SetMemberRoleJSONRequestBody{Role: api.RoleUser}).WantProblem(http.StatusBadRequest, "SELF_ADMIN_CHANGE")
	admin.Do(http.MethodPut, memberPath(admin.ID, "/role"), api.SetMemberRoleJSONRequestBody{Role: api.RoleAdmin}).WantProblem(http.StatusBadRequest, "SELF_ADMIN_CHANGE")
	admin.Do(http.MethodPut, memberPath(admin.ID, "/status"), api.SetMemberStatusJSONRequestBody{Status: api.MemberStatusSuspended}).WantProblem(http.StatusBadRequest, "SELF_ADMIN_CHANGE")
	admin.Do(http.MethodPut, memberPath(admin.ID, "/plan"), api.SetMemberPlanJSONRequestBody{Plan: api.PlanPremium}).WantProblem(http.StatusBadRequest, "SELF_ADMIN_CHANGE")
	admin.Do(http.MethodDelete, memberPath(admin.ID, ""), nil).WantProblem(http.StatusBadRequest, "SELF_ADMIN_CHANGE")
	admin.Do(http.MethodDelete, fmt.Sprintf("/api/users/%d", admin.ID), nil).WantProblem(http.StatusBadRequest, "SELF_ADMIN_CHANGE")

	// Nothing changed, and the session still works.
	page := listMembers(t, admin, nil)
	if len(page.Items) != 1 {
		t.Fatalf("%d members, want the administrator alone", len(page.Items))
	}
	if m := page.Items[0]; m.ID != admin.ID || m.Role != api.RoleValueAdmin || m.Status != "ACTIVE" || m.Plan != "FREE" {
		t.Fatalf("administrator now %+v", m)
	}
	if n := countSessions(t, env, admin.ID); n != 1 {
		t.Fatalf("%d stored sessions, want the administrator's one", n)
	}
}

func TestUnknownMemberIsNotFound(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	admin := env.NewMember(apitest.AsAdmin())
	const id = 987654321
	admin.Do(http.MethodPut, memberPath(id, "/role"), api.SetMemberRoleJSONRequestBody{Role: api.RoleAdmin}).WantProblem(http.StatusNotFound, "NOT_FOUND")
	admin.Do(http.MethodPut, memberPath(id, "/status"), api.SetMemberStatusJSONRequestBody{Status: api.MemberStatusSuspended}).WantProblem(http.StatusNotFound, "NOT_FOUND")
	admin.Do(http.MethodPut, memberPath(id, "/plan"), api.SetMemberPlanJSONRequestBody{Plan: api.PlanPremium}).WantProblem(http.StatusNotFound, "NOT_FOUND")
	admin.Do(http.MethodDelete, memberPath(id, ""), nil).WantProblem(http.StatusNotFound, "NOT_FOUND")
	users := fmt.Sprintf("/api/users/%d", id)
	admin.Do(http.MethodGet, users, nil).WantProblem(http.StatusNotFound, "NOT_FOUND")
	admin.Do(http.MethodPut, users, api.UpdateUserJSONRequestBody{Email: "x@nestegg.test", Name: "X"}).WantProblem(http.StatusNotFound, "NOT_FOUND")
	admin.Do(http.MethodDelete, users, nil).WantProblem(http.StatusNotFound, "NOT_FOUND")
}

func TestDeleteMemberRemovesThemAndTheirSessions(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	admin := env.NewMember(apitest.AsAdmin())
	user := env.NewMember()
	keep := env.NewMember()

	admin.Do(http.MethodDelete, memberPath(user.ID, ""), nil).Want(http.StatusNoContent)
	user.Do(http.MethodGet, "/api/auth/session", nil).WantProblem(http.StatusUnauthorized, "UNAUTHENTICATED")
	admin.Do(http.MethodGet, fmt.Sprintf("/api/users/%d", user.ID), nil).WantProblem(http.StatusNotFound, "NOT_FOUND")
	admin.Do(http.MethodDelete, memberPath(user.ID, ""), nil).WantProblem(http.StatusNotFound, "NOT_FOUND")
	login := api.LogInJSONRequestBody{Email: user.Email, Password: apitest.DefaultPassword}
	env.Client().Do(http.MethodPost, "/api/auth/login", login).WantProblem(http.StatusUnauthorized, "UNAUTHENTICATED")
	if n := countSessions(t, env, user.ID); n != 0 {
		t.Fatalf("%d stored sessions of the deleted member", n)
	}
	// Nobody else is touched.
	if got := ids(listMembers(t, admin, nil).Items); !slices.Equal(got, []int64{keep.ID, admin.ID}) {
		t.Fatalf("members %v after the deletion, want %v", got, []int64{keep.ID, admin.ID})
	}
	keep.Do(http.MethodGet, "/api/auth/session", nil).Want(http.StatusOK)
}

func TestConcurrentChangesOfOneMember(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	admin := env.NewMember(apitest.AsAdmin())
	user := env.NewMember()

	plans := []string{"PREMIUM", "FREE", "PREMIUM", "FREE", "PREMIUM", "FREE", "PREMIUM", "FREE", "PREMIUM", "FREE", "PREMIUM", "FREE"}
	// A role change at the same time must not be lost to the plan changes.
	answers := apitest.TogetherV(len(plans)+1, func(i int) *apitest.Response {
		if i == len(plans) {
			return admin.Do(http.MethodPut, memberPath(user.ID, "/role"), api.SetMemberRoleJSONRequestBody{Role: api.RoleAdmin})
		}
		return admin.Do(http.MethodPut, memberPath(user.ID, "/plan"), api.SetMemberPlanJSONRequestBody{Plan: api.Plan(plans[i])})
	})
	for i, res := range answers {
		if res.Status != http.StatusOK {
			t.Errorf("change %d answered %d, want 200: %s", i, res.Status, res.Body)
		}
	}

	var u api.User
	admin.Do(http.MethodGet, fmt.Sprintf("/api/users/%d", user.ID), nil).Want(http.StatusOK).JSON(&u)
	if !slices.Contains(plans, string(u.Plan)) || u.PlanExpiresAt != nil || u.Role != api.RoleValueAdmin {
		t.Fatalf("member ended as %s (expiry %v) %s; want a plan that was sent, no expiry, ADMIN", u.Plan, u.PlanExpiresAt, u.Role)
	}
}
