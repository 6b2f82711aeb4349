package board

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/internal/points"
	"github.com/nestegg/nestegg/internal/problem"
)

// Points of a vote (SPEC.md section 8).
const (
	pointsUpvoteReceived   = 5
	pointsDownvoteReceived = -1
	pointsUpvoteGiven      = 1
)

var errSelfVote = problem.New(http.StatusBadRequest, problem.CodeSelfVote, "you cannot vote on your own content")

// voteStore is the vote table of one target (a post or a comment) for one
// voter, so the voting rules are written once.
type voteStore struct {
	// get answers the voter's vote, or pgx.ErrNoRows.
	get    func() (storedVote, error)
	insert func(direction string, authorPoints int32) error
	update func(direction string, authorPoints int32) error
	delete func() error
	counts func() (up, down int32, err error)
}

// storedVote is a vote as its row keeps it: the direction, what it changed
// for the author, and when it was cast (the voter's award carries the same
// stamp in point_history).
type storedVote struct {
	direction    string
	authorPoints int32
	at           time.Time
}

// lockVoters locks the voter's and the author's member rows, in id order,
// before the vote locks its target: database.LockOrder puts members before
// posts and comments, as a member's deletion locks its member row first and
// then, through the cascade and the counter triggers, the posts and comments
// its votes and comments were on. (Locking the post first deadlocked a vote
// against its voter's or its author's self-deletion.) Both balances may
// change, and a vote the other way round locks the same two rows in the
// same order.
func lockVoters(ctx context.Context, q *db.Queries, voterID, authorID int64) error {
	return points.LockSelfTx(ctx, q, voterID, authorID)
}

// voteTx applies a vote of voterID on content of authorID. The caller has
// locked both members (lockVoters) and then the target's row, so one voter's
// parallel clicks take turns and read each other's result, and has read now
// after the locks, so one voter's votes never share a moment. It answers the
// voter's vote after the request ("" when cancelled) and the counts.
//
// For points (DECISIONS.md section 9) a vote the same way again is a cancel,
// and a vote the other way is a cancel plus a new vote: a cancel takes back
// exactly what the vote gave its author and its voter, so any path to the
// same votes ends with the same points.
func voteTx(ctx context.Context, q *db.Queries, s voteStore, voterID, authorID int64, direction string, now time.Time) (api.VoteResult, error) {
	if voterID == authorID {
		return api.VoteResult{}, errSelfVote
	}
	old, err := s.get()
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return api.VoteResult{}, fmt.Errorf("read vote: %w", err)
	}
	if old.direction != "" {
		if err := cancelTx(ctx, q, voterID, authorID, old, now); err != nil {
			return api.VoteResult{}, err
		}
	}
	mine := direction
	switch old.direction {
	case direction: // the same direction again cancels
		if err := s.delete(); err != nil {
			return api.VoteResult{}, fmt.Errorf("delete vote: %w", err)
		}
		mine = ""
	default: // a new vote, or a switch after its cancel
		ap, err := awardAuthor(ctx, q, authorID, direction, now)
		if err != nil {
			return api.VoteResult{}, err
		}
		write := s.insert
		if old.direction != "" {
			write = s.update
		}
		if err := write(direction, ap); err != nil {
			return api.VoteResult{}, fmt.Errorf("write vote: %w", err)
		}
		if err := awardVoter(ctx, q, voterID, direction, now); err != nil {
			return api.VoteResult{}, err
		}
	}
	up, down, err := s.counts()
	if err != nil {
		return api.VoteResult{}, fmt.Errorf("read vote counts: %w", err)
	}
	res := api.VoteResult{Up: up, Down: down}
	if mine != "" {
		res.MyVote = (*api.VoteDirectionValue)(&mine)
	}
	return res, nil
}

// cancelTx takes back what a vote gave: the author's change kept on the vote,
// and the voter's +1 if the up-vote earned it (one at the daily cap earned
// nothing, and a down-vote never earns the voter anything).
func cancelTx(ctx context.Context, q *db.Queries, voterID, authorID int64, old storedVote, now time.Time) error {
	if err := withdrawAuthor(ctx, q, authorID, old.direction, old.authorPoints, now); err != nil {
		return err
	}
	if old.direction != string(api.VoteDirectionUp) {
		return nil
	}
	got, err := points.AwardedAt(ctx, q, voterID, points.ReasonUpvoteGiven, old.at)
	if err != nil {
		return err
	}
	// One vote earns at most pointsUpvoteGiven, whatever else shares its moment.
	if got = min(got, pointsUpvoteGiven); got <= 0 {
		return nil
	}
	_, err = points.AwardTx(ctx, q, voterID, -got, points.ReasonVoteCancelled, points.Cap{}, now)
	return err
}

// awardAuthor gives the author what a new vote earns: +5 for UP (daily cap),
// -1 for DOWN. It answers the change actually made, kept on the vote.
func awardAuthor(ctx context.Context, q *db.Queries, authorID int64, direction string, now time.Time) (int32, error) {
	var n int
	var err error
	if direction == string(api.VoteDirectionUp) {
		n, err = points.AwardTx(ctx, q, authorID, pointsUpvoteReceived, points.ReasonUpvoteReceived, points.UpvoteReceivedCap, now)
	} else {
		n, err = points.AwardTx(ctx, q, authorID, pointsDownvoteReceived, points.ReasonDownvoteReceived, points.Cap{}, now)
	}
	return int32(n), err
}

// withdrawAuthor gives back exactly what a vote changed for its author.
func withdrawAuthor(ctx context.Context, q *db.Queries, authorID int64, direction string, got int32, now time.Time) error {
	if got == 0 {
		return nil
	}
	reason := points.ReasonUpvoteWithdrawn
	if direction == string(api.VoteDirectionDown) {
		reason = points.ReasonDownvoteWithdrawn
	}
	_, err := points.AwardTx(ctx, q, authorID, -int(got), reason, points.Cap{}, now)
	return err
}

// awardVoter gives an up-voter +1 (daily cap); a down-vote earns nothing.
func awardVoter(ctx context.Context, q *db.Queries, voterID int64, direction string, now time.Time) error {
	if direction != string(api.VoteDirectionUp) {
		return nil
	}
	_, err := points.AwardTx(ctx, q, voterID, pointsUpvoteGiven, points.ReasonUpvoteGiven, points.UpvoteGivenCap, now)
	return err
}

// VotePost votes on a post.
func (h *BoardHandler) VotePost(ctx context.Context, req api.VotePostRequestObject) (api.VotePostResponseObject, error) {
	v := h.viewerOf(ctx)
	res, err := database.InTxV(ctx, h.pool, func(q *db.Queries) (api.VoteResult, error) {
		author, err := q.GetPostAuthor(ctx, req.ID)
		if err := database.NoRows(err, errPostNotFound, fmt.Sprintf("post %d", req.ID)); err != nil {
			return api.VoteResult{}, err
		}
		if err := lockVoters(ctx, q, v.memberID, author); err != nil {
			return api.VoteResult{}, err
		}
		now := h.now() // after the voter's lock: one voter's votes never share a moment
		post, err := lockPost(ctx, q, v, req.ID)
		if err != nil {
			return api.VoteResult{}, err
		}
		s := voteStore{
			get: func() (storedVote, error) {
				r, err := q.GetPostVote(ctx, db.GetPostVoteParams{PostID: post.ID, MemberID: v.memberID})
				return storedVote{r.Direction, r.AuthorPoints, r.CreatedAt}, err
			},
			insert: func(d string, ap int32) error {
				return q.InsertPostVote(ctx, db.InsertPostVoteParams{PostID: post.ID, MemberID: v.memberID, Direction: d, AuthorPoints: ap, Now: now})
			},
			update: func(d string, ap int32) error {
				return q.UpdatePostVote(ctx, db.UpdatePostVoteParams{PostID: post.ID, MemberID: v.memberID, Direction: d, AuthorPoints: ap, Now: now})
			},
			delete: func() error {
				return q.DeletePostVote(ctx, db.DeletePostVoteParams{PostID: post.ID, MemberID: v.memberID})
			},
			counts: func() (int32, int32, error) {
				c, err := q.GetPostCounts(ctx, post.ID)
				return c.UpCount, c.DownCount, err
			},
		}
		return voteTx(ctx, q, s, v.memberID, post.MemberID, string(req.Body.Direction), now)
	})
	if err != nil {
		return nil, err
	}
	return api.VotePost200JSONResponse(res), nil
}

// VoteComment votes on a comment.
func (h *BoardHandler) VoteComment(ctx context.Context, req api.VoteCommentRequestObject) (api.VoteCommentResponseObject, error) {
	v := h.viewerOf(ctx)
	res, err := database.InTxV(ctx, h.pool, func(q *db.Queries) (api.VoteResult, error) {
		author, err := q.GetCommentAuthor(ctx, req.ID)
		if err := database.NoRows(err, errCommentNotFound, fmt.Sprintf("comment %d", req.ID)); err != nil {
			return api.VoteResult{}, err
		}
		if err := lockVoters(ctx, q, v.memberID, author); err != nil {
			return api.VoteResult{}, err
		}
		now := h.now() // after the voter's lock: one voter's votes never share a moment
		c, err := lockComment(ctx, q, v, req.ID)
		if err != nil {
			return api.VoteResult{}, err
		}
		s := voteStore{
			get: func() (storedVote, error) {
				r, err := q.GetCommentVote(ctx, db.GetCommentVoteParams{CommentID: c.ID, MemberID: v.memberID})
				return storedVote{r.Direction, r.AuthorPoints, r.CreatedAt}, err
			},
			insert: func(d string, ap int32) error {
				return q.InsertCommentVote(ctx, db.InsertCommentVoteParams{CommentID: c.ID, MemberID: v.memberID, Direction: d, AuthorPoints: ap, Now: now})
			},
			update: func(d string, ap int32) error {
				return q.UpdateCommentVote(ctx, db.UpdateCommentVoteParams{CommentID: c.ID, MemberID: v.memberID, Direction: d, AuthorPoints: ap, Now: now})
			},
			delete: func() error {
				return q.DeleteCommentVote(ctx, db.DeleteCommentVoteParams{CommentID: c.ID, MemberID: v.memberID})
			},
			counts: func() (int32, int32, error) {
				r, err := q.GetCommentCounts(ctx, c.ID)
				return r.UpCount, r.DownCount, err
			},
		}
		return voteTx(ctx, q, s, v.memberID, c.MemberID, string(req.Body.Direction), now)
	})
	if err != nil {
		return nil, err
	}
	return api.VoteComment200JSONResponse(res), nil
}
