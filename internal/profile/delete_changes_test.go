package profile_test

import (
	"testing"

	"github.com/nestegg/nestegg/internal/apitest"
)

func init() {
	memberFillers = append(memberFillers, memberFiller{order: 90, area: "changes", fill: func(t *testing.T, env *apitest.Env, m *apitest.Member) {
		// ledger_change: the triggers wrote the earlier fillers' changes.
		// ledger_change_epoch: a restore or the prune job writes it; a
		// restore here would replace what the other fillers wrote.
		env.Exec(`INSERT INTO ledger_change_epoch (member_id, epoch, pruned_seq) VALUES ($1, 2, 0)`, m.ID)
	}})
}
