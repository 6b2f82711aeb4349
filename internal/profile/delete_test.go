package profile_test

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/session"
)

// memberFiller puts a member's rows into the tables one area owns.
type memberFiller struct {
	// order runs fillers whose rows depend on another area's after it
	// (identity 0, ledger 10, budget 20, transfer 30, invest 40, board 50,
	// billing 60, intake 70).
	order int
	area  string
	fill  func(t *testing.T, env *apitest.Env, m *apitest.Member)
}

// memberFillers are every area's fillers. An area that adds a table with a
// foreign key to member registers its filler from a file of its own
// (delete_<area>_test.go, in an init function), through its API where it has
// one; TestDeleteMeRemovesEverything fails, naming the table, until it does.
var memberFillers []memberFiller

func init() {
	memberFillers = append(memberFillers, memberFiller{order: 0, area: "identity", fill: func(t *testing.T, env *apitest.Env, m *apitest.Member) {
		// auth_session: signing in (NewMember) stored a session; add another.
		env.LogIn(m.Email, apitest.DefaultPassword)
		// point_history
		env.Exec(`INSERT INTO point_history (member_id, points, reason) VALUES ($1, 10, 'POST_WRITTEN'), ($1, -1, 'VOTE_CANCELLED')`, m.ID)
	}})
}

// fillMemberData gives m at least one row in every table with a foreign key
// to member, so TestDeleteMeRemovesEverything can see each one emptied.
func fillMemberData(t *testing.T, env *apitest.Env, m *apitest.Member) {
	t.Helper()
	fillers := slices.Clone(memberFillers)
	slices.SortStableFunc(fillers, func(a, b memberFiller) int { return a.order - b.order })
	for _, f := range fillers {
		f.fill(t, env, m)
	}
}

// memberReference is one foreign key column that references member.
type memberReference struct {
	constraint, table, column string
	onDelete                  string // pg_constraint.confdeltype: c = CASCADE
	columns                   int
}

func (r memberReference) String() string { return r.table + "." + r.column }

// memberReferences lists every foreign key to member in the schema the
// migrations built.
func memberReferences(t *testing.T, env *apitest.Env) []memberReference {
	t.Helper()
	rows, err := env.Pool.Query(context.Background(), `
		SELECT c.conname, c.conrelid::regclass::text, a.attname, c.confdeltype::text, cardinality(c.conkey)
		FROM pg_constraint c
		JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
		WHERE c.contype = 'f' AND c.confrelid = 'member'::regclass
		ORDER BY 2, 3`)
	if err != nil {
		t.Fatalf("list foreign keys to member: %v", err)
	}
	refs, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (memberReference, error) {
		var r memberReference
		return r, row.Scan(&r.constraint, &r.table, &r.column, &r.onDelete, &r.columns)
	})
	if err != nil {
		t.Fatalf("list foreign keys to member: %v", err)
	}
	return refs
}

// countRows counts the rows of each reference that point at the member.
func countRows(t *testing.T, env *apitest.Env, refs []memberReference, memberID int64) map[string]int {
	t.Helper()
	counts := map[string]int{}
	for _, r := range refs {
		// The table name comes from regclass, quoted as needed.
		sql := fmt.Sprintf(`SELECT count(*) FROM %s WHERE %s = $1`, r.table, pgx.Identifier{r.column}.Sanitize())
		var n int
		if err := env.Pool.QueryRow(context.Background(), sql, memberID).Scan(&n); err != nil {
			t.Fatalf("count %s: %v", r, err)
		}
		counts[r.String()] = n
	}
	return counts
}

// TestDeleteMeRemovesEverything proves that deleting a member removes all
// their data by construction: every foreign key to member cascades, and a
// member with rows in every referencing table has none left afterwards.
func TestDeleteMeRemovesEverything(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	refs := memberReferences(t, env)
	if len(refs) == 0 {
		t.Fatal("no foreign keys reference member")
	}
	for _, r := range refs {
		if r.onDelete != "c" {
			t.Errorf("%s (%s) is not ON DELETE CASCADE: deleting a member would fail or leave its rows", r, r.constraint)
		}
		if r.columns != 1 {
			t.Errorf("%s (%s) spans %d columns; extend memberReferences to count its rows", r, r.constraint, r.columns)
		}
	}

	m := env.NewMember()
	fillMemberData(t, env, m)
	bystander := env.NewMember()
	fillMemberData(t, env, bystander)

	before := countRows(t, env, refs, m.ID)
	for _, r := range refs {
		if before[r.String()] == 0 {
			t.Errorf("fillMemberData put no row in %s for the member: extend it for that table", r)
		}
	}
	bystanderBefore := countRows(t, env, refs, bystander.ID)
	if t.Failed() {
		t.FailNow()
	}

	m.Do(http.MethodDelete, "/api/auth/me", nil).Want(http.StatusNoContent)

	for ref, n := range countRows(t, env, refs, m.ID) {
		if n != 0 {
			t.Errorf("%s still has %d rows of the deleted member", ref, n)
		}
	}
	var members int
	if err := env.Pool.QueryRow(context.Background(), `SELECT count(*) FROM member WHERE id = $1`, m.ID).Scan(&members); err != nil {
		t.Fatal(err)
	}
	if members != 0 {
		t.Error("the member row is still there")
	}
	for ref, n := range countRows(t, env, refs, bystander.ID) {
		if n != bystanderBefore[ref] {
			t.Errorf("%s: another member's rows went from %d to %d", ref, bystanderBefore[ref], n)
		}
	}
	wantSignedIn(t, bystander.Client)
}

func TestDeleteMeEndsEverySession(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	other := env.LogIn(m.Email, apitest.DefaultPassword)
	// The deleting session is a browser's: it must get its cookie cleared.
	browser := env.LogIn(m.Email, apitest.DefaultPassword)
	cookie := env.Client().WithHeader("Cookie", session.CookieName+"="+browser.Token)
	wantSignedIn(t, cookie)

	res := cookie.Do(http.MethodDelete, "/api/auth/me", nil).Want(http.StatusNoContent)
	cleared := false
	for _, c := range res.Header.Values("Set-Cookie") {
		if strings.HasPrefix(c, session.CookieName+"=;") && strings.Contains(c, "Max-Age=0") {
			cleared = true
		}
	}
	if !cleared {
		t.Fatalf("Set-Cookie %q does not clear the session cookie", res.Header.Values("Set-Cookie"))
	}

	for _, token := range []string{m.Token, other.Token, browser.Token} {
		if inPostgres(t, env, token) || inRedis(t, env, token) {
			t.Fatal("a session of the deleted member is still stored")
		}
	}
	wantSignedOut(t, m.Client)
	wantSignedOut(t, other)
	wantSignedOut(t, cookie)
	env.Client().Do(http.MethodPost, "/api/auth/login", api.LogInJSONRequestBody{Email: m.Email, Password: apitest.DefaultPassword}).
		WantProblem(http.StatusUnauthorized, "UNAUTHENTICATED")
}
