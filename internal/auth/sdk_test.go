package auth_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/nestegg/nestegg/generated/apiclient"
	"github.com/nestegg/nestegg/internal/apitest"
)

// sdk returns a client generated from the contract (as client teams
// generate theirs), talking to env through the contract-checking transport.
func sdk(t *testing.T, env *apitest.Env) *apiclient.ClientWithResponses {
	t.Helper()
	c, err := apiclient.NewClientWithResponses(env.Server.URL, apiclient.WithHTTPClient(env.HTTPClient()))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func bearer(token string) apiclient.RequestEditorFn {
	return func(_ context.Context, req *http.Request) error {
		req.Header.Set("Authorization", "Bearer "+token)
		return nil
	}
}

// A member's first steps, driven through the generated SDK.
func TestMemberJourneyThroughTheGeneratedClient(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	api := sdk(t, env)
	ctx := context.Background()

	open, err := api.GetSignupEnabledWithResponse(ctx)
	if err != nil || open.JSON200 == nil || !open.JSON200.Enabled {
		t.Fatalf("signup-enabled: %v %s", err, open.Body)
	}
	signedUp, err := api.SignUpWithResponse(ctx, apiclient.SignUpJSONRequestBody{
		Email: "sdk@nestegg.test", Password: "first password", Name: "SDK",
	})
	if err != nil || signedUp.JSON201 == nil {
		t.Fatalf("sign-up: %v %s", err, signedUp.Body)
	}
	me := bearer(signedUp.JSON201.Token)

	renamed, err := api.UpdateProfileWithResponse(ctx, nil, apiclient.UpdateProfileJSONRequestBody{Name: "SDK Renamed"}, me)
	if err != nil || renamed.JSON200 == nil || renamed.JSON200.Name != "SDK Renamed" || renamed.JSON200.ProfileImage != nil {
		t.Fatalf("update profile: %v %s", err, renamed.Body)
	}

	wrong, err := api.ChangePasswordWithResponse(ctx, apiclient.ChangePasswordJSONRequestBody{CurrentPassword: "nope", NewPassword: "second password"}, me)
	if err != nil || wrong.ApplicationProblemJSON400 == nil || wrong.ApplicationProblemJSON400.Code != "WRONG_PASSWORD" {
		t.Fatalf("wrong current password: %v %s", err, wrong.Body)
	}
	changed, err := api.ChangePasswordWithResponse(ctx, apiclient.ChangePasswordJSONRequestBody{CurrentPassword: "first password", NewPassword: "second password"}, me)
	if err != nil || changed.StatusCode() != http.StatusNoContent {
		t.Fatalf("change password: %v %s", err, changed.Body)
	}

	loggedIn, err := api.LogInWithResponse(ctx, apiclient.LogInJSONRequestBody{Email: "sdk@nestegg.test", Password: "second password"})
	if err != nil || loggedIn.JSON200 == nil || loggedIn.JSON200.User.Name != "SDK Renamed" {
		t.Fatalf("login: %v %s", err, loggedIn.Body)
	}
	again := bearer(loggedIn.JSON200.Token)
	if out, err := api.LogOutWithResponse(ctx, again); err != nil || out.StatusCode() != http.StatusNoContent {
		t.Fatalf("logout: %v", err)
	}
	gone, err := api.GetSessionWithResponse(ctx, again)
	if err != nil || gone.ApplicationProblemJSON401 == nil || gone.ApplicationProblemJSON401.Code != "UNAUTHENTICATED" {
		t.Fatalf("session after logout: %v %s", err, gone.Body)
	}
	still, err := api.GetSessionWithResponse(ctx, me)
	if err != nil || still.JSON200 == nil || still.JSON200.Email == nil || *still.JSON200.Email != "sdk@nestegg.test" {
		t.Fatalf("first session after the other logged out: %v %s", err, still.Body)
	}
}

// An administrator's tools, driven through the generated SDK.
func TestAdministrationThroughTheGeneratedClient(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	api := sdk(t, env)
	ctx := context.Background()
	admin := env.NewMember(apitest.AsAdmin())
	target := env.NewMember(apitest.WithName("Target Person"))
	as := bearer(admin.Token)

	q := "target"
	page, err := api.ListMembersWithResponse(ctx, &apiclient.ListMembersParams{Q: &q}, as)
	if err != nil || page.JSON200 == nil || page.JSON200.Total != 1 || page.JSON200.Items[0].ID != target.ID {
		t.Fatalf("list members: %v %s", err, page.Body)
	}
	plan, err := api.SetMemberPlanWithResponse(ctx, target.ID, apiclient.SetMemberPlanJSONRequestBody{Plan: apiclient.PlanPremium}, as)
	if err != nil || plan.JSON200 == nil || plan.JSON200.Plan != apiclient.PlanValuePremium || plan.JSON200.PlanExpiresAt != nil {
		t.Fatalf("set plan: %v %s", err, plan.Body)
	}
	self, err := api.SetMemberRoleWithResponse(ctx, admin.ID, apiclient.SetMemberRoleJSONRequestBody{Role: apiclient.RoleUser}, as)
	if err != nil || self.ApplicationProblemJSON400 == nil || self.ApplicationProblemJSON400.Code != "SELF_ADMIN_CHANGE" {
		t.Fatalf("self role change: %v %s", err, self.Body)
	}
	forbidden, err := api.ListUsersWithResponse(ctx, nil, bearer(target.Token))
	if err != nil || forbidden.ApplicationProblemJSON403 == nil || forbidden.ApplicationProblemJSON403.Code != "FORBIDDEN" {
		t.Fatalf("member listing users: %v %s", err, forbidden.Body)
	}
}
