package ledger

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/oapi-codegen/runtime/types"

	"github.com/nestegg/nestegg/generated/api"
)

// The hand-written answer of the entry list is exactly what encoding/json
// writes for the generated api.EntryPage, over random pages with hostile
// strings. encoding/json writes every field of the generated types (none
// is omitempty), so a field the contract adds to Entry makes this fail
// until appendEntry writes it too.
func TestEntryPageJSONIsEncodingJSONs(t *testing.T) {
	t.Parallel()
	strs := []string{
		"", "Coffee", "점심 회식", `quote " and \ backslash`, "<script>&amp;</script>", "line\nbreak\ttab\r",
		"\x00\x01\x1f\x7f", "bad \xff utf-8 \xc3", "sep \u2028 \u2029", "emoji 🥚", "\u202eevil",
	}
	rng := rand.New(rand.NewPCG(1, 2))
	pick := func() string { return strs[rng.IntN(len(strs))] + strs[rng.IntN(len(strs))] }
	maybeInt := func() *int64 {
		if rng.IntN(2) == 0 {
			return nil
		}
		v := rng.Int64N(1<<53) - 1<<52
		return &v
	}
	maybeStr := func() *string {
		if rng.IntN(2) == 0 {
			return nil
		}
		s := pick()
		return &s
	}
	for round := range 300 {
		p := api.EntryPage{
			Page: rng.Int32(), Size: rng.Int32N(101), Total: rng.Int64(),
			Summary: api.EntrySummary{Income: rng.Int64(), Expense: -rng.Int64()},
		}
		if round%50 != 0 {
			p.Items = []api.Entry{}
		}
		// A summary beyond int64 names its totals (issue 42).
		switch round % 4 {
		case 1:
			p.Summary.OutOfRange = &[]api.EntrySummaryTotalValue{api.EntrySummaryTotalValueIncome}
		case 2:
			p.Summary.OutOfRange = &[]api.EntrySummaryTotalValue{api.EntrySummaryTotalValueIncome, api.EntrySummaryTotalValueExpense}
		}
		for range rng.IntN(5) {
			e := api.Entry{
				ID: rng.Int64(), Amount: rng.Int64N(1e15), Memo: pick(), Type: api.EntryTypeValue(pick()),
				Date:       types.Date{Time: time.Date(1900+rng.IntN(8000), time.Month(1+rng.IntN(12)), 1+rng.IntN(28), 0, 0, 0, 0, time.UTC)},
				CreatedAt:  time.Unix(rng.Int64N(1e10), rng.Int64N(1e9)).In(time.FixedZone("", 3600*(rng.IntN(27)-12))),
				CategoryID: maybeInt(), WalletID: maybeInt(), TransferID: maybeInt(),
				Currency: maybeStr(), OriginalAmount: maybeStr(), ExchangeRate: maybeStr(), Pending: rng.IntN(2) == 0,
			}
			if rng.IntN(3) > 0 {
				m := rng.Int32()
				e.InstallmentMonths = &m
			}
			if rng.IntN(4) > 0 {
				e.Tags = []string{}
				for range rng.IntN(3) {
					e.Tags = append(e.Tags, pick())
				}
			}
			p.Items = append(p.Items, e)
		}
		var want bytes.Buffer
		if err := json.NewEncoder(&want).Encode(p); err != nil {
			t.Fatal(err)
		}
		if got := appendEntryPage(nil, p); !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("round %d:\nencoding/json %s\nhand-written  %s", round, want.Bytes(), got)
		}
	}

	rec := httptest.NewRecorder()
	if err := (entryPageAnswer{Items: []api.Entry{}}).VisitListEntriesResponse(rec); err != nil {
		t.Fatal(err)
	}
	if rec.Code != 200 || rec.Header().Get("Content-Type") != "application/json" {
		t.Fatalf("answer %d %q", rec.Code, rec.Header().Get("Content-Type"))
	}
}
