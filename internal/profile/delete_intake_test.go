package profile_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
)

func init() {
	memberFillers = append(memberFillers, memberFiller{order: 70, area: "intake", fill: func(t *testing.T, env *apitest.Env, m *apitest.Member) {
		// notification_key: a card payment's notification, then its
		// cancellation, whose key is remembered. Notifications are PREMIUM.
		env.Exec(`UPDATE member SET plan = 'PREMIUM' WHERE id = $1`, m.ID)
		posted := time.Date(2026, 11, 16, 12, 40, 0, 0, time.UTC)
		for _, text := range []string{
			"[Web발신]\n신한카드(1234)승인 홍*동 12,500원(일시불)11/16 12:34 스타벅스",
			"[Web발신]\n신한카드(1234)승인취소 홍*동 12,500원(일시불)11/16 12:34 스타벅스",
		} {
			m.Do(http.MethodPost, "/api/account/entries/notification", api.NotificationRequest{Text: text, PostedAt: &posted}).
				Want(http.StatusOK)
		}
	}})
}
