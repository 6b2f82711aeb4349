package profile_test

import (
	"context"
	"testing"

	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/changes"
)

func init() {
	memberFillers = append(memberFillers, memberFiller{order: 90, area: "changes", fill: func(t *testing.T, env *apitest.Env, m *apitest.Member) {
		// ledger_change: the triggers noted the earlier fillers' changes
		// (ledger_change_pending); a feed read folds them in.
		if err := changes.Fold(context.Background(), env.Pool, m.ID); err != nil {
			t.Fatal(err)
		}
		// ledger_change_epoch: a restore or the prune job writes it; a
		// restore here would replace what the other fillers wrote.
		env.Exec(`INSERT INTO ledger_change_epoch (member_id, epoch, pruned_seq) VALUES ($1, 2, 0)`, m.ID)
	}})
}
