package invest_test

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/invest"
)

// TestNetWorthBalancesReadTheRollupByIndex: for a member with five years of
// entries, the balances' one query reads wallet_net by its primary key (the
// periods from the first point on) and the entries only by date after the
// days that do not end their period (today), never a wallet's whole history:
// in the custom plan and in the generic plan PostgreSQL switches a prepared
// statement to (the entries' index scan is bounded by the dates in both; a
// join of the unnest with the entries once read all of a 5-year member's
// entries in the generic plan).
// entriesByDate matches an index scan of the entries bounded by the member
// and a date.
var entriesByDate = regexp.MustCompile(`account_entry_member_date_idx on account_entry e[^\n]*\n\s*Index Cond: \(\(member_id = [^)]*\) AND \(entry_date > `)

func TestNetWorthBalancesReadTheRollupByIndex(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	seedHistory(env, m.ID, 5)
	env.Exec(`ANALYZE account_entry`)
	env.Exec(`ANALYZE wallet_net`)
	ctx := context.Background()
	conn, err := env.Pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	for _, unit := range []string{"MONTH", "WEEK"} {
		days := invest.PointDays(env.Clock.Now(), apitest.Start.Location(), unit, 13)
		x := &apitest.ExplainingDB{DBTX: conn}
		_, err := invest.WalletNetsOn(ctx, db.New(x), m.ID, days)
		custom, generic, ok := strings.Cut(x.Plan, "generic plan:")
		if !ok {
			t.Fatalf("no generic plan (%v):\n%s", err, x.Plan)
		}
		for name, plan := range map[string]string{"custom": custom, "generic": generic} {
			if strings.Contains(plan, "Seq Scan") || strings.Contains(plan, "account_entry_wallet_idx") || strings.Contains(plan, "account_entry_wallet_date_idx") ||
				strings.Contains(plan, "account_entry_category_idx") ||
				!strings.Contains(plan, "wallet_net_pkey") || !entriesByDate.MatchString(plan) {
				t.Fatalf("%s balances, %s plan: do not read by the rollup's key and the entries' dates:\n%s", unit, name, x.Plan)
			}
		}
		t.Logf("%s plan:\n%s", unit, x.Plan)
	}
}
