package ledger

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/calendar"
	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/internal/jobs"
)

// RecurringPostJobName is the recurring entries' posting job in the runner.
const RecurringPostJobName = "recurring-post"

const (
	// CatchUpMonths bounds the catch-up after an outage: the job posts the
	// missed occurrences of the current month and the CatchUpMonths-1
	// months before it (APP_TIMEZONE); older ones are passed over.
	CatchUpMonths = 3
	// recurringBatch is how many due recurring entries one query reads.
	recurringBatch = 200
	// postBudget bounds one run: what is still due after it waits for the
	// next tick (the run reports it unfinished, so it is not recorded and
	// the runner's next tick, at most 5 minutes on, goes on).
	postBudget = 2 * time.Minute
)

// errUnfinished says a run stopped at its budget with recurring entries
// still due.
var errUnfinished = errors.New("recurring entries still due at the end of the run's budget; the next tick goes on")

// RecurringPostJob is the hourly job that posts recurring entries: each
// occurrence whose day (APP_TIMEZONE, loc) has come becomes a pending entry
// the member confirms. The runner holds the job's advisory lock, so one
// replica runs it; recurring_post's key makes each month post once even
// without it.
func RecurringPostJob(pool *pgxpool.Pool, loc *time.Location) jobs.Job {
	return jobs.Job{
		Name:  RecurringPostJobName,
		Every: time.Hour,
		Run: func(ctx context.Context, now time.Time) error {
			ctx, cancel := context.WithTimeout(ctx, postBudget)
			defer cancel()
			res, err := PostRecurrings(ctx, pool, now, loc)
			if res.Entries > 0 || res.Failed > 0 {
				slog.InfoContext(ctx, "recurring entries posted", "entries", res.Entries, "failed", res.Failed)
			}
			if err == nil && res.Unfinished {
				err = errUnfinished
			}
			return err
		},
	}
}

// PostResult is what one posting run did.
type PostResult struct {
	// Entries is how many pending entries it created.
	Entries int
	// Unfinished says ctx ended with recurring entries still due.
	Unfinished bool
	// Failed is how many recurring entries failed to post (each logged);
	// they stay due for the next run.
	Failed int
}

// PostRecurrings posts every occurrence due at now (its day in loc has
// come) of every recurring entry with auto-posting on, in batches, each
// recurring entry in a transaction of its own. It stops when ctx ends
// (Unfinished). A recurring entry that fails (its wallet deleted under it,
// say) is logged, counted (Failed) and skipped, and stays due for the next
// hourly run: one bad entry neither fails the run (which the runner would
// retry every tick) nor collects errors without bound. The error is the
// due list's.
func PostRecurrings(ctx context.Context, pool *pgxpool.Pool, now time.Time, loc *time.Location) (PostResult, error) {
	today := calendar.Day(now, loc)
	thisMonth := monthOf(today)
	monthDays := thisMonth.AddDate(0, 1, -1).Day()
	var res PostResult
	var after int64
	for {
		if ctx.Err() != nil {
			res.Unfinished = true
			break
		}
		ids, err := db.New(pool).ListDueRecurrings(ctx, db.ListDueRecurringsParams{
			After: after, ThisMonth: thisMonth, MonthDays: int32(monthDays), TodayDay: int32(today.Day()), Lim: recurringBatch,
		})
		if err != nil {
			if ctx.Err() != nil {
				res.Unfinished = true
				break
			}
			return res, fmt.Errorf("due recurring entries: %w", err)
		}
		for _, id := range ids {
			if ctx.Err() != nil {
				res.Unfinished = true
				break
			}
			n, err := database.InTxV(ctx, pool, func(q *db.Queries) (int, error) {
				return postRecurringTx(ctx, q, id, today)
			})
			switch {
			case errors.Is(err, errRecurringGone):
			case err != nil && ctx.Err() != nil:
				res.Unfinished = true
			case err != nil:
				res.Failed++
				slog.WarnContext(ctx, "recurring entry not posted", "recurring_id", id, "error", err)
			default:
				res.Entries += n
			}
		}
		if res.Unfinished || len(ids) < recurringBatch {
			break
		}
		after = ids[len(ids)-1]
	}
	return res, nil
}

// errRecurringGone: the recurring entry was deleted while it was posted.
var errRecurringGone = errors.New("recurring entry deleted")

// postRecurringTx posts recurring entry id's occurrences due by today: one
// per calendar month from its next_month (no earlier than the catch-up
// window) whose day has come, each on the month's day under the rule in
// force now (a shorter month's last day for a day past its length). Each
// month is first claimed in recurring_post, so a month another run posted
// is passed over; then the cursor moves past the months settled.
//
// Locks, in this order: the member's ledger lock, shared, as every ledger
// write takes it (a restore that went first has replaced the recurring row,
// and the claim's foreign key then finds it gone); the claim's foreign key
// takes a key-share lock on the recurring row (which conflicts only with its
// deletion), the entry's a
// key-share lock on its wallet and category, then the cursor's update the
// recurring row; a wallet or category deletion, which locks the wallet or
// category before it moves recurring entries, takes them in the same order.
func postRecurringTx(ctx context.Context, q *db.Queries, id int64, today time.Time) (int, error) {
	r, err := q.GetRecurringForPost(ctx, id)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, errRecurringGone
	}
	if err != nil {
		return 0, err
	}
	if !r.AutoPost {
		return 0, nil
	}
	if err := LockLedgerSharedTx(ctx, q, r.MemberID); err != nil {
		return 0, err
	}
	thisMonth := monthOf(today)
	month := r.NextMonth
	if oldest := thisMonth.AddDate(0, 1-CatchUpMonths, 0); month.Before(oldest) {
		month = oldest
	}
	memo := r.Memo
	if memo == "" {
		memo = r.Name
	}
	posted := 0
	var last pgtype.Date
	for ; !month.After(thisMonth); month = month.AddDate(0, 1, 0) {
		date := dayOfMonth(month.Year(), month.Month(), int(r.Day))
		if date.After(today) {
			break
		}
		n, err := q.ClaimRecurringPost(ctx, db.ClaimRecurringPostParams{RecurringID: r.ID, Month: month, OccursOn: date})
		if database.IsForeignKeyViolation(err) {
			return 0, errRecurringGone
		}
		if err != nil {
			return 0, fmt.Errorf("claim %s: %w", month.Format("2006-01"), err)
		}
		if n == 0 {
			continue
		}
		if _, err := CreateEntryTx(ctx, q, r.MemberID, EntryInput{
			Date: date, Type: r.Type, Amount: r.Amount, WalletID: r.WalletID, CategoryID: r.CategoryID,
			Memo: memo, Pending: true,
		}); err != nil {
			return 0, fmt.Errorf("entry of %s: %w", date.Format(time.DateOnly), err)
		}
		posted++
		last = pgtype.Date{Time: date, Valid: true}
	}
	if !month.After(r.NextMonth) && !last.Valid {
		return 0, nil
	}
	if err := q.AdvanceRecurring(ctx, db.AdvanceRecurringParams{ID: r.ID, NextMonth: month, PostedOn: last}); err != nil {
		return 0, fmt.Errorf("advance: %w", err)
	}
	return posted, nil
}
