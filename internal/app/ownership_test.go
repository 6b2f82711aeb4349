package app_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// Every table has one owning area (a package under internal/), and only that
// area's query file family writes it; other areas reach its rows through the
// owner's exported Go functions, called inside their own transaction. This
// test holds the rule (issue 20): it maps each sqlc query to the file that
// declares it, so to an area, and fails when
//   - a query writes (INSERT, UPDATE, DELETE) a table of another area,
//   - a query reads another area's table without an entry in crossReads,
//   - a package calls a query of another area.
// `make check` runs it.

// tableArea is the owner of every table.
var tableArea = map[string]string{
	"app_setting": "settings", "auth_failure": "throttle", "auth_session": "session",
	"signup_attempt": "auth", "member": "member", "point_history": "points", "job_run": "jobs",
	"iap_purchase": "billing", "outside_call_count": "quota", "fx_rate": "rates", "fx_lookup": "rates",
	"notification_key": "intake", "idempotency_key": "idempotency", "heavy_work": "heavy",
	"wallet": "ledger", "account_category": "ledger", "account_tag": "ledger", "account_entry": "ledger",
	"account_entry_tag": "ledger", "wallet_net": "ledger", "wallet_net_delta": "ledger", "recurring": "ledger", "recurring_post": "ledger", "quick_entry": "ledger", "default_category": "ledger",
	"transfer": "transfer",
	"budget":   "budget", "budget_income": "budget", "budget_onetime": "budget",
	"stock": "invest", "invest_trade": "invest", "stock_quote": "invest",
	"post": "board", "post_total": "board", "comment": "board", "post_vote": "board", "comment_vote": "board",
	"report": "board", "spam_keyword": "board", "tag_group": "board", "tag_group_board": "board",
	"board_image": "board", "post_image": "board", "image_upload_day": "board",
	"account_entry_import": "csvio", "card_bill_payment": "cards", "card_cycle_past": "cards", "card_checkpoint": "cards",
	"ledger_change": "changes", "ledger_change_epoch": "changes", "ledger_change_pending": "changes",
	"book": "book", "book_member": "book", "book_invitation": "book", "book_settlement": "book",
}

// queryFileArea is the area each query file belongs to: the owner of the
// table family it is named after.
var queryFileArea = map[string]string{
	"app_setting": "settings", "auth_failure": "throttle", "auth_session": "session",
	"signup_attempt": "auth", "member": "member", "member_plan": "member", "point_history": "points",
	"point_award": "points", "job_run": "jobs", "iap_purchase": "billing",
	"outside_call_count": "quota", "fx_rate": "rates", "notification_key": "intake",
	"idempotency_key": "idempotency", "heavy_work": "heavy",
	"wallet": "ledger", "category": "ledger", "tag": "ledger", "entry": "ledger", "recurring": "ledger",
	"quick_entry": "ledger", "default_category": "ledger", "entry_stats": "budget",
	"transfer": "transfer",
	"budget":   "budget", "budget_income": "budget", "budget_onetime": "budget",
	"stock": "invest", "invest_trade": "invest", "stock_quote": "invest", "networth": "invest",
	"post": "board", "comment": "board", "post_vote": "board", "comment_vote": "board", "report": "board",
	"spam_keyword": "board", "tag_group": "board", "board_image": "board", "post_image": "board",
	"entry_import":   "csvio",
	"ledger_change":  "changes",
	"card_statement": "cards",
	"forecast":       "forecast",
	"book":           "book",
}

// crossReads are the reads of another area's tables a query may make, for
// one-statement speed, each with its reason. Writes never cross.
var crossReads = map[[2]string]string{
	{"book", "member"}:                     "a book's ledger owner row carries its month start day, and members are listed with their names and owners' plans in one statement (the selector reads a book's access in one)",
	{"book", "account_entry"}:              "the settlement sums a month of the book's expenses per payer in one statement",
	{"entry_stats", "account_entry"}:       "statistics and budget status sum a month of entries in one statement",
	{"entry_stats", "account_entry_tag"}:   "tag statistics group a month's entries by tag in one statement",
	{"entry_stats", "account_tag"}:         "tag statistics answer tag names",
	{"entry_stats", "account_category"}:    "category statistics fold sub-categories into their parents",
	{"entry_stats", "transfer"}:            "monthly statistics per wallet count transfer sides",
	{"entry_stats", "point_history"}:       "the month-complete probe reads whether the bonus was given in the same statement",
	{"budget", "account_entry"}:            "budget status sums the month's expenses per category in one statement",
	{"budget", "account_category"}:         "a budget's category, and its children's expenses, in one statement",
	{"budget_onetime", "account_entry"}:    "a one-time budget's spending is a sum over its dates",
	{"budget_income", "account_entry"}:     "expected income against the month's confirmed income",
	{"networth", "wallet"}:                 "net worth reads every wallet's balance in one statement",
	{"networth", "account_entry"}:          "a day's balances take off the entries dated after it in its own week",
	{"networth", "wallet_net"}:             "balances per wallet at a day come from the ledger's rollup (its triggers write it) in one statement",
	{"networth", "wallet_net_delta"}:       "the rollup's nets not folded yet are added in the same statement",
	{"transfer", "account_entry"}:          "a transfer is answered with its two sides' wallets in one statement",
	{"wallet", "transfer"}:                 "a wallet's deletion names the transfers that use it",
	{"wallet", "member"}:                   "the write check of totals (issue 42, TotalsForWriteCheck) finds the touched days' ledger months by the member's month start day in the same statement",
	{"entry", "transfer"}:                  "an edit of a fee entry locks the transfer it is the fee of first (lock order: transfer, then entry)",
	{"entry", "member"}:                    "the write check of totals (issue 42) finds a day's ledger month by the member's month start day in the same statement",
	{"budget_onetime", "account_category"}: "one-time budgets are listed with their categories in one statement",
	{"category", "budget"}:                 "a category's type change or deletion names the budgets that use it, in one statement",
	{"category", "budget_onetime"}:         "a category's type change or deletion names the one-time budgets that use it",
	{"member_plan", "iap_purchase"}:        "lapsed plans are found with their last purchase token in one statement",
	{"point_award", "member"}:              "a member's balance is member.points, which the points area locks and adds to",
	{"point_history", "member"}:            "a member's balance is member.points",
	{"auth_session", "member"}:             "a session's principal (role, plan, status, month start day) is read with the session in one statement",
	{"post", "member"}:                     "posts are listed with their authors' names and avatars in one statement",
	{"comment", "member"}:                  "comments are listed with their authors in one statement",
	{"post_vote", "member"}:                "recommenders are listed with their names",
	{"board_image", "member"}:              "an image in use as a profile picture is kept by the cleanup",
	{"card_statement", "wallet"}:           "a card's statements follow its cycle, read with the card (and every cycle card's entries) in one statement",
	{"card_statement", "account_entry"}:    "a card's statements are computed from all its entries, read in one statement",
	{"card_statement", "ledger_change"}:    "a card's checkpoint holds while the changes feed past its position names no entry dated on or before it, read with the cards in one statement",
	{"forecast", "wallet"}:                 "the forecast starts from every wallet's balance, type, paying wallet and loan terms, read in one statement",
	{"forecast", "wallet_net"}:             "today's balances come from the ledger's rollup (its 'total' rows) in the same statement, whatever the history",
	{"forecast", "wallet_net_delta"}:       "the rollup's nets not folded yet are added in the same statement",
	{"forecast", "recurring"}:              "every recurring entry's occurrences are projected, read in one statement",
	{"forecast", "account_category"}:       "recurring expenses, one-time budgets and budget pace fold sub-categories into their parents in the same statement",
	{"forecast", "account_entry"}:          "pending entries are projected on their dates; one-time budgets and budget pace sum confirmed expenses in one statement",
	{"forecast", "budget_onetime"}:         "one-time budgets are spread over their remaining days",
	{"forecast", "budget_income"}:          "expected monthly income is projected on the member's month start day",
	{"forecast", "budget"}:                 "budget pace reads the month's budgets with their daily spending in one statement",

	// The cards' checkpoints (issue 45's speed).
	{"card_statement", "ledger_change_epoch"}:   "a checkpoint holds in the feed's epoch it was computed in (a restore starts a new one), read with the cards",
	{"card_statement", "ledger_change_pending"}: "the entry notes not folded into the feed yet are changes after every checkpoint's position, read with the cards",
	{"ledger_change", "member"}:                 "the fold job drops the feed notes of members that no longer exist",
}

// crossWrites are writes of another area's table a query may make, each
// with its reason.
var crossWrites = map[[2]string]string{
	{"point_award", "member"}: "a member's balance is member.points, which only the points area writes",
	{"entry", "transfer"}:     "an edit of a fee entry's amount raises its transfer's version (the transfer answers its fee), touching no column",
}

// testHelpers may call any query: they set up and inspect test databases.
var testHelpers = []string{"apitest", "dbtest", "loadtest"}

var (
	queryName = regexp.MustCompile(`(?m)^--\s*name:\s*(\w+)`)
	tableUse  = regexp.MustCompile(`(?i)\b(INSERT\s+INTO|UPDATE|DELETE\s+FROM|FROM|JOIN)\s+(\w+)`)
)

func TestEveryTableHasOneOwner(t *testing.T) {
	for _, v := range ownershipViolations(t, filepath.Join("..", "..")) {
		t.Error(v)
	}
}

// The rule catches what it is there for: a package calling another area's
// query, and a query writing or reading another area's table.
func TestOwnershipRuleFailsOnACrossAreaCall(t *testing.T) {
	root := t.TempDir()
	write := func(path, text string) {
		t.Helper()
		path = filepath.Join(root, path)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("queries/wallet.sql", "-- name: GetWallet :one\nSELECT * FROM wallet WHERE id = @id;\n")
	write("queries/budget.sql", "-- name: SneakyWrite :exec\nUPDATE account_entry SET amount = 0;\n\n"+
		"-- name: SneakyRead :one\nSELECT count(*) FROM stock;\n")
	write("internal/ledger/ok.go", "package ledger\nfunc f() { q.GetWallet(ctx, 1) }\n")
	write("internal/budget/bad.go", "package budget\nfunc f() { q.GetWallet(ctx, 1); db.New(pool).GetWallet(ctx, 2) }\n")
	got := ownershipViolations(t, root)
	want := []string{
		"queries/budget.sql SneakyWrite writes account_entry",
		"queries/budget.sql SneakyRead reads stock",
		"bad.go:2:12: budget calls GetWallet",
		"bad.go:2:33: budget calls GetWallet",
	}
	if len(got) != len(want) {
		t.Fatalf("violations:\n%s", strings.Join(got, "\n"))
	}
	for _, w := range want {
		if !slices.ContainsFunc(got, func(v string) bool { return strings.Contains(v, w) }) {
			t.Errorf("no violation %q among:\n%s", w, strings.Join(got, "\n"))
		}
	}
}

// ownershipViolations checks the query files under root/queries and the Go
// packages under root/internal.
func ownershipViolations(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	files, err := filepath.Glob(filepath.Join(root, "queries", "*.sql"))
	if err != nil || len(files) == 0 {
		t.Fatalf("query files: %v %v", files, err)
	}
	queryArea := map[string]string{} // query name → area
	queryFile := map[string]string{}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".sql")
		area, ok := queryFileArea[name]
		if !ok {
			out = append(out, fmt.Sprintf("queries/%s.sql has no area: name it after the table family it serves and add it to queryFileArea", name))
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		blocks := queryName.FindAllSubmatchIndex(src, -1)
		for i, b := range blocks {
			q := string(src[b[2]:b[3]])
			end := len(src)
			if i+1 < len(blocks) {
				end = blocks[i+1][0]
			}
			queryArea[q], queryFile[q] = area, name
			out = append(out, tableViolations(name, area, q, string(src[b[1]:end]))...)
		}
	}

	fset := token.NewFileSet()
	internal := filepath.Join(root, "internal")
	err = filepath.WalkDir(internal, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		rel, _ := filepath.Rel(internal, filepath.Dir(path))
		area := strings.Split(filepath.ToSlash(rel), "/")[0]
		if slices.Contains(testHelpers, area) {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || !callsQueries(sel.X) {
				return true
			}
			q := sel.Sel.Name
			if owner, known := queryArea[q]; known && owner != area {
				out = append(out, fmt.Sprintf("%s: %s calls %s of queries/%s.sql, which belongs to %s: call %s's exported function instead",
					fset.Position(call.Pos()), area, q, queryFile[q], owner, owner))
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// callsQueries says whether x is a *db.Queries as the code writes one: a
// variable named q or queries, or db.New(…).
func callsQueries(x ast.Expr) bool {
	switch x := x.(type) {
	case *ast.Ident:
		return x.Name == "q" || x.Name == "queries" || x.Name == "qtx"
	case *ast.CallExpr:
		sel, ok := x.Fun.(*ast.SelectorExpr)
		if !ok {
			return false
		}
		pkg, ok := sel.X.(*ast.Ident)
		return ok && pkg.Name == "db" && sel.Sel.Name == "New"
	case *ast.SelectorExpr:
		return x.Sel.Name == "q" || x.Sel.Name == "queries"
	}
	return false
}

// tableViolations are the writes of another area's table a query makes,
// and its reads of one without a crossReads entry.
func tableViolations(file, area, query, sql string) []string {
	var out []string
	for _, m := range tableUse.FindAllStringSubmatch(stripComments(sql), -1) {
		verb, table := strings.ToUpper(strings.Fields(m[1])[0]), strings.ToLower(m[2])
		owner, ok := tableArea[table]
		if !ok || owner == area {
			continue // a CTE, a function or an alias, or the area's own table
		}
		where := fmt.Sprintf("queries/%s.sql %s", file, query)
		switch verb {
		case "INSERT", "UPDATE", "DELETE":
			if _, ok := crossWrites[[2]string{file, table}]; !ok {
				out = append(out, fmt.Sprintf("%s writes %s, a table of %s: only %s writes it", where, table, owner, owner))
			}
		default:
			if _, ok := crossReads[[2]string{file, table}]; !ok {
				out = append(out, fmt.Sprintf("%s reads %s, a table of %s, without a crossReads entry saying why", where, table, owner))
			}
		}
	}
	return out
}

func stripComments(sql string) string {
	var b strings.Builder
	for line := range strings.Lines(sql) {
		if i := strings.Index(line, "--"); i >= 0 {
			line = line[:i] + "\n"
		}
		b.WriteString(line)
	}
	return b.String()
}
