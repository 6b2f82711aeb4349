package profile_test

import (
	"testing"

	"github.com/nestegg/nestegg/internal/apitest"
)

func init() {
	memberFillers = append(memberFillers, memberFiller{order: 80, area: "quota", fill: func(t *testing.T, env *apitest.Env, m *apitest.Member) {
		// outside_call_count: the member's metered outside calls of a day.
		env.Exec(`INSERT INTO outside_call_count (member_id, kind, day, calls) VALUES ($1, 'AI', '2026-11-16', 2)`, m.ID)
	}})
}
