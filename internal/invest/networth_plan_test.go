package invest_test

import (
	"context"
	"strings"
	"testing"

	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/invest"
)

// TestNetWorthBalancesReadTheRollupByIndex: for a member with five years of
// entries, the balances' one query reads wallet_net by its primary key (the
// periods from the first point on) and the entries only by date after the
// days that do not end their period (today), never a wallet's whole history.
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
		_, _ = invest.WalletNetsOn(ctx, db.New(x), m.ID, days)
		if strings.Contains(x.Plan, "Seq Scan") || strings.Contains(x.Plan, "account_entry_wallet_idx") ||
			!strings.Contains(x.Plan, "wallet_net_pkey") || !strings.Contains(x.Plan, "account_entry_member_date_idx") {
			t.Fatalf("%s balances do not read by the rollup's and the entries' date index:\n%s", unit, x.Plan)
		}
		t.Logf("%s plan:\n%s", unit, x.Plan)
	}
}
