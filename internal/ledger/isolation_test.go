package ledger_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/jackc/pgx/v5"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	lt "github.com/nestegg/nestegg/internal/apitest/ledgertest"
	"github.com/nestegg/nestegg/internal/server"
)

// accountPrefix is where the member-owned operations live.
const accountPrefix = "/api/account/"

// makers create, for a member, one record of a resource (named by its path
// under /api/account, as in "wallets" or "invest/stocks") and answer its id.
// An area that adds a member-owned resource with ids adds its maker here;
// TestEveryLedgerOperationIsolatesMembers fails, naming the resource, until
// it does.
var makers = map[string]func(m *apitest.Member) int64{
	"wallets": func(m *apitest.Member) int64 {
		return lt.Wallet(m.Client, "Isolated", api.WalletTypeCash, 100).ID
	},
	"categories": func(m *apitest.Member) int64 {
		return lt.Category(m.Client, "Isolated", api.EntryTypeExpense, nil).ID
	},
	"tags": func(m *apitest.Member) int64 {
		var t api.Tag
		m.Do(http.MethodPost, "/api/account/tags", api.TagRequest{Name: "isolated"}).Want(http.StatusCreated).JSON(&t)
		return t.ID
	},
	"entries": func(m *apitest.Member) int64 {
		return lt.Entry(m.Client, api.EntryRequest{Date: lt.Date(2026, 11, 16), Type: api.EntryTypeExpense, Amount: lt.Ptr[int64](1)}).ID
	},
	"recurrings": func(m *apitest.Member) int64 {
		var r api.Recurring
		m.Do(http.MethodPost, "/api/account/recurrings", api.RecurringRequest{Name: "Isolated", Type: api.EntryTypeExpense, Amount: 1, Day: 1}).
			Want(http.StatusCreated).JSON(&r)
		return r.ID
	},
	"transfers": func(m *apitest.Member) int64 {
		var tr api.Transfer
		m.Do(http.MethodPost, "/api/account/transfers", api.TransferRequest{
			Date: lt.Date(2026, 11, 16), Amount: 1, Fee: lt.Ptr[int64](1),
			FromWalletID: lt.Wallet(m.Client, "Isolated from", api.WalletTypeBank, 0).ID,
			ToWalletID:   lt.Wallet(m.Client, "Isolated to", api.WalletTypeCard, 0).ID,
		}).Want(http.StatusCreated).JSON(&tr)
		return tr.ID
	},
	"quick-entries": func(m *apitest.Member) int64 {
		var q api.QuickEntry
		m.Do(http.MethodPost, "/api/account/quick-entries", api.QuickEntryRequest{Name: "Isolated", Type: api.EntryTypeExpense, Amount: 1}).
			Want(http.StatusCreated).JSON(&q)
		return q.ID
	},
	"invest/stocks": func(m *apitest.Member) int64 {
		var s api.Stock
		m.Do(http.MethodPost, "/api/account/invest/stocks", api.StockRequest{Code: "005930", Name: "Isolated"}).
			Want(http.StatusCreated).JSON(&s)
		return s.ID
	},
	"invest/trades": func(m *apitest.Member) int64 {
		var s api.Stock
		m.Do(http.MethodPost, "/api/account/invest/stocks", api.StockRequest{Code: "000660", Name: "Isolated trade"}).
			Want(http.StatusCreated).JSON(&s)
		var tr api.Trade
		m.Do(http.MethodPost, "/api/account/invest/trades", api.TradeRequest{
			StockID: s.ID, Side: api.TradeSideBuy, Date: lt.Date(2026, 11, 16), Quantity: "1", Price: "100",
		}).Want(http.StatusCreated).JSON(&tr)
		return tr.ID
	},
	"budgets": func(m *apitest.Member) int64 {
		c := lt.Category(m.Client, "Isolated budget", api.EntryTypeExpense, nil)
		var b api.Budget
		m.Do(http.MethodPost, "/api/account/budgets", api.BudgetRequest{CategoryID: c.ID, Year: 2026, Month: 11, Amount: 1}).
			Want(http.StatusCreated).JSON(&b)
		return b.ID
	},
	"budgets/onetime": func(m *apitest.Member) int64 {
		var b api.OnetimeBudget
		m.Do(http.MethodPost, "/api/account/budgets/onetime", api.OnetimeBudgetRequest{
			Name: "Isolated", Amount: 1, StartDate: lt.Date(2026, 11, 1), EndDate: lt.Date(2026, 11, 30),
		}).Want(http.StatusCreated).JSON(&b)
		return b.ID
	},
}

// idFields name the resource an id-carrying body field or query parameter
// refers to. "ids" (reorder) and "moveTo" refer to the operation's own
// resource.
var idFields = map[string]string{
	"walletId": "wallets", "fromWalletId": "wallets", "toWalletId": "wallets", "paymentWalletId": "wallets",
	"categoryId": "categories", "parentId": "categories",
	"stockId": "invest/stocks",
}

// invalidForeign are the id fields whose record is another member's or
// missing alike answers 400 VALIDATION_FAILED naming the field (the contract
// says so), not 404: a card's paying wallet (issue 45), refused with the
// same answer whether it is missing, another member's or a CARD, so it
// reveals nothing either. Each comes with what the body needs besides it.
var invalidForeign = map[string]map[string]any{
	"paymentWalletId": {"type": "CARD", "statementDay": 31, "paymentDay": 14},
}

var pathParam = regexp.MustCompile(`\{[^}/]+\}`)

// resourceOf is the resource an operation works on: its path under
// /api/account up to the first parameter or action.
func resourceOf(path string) string {
	r := strings.TrimPrefix(path, accountPrefix)
	if i := strings.Index(r, "/{"); i >= 0 {
		r = r[:i]
	}
	return strings.TrimSuffix(r, "/reorder")
}

// records holds one member's record of each resource, made on demand.
type records struct {
	t  *testing.T
	m  *apitest.Member
	id map[string]int64
}

func (r *records) of(resource string) (int64, bool) {
	if id, ok := r.id[resource]; ok {
		return id, true
	}
	make, ok := makers[resource]
	if !ok {
		return 0, false
	}
	r.id[resource] = make(r.m)
	return r.id[resource], true
}

// TestEveryLedgerOperationIsolatesMembers walks every operation under
// /api/account in the contract and calls it as an intruder with another
// member's ids, in the path, in each id field of the body and in each id
// query parameter, everything else valid and the intruder's own. Each must
// answer 404, and the owner's rows must be unchanged afterwards.
func TestEveryLedgerOperationIsolatesMembers(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	doc, err := server.ParseContract()
	if err != nil {
		t.Fatal(err)
	}
	owner := &records{t: t, m: env.NewMember(apitest.AsPremium()), id: map[string]int64{}}
	intruder := &records{t: t, m: env.NewMember(apitest.AsPremium()), id: map[string]int64{}}
	for resource := range makers {
		owner.of(resource)
	}
	before := ownedRows(t, env, owner.m.ID)

	type operation struct {
		*openapi3.Operation
		method, path string
	}
	var ops []operation
	for path, item := range doc.Paths.Map() {
		if !strings.HasPrefix(path, accountPrefix) {
			continue
		}
		for method, op := range item.Operations() {
			ops = append(ops, operation{op, method, path})
		}
	}
	sort.Slice(ops, func(i, j int) bool { return ops[i].path+ops[i].method < ops[j].path+ops[j].method })

	checked := 0
	for _, op := range ops {
		resource := resourceOf(op.path)
		// slots are the places an id goes: "path", "body:<field>", "query:<name>".
		var slots []string
		if pathParam.MatchString(op.path) {
			slots = append(slots, "path")
		}
		var bodySchema *openapi3.Schema
		if op.RequestBody != nil {
			if mt := op.RequestBody.Value.Content.Get("application/json"); mt != nil {
				bodySchema = mt.Schema.Value
			}
		}
		if bodySchema != nil {
			for name := range bodySchema.Properties {
				if name == "ids" || idFields[name] != "" {
					slots = append(slots, "body:"+name)
				} else if strings.HasSuffix(name, "Id") {
					t.Errorf("%s: body field %s carries an id: add it to idFields", op.OperationID, name)
				}
			}
		}
		for _, p := range op.Parameters {
			if p.Value.In == "query" && (p.Value.Name == "moveTo" || idFields[p.Value.Name] != "") {
				slots = append(slots, "query:"+p.Value.Name)
			}
		}
		if len(slots) == 0 {
			t.Logf("%s %s (%s): takes no id", op.method, op.path, op.OperationID)
			continue
		}
		sort.Strings(slots)
		for _, foreign := range slots {
			// resourceFor names the resource a slot's id belongs to.
			resourceFor := func(slot string) string {
				name := slot[strings.Index(slot, ":")+1:]
				if slot == "path" || name == "ids" || name == "moveTo" {
					return resource
				}
				return idFields[name]
			}
			idFor := func(slot string) int64 {
				from := intruder
				if slot == foreign {
					from = owner
				}
				id, ok := from.of(resourceFor(slot))
				if !ok {
					t.Fatalf("%s: no maker for resource %q: add one to makers", op.OperationID, resourceFor(slot))
				}
				return id
			}
			path := op.path
			if pathParam.MatchString(path) {
				path = pathParam.ReplaceAllString(path, fmt.Sprint(idFor("path")))
			}
			query := url.Values{}
			var body map[string]any
			if bodySchema != nil {
				body = exampleOf(t, op.OperationID, bodySchema)
			}
			for _, slot := range slots {
				kind, name, _ := strings.Cut(slot, ":")
				switch {
				case kind == "query" && slot == foreign:
					query.Set(name, fmt.Sprint(idFor(slot)))
				case kind == "body" && name == "ids":
					body[name] = []int64{idFor(slot)}
				case kind == "body" && (slot == foreign || body[name] != nil):
					body[name] = idFor(slot)
					if slot == foreign {
						for k, v := range invalidForeign[name] {
							body[k] = v
						}
					}
				}
			}
			if len(query) > 0 {
				path += "?" + query.Encode()
			}
			var payload any
			if body != nil {
				payload = body
			}
			res := intruder.m.Do(strings.ToUpper(op.method), path, payload)
			var p apitest.Problem
			_ = json.Unmarshal(res.Body, &p)
			if _, field, _ := strings.Cut(foreign, ":"); invalidForeign[field] != nil {
				if res.Status != http.StatusBadRequest || p.Code != "VALIDATION_FAILED" || len(p.Errors) != 1 || p.Errors[0].Field != "/"+field {
					t.Errorf("%s with another member's id in %s: %d %s, want 400 VALIDATION_FAILED naming /%s", op.OperationID, foreign, res.Status, res.Body, field)
				}
			} else if res.Status != http.StatusNotFound || p.Code != "NOT_FOUND" {
				t.Errorf("%s with another member's id in %s: %d %s, want 404 NOT_FOUND", op.OperationID, foreign, res.Status, res.Body)
			}
			checked++
		}
	}
	if checked < 20 {
		t.Fatalf("only %d calls checked: the walk found too few ledger operations", checked)
	}
	after := ownedRows(t, env, owner.m.ID)
	for table, digest := range before {
		if after[table] != digest {
			t.Errorf("the owner's %s rows changed", table)
		}
	}
}

// exampleOf is a fresh copy of a request schema's example.
func exampleOf(t *testing.T, op string, s *openapi3.Schema) map[string]any {
	t.Helper()
	if s.Example == nil {
		t.Fatalf("%s: its request schema has no example", op)
	}
	raw, err := json.Marshal(s.Example)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("%s: example is not an object: %v", op, err)
	}
	return out
}

// ownedRows is a digest of a member's rows in every table that refers to
// member, by table.
func ownedRows(t *testing.T, env *apitest.Env, memberID int64) map[string]string {
	t.Helper()
	ctx := context.Background()
	rows, err := env.Pool.Query(ctx, `
		SELECT c.conrelid::regclass::text, a.attname
		FROM pg_constraint c JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
		WHERE c.contype = 'f' AND c.confrelid = 'member'::regclass`)
	if err != nil {
		t.Fatal(err)
	}
	type ref struct{ Table, Column string }
	refs, err := pgx.CollectRows(rows, pgx.RowToStructByPos[ref])
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, r := range refs {
		var digest *string
		sql := fmt.Sprintf(`SELECT md5(string_agg(x::text, ',' ORDER BY x::text)) FROM %s x WHERE %s = $1`, r.Table, pgx.Identifier{r.Column}.Sanitize())
		if err := env.Pool.QueryRow(ctx, sql, memberID).Scan(&digest); err != nil {
			t.Fatal(err)
		}
		if digest != nil {
			out[r.Table] = *digest
		}
	}
	return out
}
