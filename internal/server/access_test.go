package server_test

import (
	"encoding/json"
	"net/http"
	"regexp"
	"sort"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/server"
)

// pathParam matches a path template's parameter, such as {id}.
var pathParam = regexp.MustCompile(`\{[^}/]+\}`)

// accessRule says who may call the operations whose "METHOD path" matches,
// as SPEC.md section 5 and DECISIONS.md section 1 put it. The first matching
// rule applies; an operation no rule matches fails the test, so a new
// operation's access is decided here, against the specification, and not
// only by whoever wrote its x-access.
type accessRule struct {
	match  *regexp.Regexp
	access string
}

var accessRules = []accessRule{
	// Public (SPEC 5.4): operations, sign-up status, sign-in, image download,
	// store notification intake; board reads (only board writes need a login).
	{regexp.MustCompile(`^GET (/healthz|/readyz|/api/openapi\.yaml|/docs)$`), server.AccessPublic},
	{regexp.MustCompile(`^GET /api/auth/(signup-enabled|idp-a-client-id)$`), server.AccessPublic},
	{regexp.MustCompile(`^POST /api/auth/(signup|login|logout|idp-a|idp-b)$`), server.AccessPublic},
	{regexp.MustCompile(`^GET /api/images/\{[^}]+\}$`), server.AccessPublic},
	{regexp.MustCompile(`^POST /api/billing/store/rtdn$`), server.AccessPublic},
	// Administrators (SPEC 5.6): /api/admin/*, users, notices, reports.
	{regexp.MustCompile(`^\S+ /api/(admin|users)(/|$)`), server.AccessAdmin},
	{regexp.MustCompile(`^POST /api/board/posts/\{[^}]+\}/(notice|unnotice)$`), server.AccessAdmin},
	{regexp.MustCompile(`^\S+ /api/board/reports(/|$)`), server.AccessAdmin},
	{regexp.MustCompile(`^GET /api/board/(posts|posts/\{[^}]+\}|posts/\{[^}]+\}/comments|posts/\{[^}]+\}/recommenders|tag-groups)$`), server.AccessPublic},
	// PREMIUM (SPEC 5.7): statistics, budgets, tags, OCR, investments, card
	// notifications and backup (restore included; only free limits are
	// waived for it).
	{regexp.MustCompile(`^\S+ /api/account/(stats|budgets|tags|invest|backup|restore|ocr)(/|$)`), server.AccessPremium},
	{regexp.MustCompile(`^POST /api/account/entries/notification$`), server.AccessPremium},
	// CSV export and import (issue 24): PREMIUM like backup.
	{regexp.MustCompile(`^(GET /api/account/entries/export|POST /api/account/entries/import)$`), server.AccessPremium},
	// Household books (DECISIONS section 10): any signed-in member.
	{regexp.MustCompile(`^\S+ /api/books(/|$)`), server.AccessMember},
	// Every other ledger, board write, billing, FX and account operation
	// needs a signed-in member (SPEC 5.5).
	{regexp.MustCompile(`^\S+ /api/(account|board|billing|fx|auth)(/|$)`), server.AccessMember},
}

func specAccess(method, path string) (string, bool) {
	key := method + " " + path
	for _, r := range accessRules {
		if r.match.MatchString(key) {
			return r.access, true
		}
	}
	return "", false
}

// endsSession lists the operations that end the caller's session or
// account: the "let through" check gives each its own member.
var endsSession = map[string]bool{"deleteMe": true, "logOut": true}

// TestAccessGateOfEveryOperation sends each operation of the contract as
// callers its x-access must turn away, and one it must let through.
func TestAccessGateOfEveryOperation(t *testing.T) {
	t.Parallel()
	doc, err := server.ParseContract()
	if err != nil {
		t.Fatal(err)
	}
	env := apitest.New(t)
	anonymous := env.Client().Raw()
	user := env.NewMember().Raw()
	premium := env.NewMember(apitest.AsPremium()).Raw()
	admin := env.NewMember(apitest.AsAdmin()).Raw()

	type operation struct {
		*openapi3.Operation
		method, path, access string
	}
	var ops []operation
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			access, err := server.OperationAccess(op)
			if err != nil {
				t.Fatalf("%s %s: %v", method, path, err)
			}
			ops = append(ops, operation{op, method, path, access})
		}
	}
	sort.Slice(ops, func(i, j int) bool {
		return ops[i].path+" "+ops[i].method < ops[j].path+" "+ops[j].method
	})

	counts := map[string]int{}
	for _, op := range ops {
		counts[op.access]++
		if want, ok := specAccess(op.method, op.path); !ok {
			t.Errorf("%s %s (%s): no rule of SPEC.md section 5 in accessRules covers it", op.method, op.path, op.OperationID)
		} else if want != op.access {
			t.Errorf("%s %s (%s): x-access %s, but SPEC.md section 5 says %s", op.method, op.path, op.OperationID, op.access, want)
		}
		// An id no record has: the gate is under test, not the record.
		path := pathParam.ReplaceAllString(op.path, "987654321")
		var body any
		if op.RequestBody != nil {
			body = "{}"
		}
		send := func(c *apitest.Client) *apitest.Response { return c.Do(op.method, path, body) }

		if op.access != server.AccessPublic {
			wantRefused(t, op.OperationID, "anonymous", send(anonymous), http.StatusUnauthorized, "UNAUTHENTICATED")
		}
		// allowed are the callers the gate must let through.
		var allowed map[string]*apitest.Client
		switch op.access {
		case server.AccessPublic:
			allowed = map[string]*apitest.Client{"anonymous": anonymous}
		case server.AccessMember:
			allowed = map[string]*apitest.Client{"a FREE member": user, "an administrator": admin}
		case server.AccessAdmin:
			wantRefused(t, op.OperationID, "a USER", send(user), http.StatusForbidden, "FORBIDDEN")
			wantRefused(t, op.OperationID, "a PREMIUM member", send(premium), http.StatusForbidden, "FORBIDDEN")
			allowed = map[string]*apitest.Client{"an administrator": admin}
		case server.AccessPremium:
			wantRefused(t, op.OperationID, "a FREE member", send(user), http.StatusForbidden, "PREMIUM_REQUIRED")
			allowed = map[string]*apitest.Client{"a PREMIUM member": premium, "an administrator": admin}
		}
		for who, c := range allowed {
			if endsSession[op.OperationID] && c != anonymous {
				c = env.NewMember().Raw()
				if who == "an administrator" {
					c = env.NewMember(apitest.AsAdmin()).Raw()
				}
			}
			if res := send(c); res.Status == http.StatusUnauthorized || res.Status == http.StatusForbidden {
				t.Errorf("%s: %s was refused (%d): %s", op.OperationID, who, res.Status, res.Body)
			}
		}
	}
	if counts[server.AccessAdmin] == 0 {
		t.Fatal("the contract has no admin operations: the gate was not tested")
	}
	t.Logf("operations by access: %v", counts)
}

// wantRefused checks the gate's answer without stopping the test, so every
// operation is reported.
func wantRefused(t *testing.T, op, who string, res *apitest.Response, status int, code string) {
	t.Helper()
	var p struct{ Code string }
	_ = json.Unmarshal(res.Body, &p)
	if res.Status != status || p.Code != code {
		t.Errorf("%s as %s: %d %q, want %d %s", op, who, res.Status, p.Code, status, code)
	}
}
