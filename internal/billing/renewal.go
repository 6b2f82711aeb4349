package billing

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/internal/external/store"
	"github.com/nestegg/nestegg/internal/jobs"
	"github.com/nestegg/nestegg/internal/member"
)

// RenewalJobName is the hourly store check of lapsed auto-renew plans.
const RenewalJobName = "plan-renewal"

// renewalBatch bounds the plans one run asks the store about; the rest wait
// for the next run, oldest expiry first.
const renewalBatch = 500

// RenewalJob asks the store, hourly, about every PREMIUM plan whose expiry
// has passed with auto-renew on. The expiry job leaves those plans alone
// (the store renews them), and store notifications are only logged, so
// without this job a subscription that the store ended would stay PREMIUM
// forever.
func (h *BillingHandler) RenewalJob() jobs.Job {
	return jobs.Job{
		Name:  RenewalJobName,
		Every: time.Hour,
		Run: func(ctx context.Context, now time.Time) error {
			_, err := h.SettleLapsed(ctx, now)
			return err
		},
	}
}

// Settled counts what one run of the renewal job did.
type Settled struct {
	Renewed, Ended, Unreachable int
}

// SettleLapsed asks the store about each plan that lapsed at or before now
// with auto-renew on, by the purchase token that paid for its expiry:
//   - active or in its grace period with a later expiry: renewed, the plan
//     runs to the store's expiry;
//   - cancelled with time left: runs to that expiry with auto-renew off,
//     where the expiry job ends it;
//   - expired, cancelled, revoked (the store no longer knows the token), on
//     hold or paused: FREE, subscription fields cleared;
//   - no answer: left as it is for the next run.
//
// A test-mode purchase was never the store's: it ends at its expiry.
// Each store call runs outside any transaction, with the store client's
// deadline; each plan is then changed in a short statement of its own that
// applies only if the plan is still the lapsed one read (a purchase or an
// administrator may have changed it meanwhile).
func (h *BillingHandler) SettleLapsed(ctx context.Context, now time.Time) (Settled, error) {
	var s Settled
	lapsed, err := member.LapsedAutoRenew(ctx, db.New(h.pool), now, renewalBatch)
	if err != nil {
		return s, err
	}
	var firstOutage error
	for _, l := range lapsed {
		if err := ctx.Err(); err != nil {
			return s, err
		}
		renew, expires, autoRenew, err := h.askAboutLapsed(ctx, l, now)
		if err != nil {
			s.Unreachable++
			if firstOutage == nil {
				firstOutage = err
			}
			continue
		}
		var ok bool
		if renew {
			ok, err = h.renewLapsed(ctx, l, expires, autoRenew)
		} else {
			ok, err = member.EndLapsed(ctx, db.New(h.pool), l)
		}
		switch {
		case err != nil:
			return s, err
		case ok && renew:
			s.Renewed++
		case ok:
			s.Ended++
		}
	}
	if s.Renewed+s.Ended > 0 {
		slog.InfoContext(ctx, "lapsed auto-renew plans settled with the store", "renewed", s.Renewed, "ended", s.Ended)
	}
	if s.Unreachable > 0 {
		// One line a run, not one per member: an outage would otherwise
		// write a line for every lapsed plan every hour.
		slog.WarnContext(ctx, "the store could not be asked about lapsed plans; they stay as they are until the next run",
			"plans", s.Unreachable, "error", firstOutage)
	}
	return s, nil
}

// askAboutLapsed says whether l's subscription goes on (renew, with its new
// expiry and auto-renew) or is over; an error means the store could not tell.
func (h *BillingHandler) askAboutLapsed(ctx context.Context, l member.Lapsed, now time.Time) (renew bool, expires time.Time, autoRenew bool, err error) {
	if l.TestMode {
		return false, time.Time{}, false, nil
	}
	p, err := h.store.Subscription(ctx, l.Token)
	switch {
	case errors.Is(err, store.ErrNotFound):
		// A token the store no longer knows is a revoked or long-expired
		// purchase.
		return false, time.Time{}, false, nil
	case err != nil:
		return false, time.Time{}, false, fmt.Errorf("ask the store about member %d's plan: %w", l.MemberID, err)
	}
	item, ok := p.Item(l.ProductID)
	if !ok || !item.ExpiryTime.After(now) {
		return false, time.Time{}, false, nil
	}
	switch p.State {
	case store.StateActive, store.StateInGracePeriod:
		return true, item.ExpiryTime, item.AutoRenew, nil
	case store.StateCanceled:
		// Cancelled, paid up to a later expiry: it runs to it, then the
		// expiry job ends it.
		return true, item.ExpiryTime, false, nil
	default:
		// Expired, on hold (payment failed), paused or pending: no access.
		return false, time.Time{}, false, nil
	}
}

// renewLapsed extends the plan and records the new expiry on its purchase,
// so a restore on another device grants up to it.
func (h *BillingHandler) renewLapsed(ctx context.Context, l member.Lapsed, expires time.Time, autoRenew bool) (bool, error) {
	return database.InTxV(ctx, h.pool, func(q *db.Queries) (bool, error) {
		ok, err := member.RenewLapsed(ctx, q, l, expires, autoRenew)
		if err != nil || !ok {
			return false, err
		}
		err = q.SetIAPPurchaseRenewed(ctx, db.SetIAPPurchaseRenewedParams{PurchaseToken: l.Token, ExpiresAt: expires, AutoRenew: autoRenew})
		if err != nil {
			return false, fmt.Errorf("record renewal of member %d's purchase: %w", l.MemberID, err)
		}
		return true, nil
	})
}
