package backup_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	lt "github.com/nestegg/nestegg/internal/apitest/ledgertest"
)

// seedEntries writes n entries of m with SQL (a tag on every seventh, memos
// a browser would take for HTML), dated from 2020 on: before every entry
// richLedger writes, so that its transfer's fee comes pages later.
func seedEntries(t testing.TB, env *apitest.Env, m *apitest.Member, n int) {
	t.Helper()
	w := lt.Wallet(m.Client, "시드카드", api.WalletTypeCard, 0)
	c := lt.Category(m.Client, "시드", api.EntryTypeExpense, nil)
	env.Exec(`INSERT INTO account_entry (member_id, wallet_id, category_id, type, amount, entry_date, memo)
		SELECT $1, $2, $3, 'expense', 1000 + i, DATE '2020-01-01' + (i % 2000), '<b>가맹점</b> & ' || i
		FROM generate_series(1, $4::int) AS i`, m.ID, w.ID, c.ID, n)
	env.Exec(`INSERT INTO account_tag (member_id, name, sort_order) VALUES ($1, 'seed', 99)`, m.ID)
	env.Exec(`INSERT INTO account_entry_tag (entry_id, tag_id)
		SELECT e.id, t.id FROM account_entry e, account_tag t
		WHERE e.member_id = $1 AND t.member_id = $1 AND t.name = 'seed' AND e.id % 7 = 0`, m.ID)
}

// The streamed document is, byte for byte, what the generated response
// (encoding/json's Encoder over api.Backup, as backup answered before it
// streamed) writes for the document it holds: members in the same order,
// HTML characters escaped, the final newline. The ledger holds every record
// kind and entries over several pages, with a transfer fee pages in.
func TestBackupStreamIsTheEncodedDocument(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	richLedger(t, m)
	seedEntries(t, env, m, 2500)
	res := m.Do(http.MethodGet, "/api/account/backup", nil).Want(http.StatusOK)
	var doc api.Backup
	if err := json.Unmarshal(res.Body, &doc); err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	if err := api.GetBackup200JSONResponse(doc).VisitGetBackupResponse(rec); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(res.Body, rec.Body.Bytes()) {
		i := 0
		for i < min(len(res.Body), rec.Body.Len()) && res.Body[i] == rec.Body.Bytes()[i] {
			i++
		}
		t.Fatalf("the stream (%d bytes) and the encoder (%d) part at byte %d:\n%.200s\n%.200s",
			len(res.Body), rec.Body.Len(), i, res.Body[i:], rec.Body.Bytes()[i:])
	}
	if got, want := res.Header.Get("Content-Type"), rec.Header().Get("Content-Type"); got != want {
		t.Fatalf("Content-Type %q, the generated response's %q", got, want)
	}
	// Every member of the schema's type is written (a member added to
	// Backup and not to the stream would be lost silently).
	var members map[string]json.RawMessage
	_ = json.Unmarshal(res.Body, &members)
	var want []string
	for f := range reflect.TypeFor[api.Backup]().Fields() {
		want = append(want, strings.Split(f.Tag.Get("json"), ",")[0])
	}
	for _, name := range want {
		if _, ok := members[name]; !ok {
			t.Errorf("the document lacks %q", name)
		}
	}
	if len(members) != len(want) {
		t.Errorf("the document has %d members, Backup %d", len(members), len(want))
	}

	tagged := 0
	for _, e := range doc.Entries {
		if slices.Equal(e.Tags, []string{"seed"}) {
			tagged++
		}
	}
	if len(doc.Entries) != 2500+8 || !strings.HasPrefix(doc.Entries[0].Memo, "<b>가맹점</b> & ") || tagged < 300 {
		t.Fatalf("%d entries (%d tagged), the first %+v", len(doc.Entries), tagged, doc.Entries[0])
	}
	bill := doc.Transfers[1]
	if bill.FeeEntry == nil || *bill.FeeEntry < 2000 || doc.Entries[*bill.FeeEntry].Memo != "이체 수수료" {
		t.Fatalf("the fee of %+v is not its entry", bill)
	}
}

// Once the 200 and part of the document are out, a failure (here the
// backup's database connection killed between two pages of entries) cuts
// the connection: the client gets an error, never a document that parses.
func TestBackupFailingMidStreamCutsTheConnection(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	// Far more than the sockets between server and client buffer, so that
	// the server waits for the client in the middle of the entries.
	seedEntries(t, env, m, 100_000)
	req, _ := http.NewRequest(http.MethodGet, env.Server.URL+"/api/account/backup", nil)
	req.Header.Set("Authorization", "Bearer "+m.Token)
	res, err := env.Server.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("status %d", res.StatusCode)
	}
	head := make([]byte, 64<<10)
	if _, err := io.ReadFull(res.Body, head); err != nil {
		t.Fatal(err)
	}
	// The backup's transaction is idle between its pages of entries.
	ctx := context.Background()
	var killed bool
	for deadline := time.Now().Add(10 * time.Second); !killed && time.Now().Before(deadline); {
		err := env.Pool.QueryRow(ctx, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
			WHERE datname = current_database() AND pid <> pg_backend_pid() AND query LIKE '%name: ListBackupEntries%'`).Scan(&killed)
		if err != nil && !strings.Contains(err.Error(), "no rows") {
			t.Fatal(err)
		}
	}
	if !killed {
		t.Fatal("found no backup connection to kill")
	}
	rest, err := io.ReadAll(res.Body)
	if err == nil {
		t.Fatalf("the cut backup ended as a whole one (%d bytes more)", len(rest))
	}
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Logf("read error: %v", err)
	}
	var doc api.Backup
	if json.Unmarshal(append(head, rest...), &doc) == nil {
		t.Fatal("the cut document parses")
	}
}
