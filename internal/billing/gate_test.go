package billing_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"testing"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/billing"
	"github.com/nestegg/nestegg/internal/server"
	"github.com/nestegg/nestegg/internal/session"
)

// premiumGate reports, for a session token, whether the PREMIUM gate lets it
// through. It asks the production session middleware for the request's
// principal, which is what the contract's access gate checks
// (Principal.HasPremium), and, when the contract has a PREMIUM operation
// that takes no path parameter, also calls that operation.
type premiumGate struct {
	t     *testing.T
	probe *httptest.Server
	op    string // "GET /api/..." of a premium operation, or ""
}

func newPremiumGate(t *testing.T, env *apitest.Env) *premiumGate {
	t.Helper()
	probe := httptest.NewServer(env.App.Sessions.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if session.PrincipalFrom(r.Context()).HasPremium() {
			w.WriteHeader(http.StatusOK)
			return
		}
		w.WriteHeader(http.StatusForbidden)
	})))
	t.Cleanup(probe.Close)
	return &premiumGate{t: t, probe: probe, op: premiumOperation(t)}
}

// premiumOperation finds a GET premium operation without path parameters.
func premiumOperation(t *testing.T) string {
	doc, err := server.ParseContract()
	if err != nil {
		t.Fatal(err)
	}
	var found []string
	for path, item := range doc.Paths.Map() {
		if item.Get == nil || strings.Contains(path, "{") {
			continue
		}
		if access, _ := server.OperationAccess(item.Get); access == server.AccessPremium {
			found = append(found, path)
		}
	}
	sort.Strings(found)
	if len(found) == 0 {
		return ""
	}
	return found[0]
}

func (g *premiumGate) passes(c *apitest.Client) bool {
	g.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, g.probe.URL, nil)
	req.Header.Set("Authorization", "Bearer "+c.Token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		g.t.Fatal(err)
	}
	res.Body.Close()
	passed := res.StatusCode == http.StatusOK
	if g.op != "" {
		r := c.Raw().Do(http.MethodGet, g.op, nil)
		refused := r.Status == http.StatusForbidden
		if refused {
			r.WantProblem(http.StatusForbidden, "PREMIUM_REQUIRED")
		}
		if refused == passed {
			g.t.Fatalf("GET %s answered %d while the session's principal has PREMIUM=%v", g.op, r.Status, passed)
		}
	}
	return passed
}

// A plan change reaches every session of the member by its next request,
// in both directions: purchase, cancel and expiry, restore, administrator.
func TestPremiumGateFollowsPlanChanges(t *testing.T) {
	t.Parallel()
	env, fake := newEnv(t)
	gate := newPremiumGate(t, env)
	if gate.op == "" {
		t.Log("the contract has no PREMIUM operation yet: the gate is checked through the session's principal only")
	}
	admin := env.NewMember(apitest.AsAdmin())
	m := env.NewMember()
	sessions := []*apitest.Client{m.Client, env.LogIn(m.Email, apitest.DefaultPassword), env.LogIn(m.Email, apitest.DefaultPassword)}
	want := func(step string, premium bool) {
		t.Helper()
		for i, c := range sessions {
			if got := gate.passes(c); got != premium {
				t.Fatalf("%s: session %d passes the PREMIUM gate: %v, want %v", step, i, got, premium)
			}
			if plan := sessionPlan(t, c); (plan == "PREMIUM") != premium {
				t.Fatalf("%s: session %d has plan %s", step, i, plan)
			}
		}
	}
	want("FREE at first", false)

	verify(m, "premium_monthly", fake.Active("premium_monthly", monthAfterStart)).Want(http.StatusOK)
	want("after the purchase", true)

	m.Do(http.MethodPost, "/api/billing/cancel", nil).Want(http.StatusOK)
	want("cancelled, before the expiry", true)
	if _, err := billing.ExpirePlans(context.Background(), env.Pool, monthAfterStart); err != nil {
		t.Fatal(err)
	}
	want("after the expiry job", false)

	env.Exec(`UPDATE iap_purchase SET expires_at = $2 WHERE member_id = $1`, m.ID, monthAfterStart.AddDate(0, 1, 0))
	sessions[1].Do(http.MethodPost, "/api/billing/restore", nil).Want(http.StatusOK)
	want("after a restore", true)

	plan := fmt.Sprintf("/api/admin/members/%d/plan", m.ID)
	admin.Do(http.MethodPut, plan, api.PlanRequest{Plan: api.PlanFree}).Want(http.StatusOK)
	want("after the administrator's FREE", false)
	admin.Do(http.MethodPut, plan, api.PlanRequest{Plan: api.PlanPremium}).Want(http.StatusOK)
	want("after the administrator's PREMIUM", true)
}
