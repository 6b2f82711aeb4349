// Package changes serves the changes feed (issue 22): a member's ledger
// records that changed after a cursor, in commit order, for offline clients.
//
// Triggers (schema/00007_ledger_change.sql) note every write of a ledger
// record in ledger_change_pending, plain rows, so every write path and
// cascade is covered without Go code in the writers. A page first folds the
// member's notes committed so far into ledger_change (one row per (member,
// kind, record), its latest change) with fresh positions (seq), under a
// per-member lock held to the fold's commit, so one member's positions follow
// the folds' commit order and a snapshot holds a prefix of them. The page is
// then read in one REPEATABLE READ snapshot: the change rows after the
// cursor, then each kind's records through the owning area's exported
// function, from the same snapshot. A record the snapshot no longer holds is
// a tombstone.
package changes

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/internal/jobs"
	"github.com/nestegg/nestegg/internal/ledger"
	"github.com/nestegg/nestegg/internal/problem"
	"github.com/nestegg/nestegg/internal/session"
)

// Page sizes: the default and the ceiling (the contract says the same).
const (
	DefaultLimit = 100
	MaxLimit     = 500
)

// TombstoneAge is how long a deletion stays in the feed at least.
const TombstoneAge = 90 * 24 * time.Hour

// CodeResyncRequired answers a cursor whose changes can no longer be told.
const CodeResyncRequired = "RESYNC_REQUIRED"

// Kinds, as the contract's ChangeKind lists them and the triggers write them.
const (
	KindWallet        = "WALLET"
	KindCategory      = "CATEGORY"
	KindTag           = "TAG"
	KindEntry         = "ENTRY"
	KindTransfer      = "TRANSFER"
	KindRecurring     = "RECURRING"
	KindQuickEntry    = "QUICK_ENTRY"
	KindBudget        = "BUDGET"
	KindOnetimeBudget = "ONETIME_BUDGET"
	KindBudgetIncome  = "BUDGET_INCOME"
	KindStock         = "STOCK"
	KindTrade         = "TRADE"
	KindProfile       = "PROFILE"
)

// ChangesHandler serves GET /api/account/changes.
type ChangesHandler struct {
	pool   *pgxpool.Pool
	ledger *ledger.LedgerHandler
}

// NewHandler returns the feed's handler; the ledger handler renders wallets
// (it opens account numbers) and recurring entries (it knows today).
func NewHandler(pool *pgxpool.Pool, l *ledger.LedgerHandler) *ChangesHandler {
	return &ChangesHandler{pool: pool, ledger: l}
}

// cursor is a position in one member's feed: the epoch it belongs to, the
// last change served (0 is the start), and the horizon its sync began at:
// the member's pruned position when the client started from the empty
// cursor. Tombstones pruned before that were never the client's to see (a
// sync from the empty cursor holds nothing they would delete), so only a
// prune after it can hide a deletion from the client: a first sync that
// pages through a feed pruned before it began always finishes.
type cursor struct {
	member, epoch, seq, horizon int64
}

// Cursors are "c2.<member>.<epoch>.<seq>.<horizon>"; "c1." cursors, which
// carry no horizon, are read with horizon 0 (every prune after them is
// theirs to miss).
const (
	cursorPrefix   = "c2."
	cursorPrefixV1 = "c1."
)

func (c cursor) String() string {
	s := fmt.Sprintf("%s%d.%d.%d.%d", cursorPrefix, c.member, c.epoch, c.seq, c.horizon)
	return base64.RawURLEncoding.EncodeToString([]byte(s))
}

func errBadCursor() error {
	return problem.Invalid("since", "is not a cursor of this feed: pass the `next` of a page, or nothing to start over")
}

func parseCursor(s string, member int64) (cursor, error) {
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return cursor{}, errBadCursor()
	}
	var body string
	var fields int
	switch {
	case strings.HasPrefix(string(raw), cursorPrefix):
		body, fields = strings.TrimPrefix(string(raw), cursorPrefix), 4
	case strings.HasPrefix(string(raw), cursorPrefixV1):
		body, fields = strings.TrimPrefix(string(raw), cursorPrefixV1), 3
	default:
		return cursor{}, errBadCursor()
	}
	parts := strings.Split(body, ".")
	if len(parts) != fields {
		return cursor{}, errBadCursor()
	}
	var n [4]int64
	for i, p := range parts {
		if n[i], err = strconv.ParseInt(p, 10, 64); err != nil || n[i] < 0 {
			return cursor{}, errBadCursor()
		}
	}
	c := cursor{member: n[0], epoch: n[1], seq: n[2], horizon: n[3]}
	// A client that forges a later horizon only hides its own missed deletions.
	if c.member != member || c.epoch < 1 {
		return cursor{}, errBadCursor()
	}
	return c, nil
}

func errResync(detail string) error {
	return problem.New(http.StatusGone, CodeResyncRequired, detail)
}

// ListChanges answers one page of the member's feed.
func (h *ChangesHandler) ListChanges(ctx context.Context, req api.ListChangesRequestObject) (api.ListChangesResponseObject, error) {
	p := session.PrincipalFrom(ctx)
	limit := DefaultLimit
	if l := req.Params.Limit; l != nil {
		if *l < 1 || *l > MaxLimit {
			return nil, problem.Invalid("limit", fmt.Sprintf("must be 1 to %d", MaxLimit))
		}
		limit = int(*l)
	}
	var since *cursor
	if s := req.Params.Since; s != nil && *s != "" {
		c, err := parseCursor(*s, p.MemberID)
		if err != nil {
			return nil, err
		}
		since = &c
	}
	page, err := h.Page(ctx, p.MemberID, since, limit)
	if err != nil {
		return nil, err
	}
	return api.ListChanges200JSONResponse(page), nil
}

// Page folds the member's notes (Fold), then reads one page in one
// read-only snapshot.
func (h *ChangesHandler) Page(ctx context.Context, memberID int64, since *cursor, limit int) (api.ChangePage, error) {
	if err := Fold(ctx, h.pool, memberID); err != nil {
		return api.ChangePage{}, err
	}
	tx, err := h.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return api.ChangePage{}, fmt.Errorf("begin: %w", err)
	}
	defer tx.Rollback(ctx) //nolint:errcheck // read-only
	return h.PageTx(ctx, db.New(tx), memberID, since, limit)
}

// PageTx reads one page with q, which should hold one snapshot (Page's
// transaction); benchmarks record its statements for their floor.
func (h *ChangesHandler) PageTx(ctx context.Context, q *db.Queries, memberID int64, since *cursor, limit int) (api.ChangePage, error) {
	feed, err := q.GetLedgerFeed(ctx, memberID)
	if err != nil {
		return api.ChangePage{}, fmt.Errorf("feed of member %d: %w", memberID, err)
	}
	at := cursor{member: memberID, epoch: feed.Epoch, horizon: feed.PrunedSeq}
	if since != nil {
		if since.epoch != feed.Epoch {
			return api.ChangePage{}, errResync("the ledger was restored after this cursor; sync again from the empty cursor")
		}
		// A deletion after the cursor was pruned since its sync began.
		if since.seq < feed.PrunedSeq && since.horizon < feed.PrunedSeq {
			return api.ChangePage{}, errResync("deletions after this cursor are no longer kept; sync again from the empty cursor")
		}
		at = *since
	}
	rows, err := q.ListLedgerChanges(ctx, db.ListLedgerChangesParams{
		MemberID: memberID, AfterSeq: at.seq, MaxRows: int32(limit + 1),
	})
	if err != nil {
		return api.ChangePage{}, fmt.Errorf("changes of member %d: %w", memberID, err)
	}
	hasMore := len(rows) > limit
	if hasMore {
		rows = rows[:limit]
	}
	records, err := h.render(ctx, q, memberID, rows)
	if err != nil {
		return api.ChangePage{}, err
	}
	out := api.ChangePage{Changes: make([]api.Change, 0, len(rows)), HasMore: hasMore}
	for _, r := range rows {
		c, ok := records[key{r.Kind, r.RecordID}]
		if !ok {
			if c, err = tombstone(r.Kind, recordID(r.Kind, r.RecordID)); err != nil {
				return api.ChangePage{}, err
			}
		}
		out.Changes = append(out.Changes, c)
		at.seq = r.Seq
	}
	out.Next = at.String()
	return out, nil
}

// recordID is a record's id on the wire: expected income's is its month.
func recordID(kind string, id int64) string {
	if kind == KindBudgetIncome {
		return fmt.Sprintf("%04d-%02d", id/100, id%100)
	}
	return strconv.FormatInt(id, 10)
}

// foldTries and foldPause bound how long a feed read waits for another
// fold of the member (a parallel read's: milliseconds; a restore's last
// step: seconds) before it reads the positions there are.
const (
	foldTries = 10
	foldPause = 20 * time.Millisecond
)

// Fold gives the member's notes committed so far their positions in the
// feed (ledger_change_fold, in a transaction of its own, committed before
// the page's snapshot is taken). Where another transaction holds the
// member's feed lock past a few tries, it folds nothing: the positions
// already there are a consistent feed, and the notes wait for the next fold.
func Fold(ctx context.Context, pool *pgxpool.Pool, memberID int64) error {
	q := db.New(pool)
	for try := 1; ; try++ {
		folded, err := q.FoldLedgerChanges(ctx, db.FoldLedgerChangesParams{MemberID: memberID, Wait: false})
		if database.IsForeignKeyViolation(err) {
			// The member was deleted meanwhile: nothing of theirs to fold.
			return nil
		}
		if err != nil {
			return fmt.Errorf("fold the feed of member %d: %w", memberID, err)
		}
		if folded || try == foldTries {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(foldPause):
		}
	}
}

// FoldJobName is the job that folds the notes of members who do not read
// their feed, so that ledger_change_pending stays small.
const FoldJobName = "ledger-change-fold"

// FoldJob folds, each minute, the notes of up to 1,000 members (trying each
// member's lock once: a member whose feed is being read is folded by that
// read) and drops the notes of deleted members.
func FoldJob(pool *pgxpool.Pool) jobs.Job {
	return jobs.Job{
		Name:  FoldJobName,
		Every: time.Minute,
		Run: func(ctx context.Context, _ time.Time) error {
			q := db.New(pool)
			members, err := q.ListMembersWithNotes(ctx, 1000)
			if err != nil {
				return fmt.Errorf("members with feed notes: %w", err)
			}
			// One member's failure does not hold back the others' folds;
			// the first is reported (the run is retried).
			var failed error
			for _, m := range members {
				_, err := q.FoldLedgerChanges(ctx, db.FoldLedgerChangesParams{MemberID: m, Wait: false})
				if err != nil && !database.IsForeignKeyViolation(err) && failed == nil {
					failed = fmt.Errorf("fold the feed of member %d: %w", m, err)
				}
			}
			if _, err := q.DeleteOrphanNotes(ctx); err != nil && failed == nil {
				failed = fmt.Errorf("drop the feed notes of deleted members: %w", err)
			}
			return failed
		},
	}
}

// PruneJobName is the daily job that removes old tombstones.
const PruneJobName = "ledger-change-prune"

// PruneJob removes tombstones older than TombstoneAge (the jobs runner holds
// its advisory lock); cursors from before them answer 410 afterwards.
func PruneJob(pool *pgxpool.Pool) jobs.Job {
	return jobs.Job{
		Name:  PruneJobName,
		Every: 24 * time.Hour,
		Run: func(ctx context.Context, now time.Time) error {
			if _, err := db.New(pool).PruneLedgerTombstones(ctx, now.Add(-TombstoneAge)); err != nil {
				return fmt.Errorf("prune feed tombstones: %w", err)
			}
			return nil
		},
	}
}

// RestartTx starts the member's feed over at the end of a restore's
// transaction: its notes and those committed before are folded (waiting for
// the member's feed lock, held then to the restore's commit), every cursor
// handed out before answers 410, and as clients then sync from the empty
// cursor, the member's tombstones go (the records a restore kept, such as
// stocks and expected income, keep their rows).
func RestartTx(ctx context.Context, q *db.Queries, memberID int64) error {
	if _, err := q.FoldLedgerChanges(ctx, db.FoldLedgerChangesParams{MemberID: memberID, Wait: true}); err != nil {
		return fmt.Errorf("fold the feed of member %d: %w", memberID, err)
	}
	if err := q.BumpLedgerEpoch(ctx, memberID); err != nil {
		return fmt.Errorf("bump feed epoch of member %d: %w", memberID, err)
	}
	if err := q.DeleteLedgerTombstones(ctx, memberID); err != nil {
		return fmt.Errorf("drop tombstones of member %d: %w", memberID, err)
	}
	return nil
}
