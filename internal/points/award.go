package points

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/member"
)

// Reasons of the board's point awards (SPEC.md section 8), as point_history
// records them.
const (
	ReasonPostWritten       = "POST_WRITTEN"
	ReasonCommentWritten    = "COMMENT_WRITTEN"
	ReasonUpvoteReceived    = "UPVOTE_RECEIVED"
	ReasonDownvoteReceived  = "DOWNVOTE_RECEIVED"
	ReasonUpvoteGiven       = "UPVOTE_GIVEN"
	ReasonVoteCancelled     = "VOTE_CANCELLED"
	ReasonUpvoteWithdrawn   = "UPVOTE_WITHDRAWN"
	ReasonDownvoteWithdrawn = "DOWNVOTE_WITHDRAWN"
)

// Cap limits what some reasons may add to a member's balance in one day of
// the service time zone. The zero Cap is no limit.
type Cap struct {
	// Reasons share the cap: the net of today's points under them (gains,
	// less the withdrawals listed with them) counts towards it, so a gain
	// that is taken back frees its part of the cap again.
	Reasons []string
	// Daily is the most those reasons may add in one day.
	Daily int
}

// The daily caps of SPEC.md section 8.
var (
	// WriteCap: a post or a comment earns 10, at most 50 a day (5 writings).
	WriteCap = Cap{Reasons: []string{ReasonPostWritten, ReasonCommentWritten}, Daily: 50}
	// UpvoteReceivedCap: an author earns 5 per up-vote, at most 50 a day.
	UpvoteReceivedCap = Cap{Reasons: []string{ReasonUpvoteReceived, ReasonUpvoteWithdrawn}, Daily: 50}
	// UpvoteGivenCap: a voter earns 1 per up-vote given, at most 10 a day.
	UpvoteGivenCap = Cap{Reasons: []string{ReasonUpvoteGiven, ReasonVoteCancelled}, Daily: 10}
)

// AwardTx changes a member's balance by delta inside the caller's
// transaction and records the change in point_history under reason. A gain
// is cut to what is left of the cap today (the day of now in now's location,
// which callers give in the service time zone); a loss is cut so the balance
// never falls below 0. It answers the change actually made (0 when nothing
// changed, and then nothing is recorded).
//
// The member's row stays locked until the caller's transaction ends, so
// parallel awards to one member take turns and caps stay exact. A caller that
// awards more than one member in a transaction locks them first with
// LockTx, in one order, so two such transactions cannot deadlock.
func AwardTx(ctx context.Context, q *db.Queries, memberID int64, delta int, reason string, limit Cap, now time.Time) (int, error) {
	balance, err := q.LockMemberPoints(ctx, memberID)
	if err != nil {
		return 0, member.Self(err, memberID)
	}
	awarded := delta
	if delta > 0 && limit.Daily > 0 {
		y, m, d := now.Date()
		dayStart := time.Date(y, m, d, 0, 0, 0, 0, now.Location())
		used, err := q.SumPointsSince(ctx, db.SumPointsSinceParams{MemberID: memberID, Reasons: limit.Reasons, Since: dayStart})
		if err != nil {
			return 0, fmt.Errorf("points of member %d today: %w", memberID, err)
		}
		awarded = min(delta, max(0, limit.Daily-int(used)))
	}
	if delta < 0 {
		awarded = max(delta, -int(balance))
	}
	if awarded == 0 {
		return 0, nil
	}
	if err := q.AddMemberPoints(ctx, db.AddMemberPointsParams{ID: memberID, Delta: int64(awarded)}); err != nil {
		return 0, fmt.Errorf("add %d points to member %d: %w", awarded, memberID, err)
	}
	err = q.InsertPointHistory(ctx, db.InsertPointHistoryParams{MemberID: memberID, Points: int32(awarded), Reason: reason, Now: now})
	if err != nil {
		return 0, fmt.Errorf("record %d points of member %d: %w", awarded, memberID, err)
	}
	return awarded, nil
}

// LockSelfTx locks the acting member's row and the others' in id order, the
// first step of database.LockOrder, and answers member.ErrSelfGone when the
// acting member's account was deleted meanwhile (an insert that references
// it would otherwise fail with a foreign key violation). Others that are
// gone are left to the caller's own lookups.
func LockSelfTx(ctx context.Context, q *db.Queries, self int64, others ...int64) error {
	ids := append([]int64{self}, others...)
	locked, err := q.LockMemberIDs(ctx, ids)
	if err != nil {
		return fmt.Errorf("lock members %v: %w", ids, err)
	}
	if !slices.Contains(locked, self) {
		return member.ErrSelfGone
	}
	return nil
}

// LockTx locks the balances of the given members in id order, for a
// transaction that awards more than one of them (database.LockOrder: members
// first).
func LockTx(ctx context.Context, q *db.Queries, memberIDs ...int64) error {
	if err := q.LockMembers(ctx, memberIDs); err != nil {
		return fmt.Errorf("lock members %v: %w", memberIDs, err)
	}
	return nil
}

// AwardedAt answers what awards under reason gave a member at the moment at:
// an award made together with a row stamped with the same moment (a vote) is
// found again by that stamp. The voter's lock serializes one member's awards
// and callers read the clock after taking it, so one member's stamps differ.
func AwardedAt(ctx context.Context, q *db.Queries, memberID int64, reason string, at time.Time) (int, error) {
	n, err := q.SumPointsAt(ctx, db.SumPointsAtParams{MemberID: memberID, Reason: reason, At: at})
	if err != nil {
		return 0, fmt.Errorf("points of member %d under %s at %s: %w", memberID, reason, at, err)
	}
	return int(n), nil
}
