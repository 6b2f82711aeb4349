package board_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/database"
)

// A vote and the self-deletion of its voter or of the author lock the same
// rows: the members, the post (the deletion's cascade reaches it through the
// counter triggers of the voter's earlier vote and comment) and the vote.
// Released together, round after round, they never answer 500, never
// deadlock (no transaction had to be run again), and leave counts and
// balances that agree with the rows left.
func TestVoteAgainstSelfDeletion(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	const rounds = 8
	votedFirst := 0
	for round := range rounds {
		author := env.NewMember()
		voter := env.NewMember()
		p := post(t, author, api.BoardCategoryCommunity, fmt.Sprintf("round %d", round))
		c := comment(t, author, p.ID, "the author's comment")
		// The voter's earlier vote and comment put the post on the path of
		// the voter's deletion.
		path := fmt.Sprintf("/api/board/posts/%d/vote", p.ID)
		cpath := fmt.Sprintf("/api/board/comments/%d/vote", c.ID)
		vote(t, voter, path, api.VoteDirectionUp)
		vote(t, voter, cpath, api.VoteDirectionUp)
		comment(t, voter, p.ID, "the voter's comment")

		// Even rounds delete the voter, odd rounds the author.
		leaving := voter
		if round%2 == 1 {
			leaving = author
		}
		answers := apitest.TogetherV(3, func(i int) *apitest.Response {
			switch i {
			case 0:
				return voter.Do(http.MethodPost, path, api.VotePostJSONRequestBody{Direction: api.VoteDirectionDown})
			case 1:
				return voter.Do(http.MethodPost, cpath, api.VoteCommentJSONRequestBody{Direction: api.VoteDirectionDown})
			default:
				return leaving.Do(http.MethodDelete, "/api/auth/me", nil)
			}
		})
		for i, r := range answers[:2] {
			switch r.Status {
			case http.StatusOK:
				if i == 0 {
					votedFirst++
				}
			case http.StatusUnauthorized, http.StatusNotFound: // the voter's session, or the post, is gone
			default:
				t.Errorf("round %d: vote %d answered %d: %s", round, i, r.Status, r.Body)
			}
		}
		if r := answers[2]; r.Status != http.StatusNoContent {
			t.Errorf("round %d: deletion answered %d: %s", round, r.Status, r.Body)
		}
	}
	if n := database.Retried(env.Pool); n != 0 {
		t.Errorf("%d transactions deadlocked and were run again", n)
	}
	t.Logf("the vote went first in %d of %d rounds", votedFirst, rounds)

	// What is left agrees with itself: counters with the vote and comment
	// rows, balances with the point history.
	ctx := context.Background()
	var bad int
	err := env.Pool.QueryRow(ctx, `
		SELECT (SELECT count(*) FROM post p WHERE up_count <> (SELECT count(*) FROM post_vote v WHERE v.post_id = p.id AND direction = 'UP')
		            OR down_count <> (SELECT count(*) FROM post_vote v WHERE v.post_id = p.id AND direction = 'DOWN')
		            OR comment_count <> (SELECT count(*) FROM comment c WHERE c.post_id = p.id))
		     + (SELECT count(*) FROM comment c WHERE up_count <> (SELECT count(*) FROM comment_vote v WHERE v.comment_id = c.id AND direction = 'UP')
		            OR down_count <> (SELECT count(*) FROM comment_vote v WHERE v.comment_id = c.id AND direction = 'DOWN'))
		     + (SELECT count(*) FROM member m WHERE points <> (SELECT COALESCE(sum(points), 0) FROM point_history h WHERE h.member_id = m.id))`).Scan(&bad)
	if err != nil {
		t.Fatal(err)
	}
	if bad != 0 {
		t.Errorf("%d posts, comments or members whose counters disagree with their rows", bad)
	}
}
