package profile_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"testing"

	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/billing"
)

func init() {
	memberFillers = append(memberFillers, memberFiller{order: 60, area: "billing", fill: func(t *testing.T, env *apitest.Env, m *apitest.Member) {
		// iap_purchase: the deletion test's service has no store, so the
		// purchase goes through billing's own verification in test mode.
		cfg := env.Config
		cfg.StoreTestMode = true
		h := billing.NewHandler(billing.Deps{Pool: env.Pool, Clock: env.Clock, Config: cfg,
			Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		for _, product := range []string{cfg.MonthlyProduct.ID, cfg.YearlyProduct.ID} {
			if _, err := h.Verify(context.Background(), m.ID, product, fmt.Sprintf("test-delete-%d-%s", m.ID, product)); err != nil {
				t.Fatalf("billing filler: %v", err)
			}
		}
	}})
}
