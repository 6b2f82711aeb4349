package backup_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	lt "github.com/nestegg/nestegg/internal/apitest/ledgertest"
	"github.com/nestegg/nestegg/internal/problem"
)

// maxRestoreBody is restoreBackup's x-max-body-bytes.
const maxRestoreBody = 64 << 20

// bigBackup is a valid document of entries (each with a 60-character memo
// and a tag) whose JSON is as close to size bytes as whole entries get, and
// at most the contract's 200,000 entries.
func bigBackup(size int) api.Backup {
	doc := api.Backup{
		Version: 1, Wallets: []api.BackupWallet{{Name: "카드", Type: "CARD"}}, Tags: []string{"t"},
		Categories: []api.BackupCategory{{Name: "식비", Type: api.BackupEntryType("expense")}},
		Recurring:  []api.BackupRecurring{}, QuickEntries: []api.BackupQuickEntry{},
		Budgets: []api.BackupBudget{}, Transfers: []api.BackupTransfer{},
	}
	entry := func(i int) api.BackupEntry {
		day := time.Date(2016, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, i/40)
		return api.BackupEntry{
			Date: lt.Date(day.Year(), day.Month(), day.Day()), Type: api.BackupEntryType("expense"), Amount: int64(1000 + i),
			Wallet: lt.Ptr("카드"), Category: lt.Ptr("식비"), Memo: fmt.Sprintf("%s %07d", strings.Repeat("가", 51), i), Tags: []string{"t"},
		}
	}
	empty, _ := json.Marshal(doc)
	one, _ := json.Marshal(entry(199999)) // the widest
	n := min((size-len(empty))/(len(one)+1), 200000)
	doc.Entries = make([]api.BackupEntry, n)
	for i := range doc.Entries {
		doc.Entries[i] = entry(i)
	}
	return doc
}

// dropKeys removes the first n occurrences of key, counted from the end of
// body: the last records of the document lose a key they must have.
func dropKeys(body []byte, key string, n int) []byte {
	end := len(body)
	for range n {
		i := bytes.LastIndex(body[:end], []byte(key))
		body = append(body[:i], body[i+len(key):]...)
		end = i
	}
	return body
}

// A restore of many bad entries names the first 20 and says there are more.
func TestRestoreOfManyBadEntriesNamesTwenty(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	doc := bigBackup(100 << 10)
	for i := range doc.Entries {
		doc.Entries[i].Amount = -1
	}
	body, _ := json.Marshal(doc)
	res := m.Raw().Send(http.MethodPost, "/api/account/restore", "application/json", body)
	p := wantBoundedProblem(t, res)
	if len(*p.Errors) != problem.MaxFieldErrors || p.ErrorsTruncated == nil || !*p.ErrorsTruncated {
		t.Fatalf("%d errors, errorsTruncated %v; want %d, true", len(*p.Errors), p.ErrorsTruncated, problem.MaxFieldErrors)
	}
	for i, e := range *p.Errors {
		if want := fmt.Sprintf("/entries/%d/amount", i); apitest.FieldName(e) != want {
			t.Fatalf("error %d names %s, want %s", i, apitest.FieldName(e), want)
		}
	}
	// Nothing was restored: the ledger is as before (empty).
	if back := backupOf(t, m); len(back.Entries) != 0 {
		t.Fatalf("%d entries after a refused restore", len(back.Entries))
	}
}

func wantBoundedProblem(t *testing.T, res *apitest.Response) api.Problem {
	t.Helper()
	res.WantProblem(http.StatusBadRequest, problem.CodeValidationFailed)
	if len(res.Body) > problem.MaxBytes {
		t.Fatalf("the problem is %d bytes, over %d", len(res.Body), problem.MaxBytes)
	}
	var p api.Problem
	if err := json.Unmarshal(res.Body, &p); err != nil {
		t.Fatal(err)
	}
	if p.Errors == nil {
		t.Fatalf("no errors named: %s", res.Body)
	}
	return p
}
