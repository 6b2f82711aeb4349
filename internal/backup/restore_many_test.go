// The race detector slows the request path several times over; the
// deadline this test checks is the one of a normal build.
//go:build !race

package backup_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	lt "github.com/nestegg/nestegg/internal/apitest/ledgertest"
)

// Many entries restore well within the request deadline: they go in with
// COPY. A decade at 10 a day (36,500 entries, 9 MiB) took 2 s on an idle
// machine; this test keeps two years so that a loaded CI machine passes it.
func TestRestoreOfManyEntries(t *testing.T) {
	if testing.Short() {
		t.Skip("many entries")
	}
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	doc := api.Backup{
		Version: 1, Wallets: []api.BackupWallet{{Name: "카드", Type: "CARD"}, {Name: "통장", Type: "BANK"}}, Tags: []string{"t"},
		Categories: []api.BackupCategory{{Name: "식비", Type: api.BackupEntryType("expense")}},
		Recurring:  []api.BackupRecurring{}, QuickEntries: []api.BackupQuickEntry{},
		Budgets: []api.BackupBudget{}, Transfers: []api.BackupTransfer{},
	}
	day := time.Date(2016, 11, 1, 0, 0, 0, 0, time.UTC)
	for i := range 2 * 365 * 10 {
		doc.Entries = append(doc.Entries, api.BackupEntry{
			Date: lt.Date(day.Year(), day.Month(), day.Day()), Type: api.BackupEntryType("expense"), Amount: int64(1000 + i),
			Wallet: lt.Ptr("카드"), Category: lt.Ptr("식비"), Memo: fmt.Sprintf("가게 %d", i%500), Tags: []string{"t"},
		})
		if i%10 == 9 {
			day = day.AddDate(0, 0, 1)
		}
		if day.Day() == 25 && i%10 == 0 { // the card bill, with its fee
			doc.Transfers = append(doc.Transfers, api.BackupTransfer{
				Date: lt.Date(day.Year(), day.Month(), day.Day()), Amount: 300000, From: "통장", To: "카드",
				FeeEntry: lt.Ptr(int32(len(doc.Entries) - 1)),
			})
		}
	}
	body, _ := json.Marshal(doc)
	start := time.Now()
	got := restore(t, m, doc)
	if got.Entries != int32(len(doc.Entries)) || got.Transfers != 24 {
		t.Fatalf("restored %+v", got)
	}
	t.Logf("%d entries (%d KiB) restored in %s", len(doc.Entries), len(body)/1024, time.Since(start))
	if back := backupOf(t, m); len(back.Entries) != len(doc.Entries) || !strings.HasPrefix(back.Entries[0].Memo, "가게") ||
		len(back.Transfers) != len(doc.Transfers) || *back.Transfers[23].FeeEntry != *doc.Transfers[23].FeeEntry {
		t.Fatalf("backup after restore: %d entries", len(back.Entries))
	}
}
