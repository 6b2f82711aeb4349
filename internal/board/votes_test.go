package board_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
)

func TestVoteTogglesAndPoints(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	author := env.NewMember()
	voter := env.NewMember()
	p := post(t, author, api.BoardCategoryCommunity, "vote on me") // author: 10
	path := fmt.Sprintf("/api/board/posts/%d/vote", p.ID)

	steps := []struct {
		dir                    api.VoteDirection
		up, down               int32
		mine                   any
		authorPoints, voterPts int64
	}{
		{api.VoteDirectionUp, 1, 0, "UP", 15, 1},    // new UP: author +5, voter +1
		{api.VoteDirectionUp, 0, 0, nil, 10, 0},     // cancel: author -5 back, voter -1
		{api.VoteDirectionDown, 0, 1, "DOWN", 9, 0}, // new DOWN: author -1
		{api.VoteDirectionUp, 1, 0, "UP", 15, 1},    // switch: author +1 back, +5; voter +1
		{api.VoteDirectionDown, 0, 1, "DOWN", 9, 0}, // switch: author -5 back, -1; voter's +1 taken back
		{api.VoteDirectionDown, 0, 0, nil, 10, 0},   // cancel: author +1 back; the down-vote gave the voter nothing
		// Switching back and forth earns the voter nothing.
		{api.VoteDirectionUp, 1, 0, "UP", 15, 1},
		{api.VoteDirectionDown, 0, 1, "DOWN", 9, 0},
		{api.VoteDirectionUp, 1, 0, "UP", 15, 1},
		{api.VoteDirectionDown, 0, 1, "DOWN", 9, 0},
	}
	for i, s := range steps {
		r := vote(t, voter, path, s.dir)
		if r.Up != s.up || r.Down != s.down || deref(r.MyVote) != s.mine {
			t.Fatalf("step %d (%s): %+v, want up %d down %d mine %v", i, s.dir, r, s.up, s.down, s.mine)
		}
		if a, v := balance(t, author), balance(t, voter); a != s.authorPoints || v != s.voterPts {
			t.Fatalf("step %d: author %d voter %d, want %d %d", i, a, v, s.authorPoints, s.voterPts)
		}
	}
	author.Do(http.MethodPost, path, api.VoteRequest{Direction: api.VoteDirectionUp}).WantProblem(http.StatusBadRequest, "SELF_VOTE")
	voter.Do(http.MethodPost, "/api/board/posts/987654/vote", api.VoteRequest{Direction: api.VoteDirectionUp}).WantProblem(http.StatusNotFound, "NOT_FOUND")
	voter.Raw().Do(http.MethodPost, path, map[string]string{"direction": "SIDEWAYS"}).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")

	// Comments follow the same rules.
	c := comment(t, author, p.ID, "a comment") // author: 19
	cpath := fmt.Sprintf("/api/board/comments/%d/vote", c.ID)
	if r := vote(t, voter, cpath, api.VoteDirectionUp); r.Up != 1 || deref(r.MyVote) != "UP" {
		t.Fatalf("comment vote %+v", r)
	}
	if a := balance(t, author); a != 24 {
		t.Fatalf("author after a comment up-vote: %d", a)
	}
	author.Do(http.MethodPost, cpath, api.VoteRequest{Direction: api.VoteDirectionDown}).WantProblem(http.StatusBadRequest, "SELF_VOTE")
	var comments api.CommentPage
	voter.Do(http.MethodGet, fmt.Sprintf("/api/board/posts/%d/comments", p.ID), nil).Want(http.StatusOK).JSON(&comments)
	if len(comments.Items) != 1 || deref(comments.Items[0].MyVote) != "UP" || comments.Items[0].UpCount != 1 {
		t.Fatalf("comments %+v", comments)
	}
}

func TestDownVoteNeverTakesTheBalanceBelowZero(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	author := env.NewMember()
	voter := env.NewMember()
	p := post(t, author, api.BoardCategoryCommunity, "p")
	env.Exec(`UPDATE member SET points = 0 WHERE id = $1`, author.ID)
	vote(t, voter, fmt.Sprintf("/api/board/posts/%d/vote", p.ID), api.VoteDirectionDown)
	if b := balance(t, author); b != 0 {
		t.Fatalf("balance %d", b)
	}
	// The down-vote took nothing, so cancelling it gives nothing back.
	vote(t, voter, fmt.Sprintf("/api/board/posts/%d/vote", p.ID), api.VoteDirectionDown)
	if b := balance(t, author); b != 0 {
		t.Fatalf("balance after cancelling %d", b)
	}
	// The voter keeps 0: a down-vote gave the voter nothing to take back.
	if b := balance(t, voter); b != 0 {
		t.Fatalf("voter balance %d", b)
	}
}

// TestParallelVotersAndDoubleClicks: 50 members vote at once, each twice at
// once (a double click); the counts and the author's capped points are exact.
func TestParallelVotersAndDoubleClicks(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	author := env.NewMember()
	p := post(t, author, api.BoardCategoryCommunity, "popular")
	voters := make([]*apitest.Member, 50)
	for i := range voters {
		voters[i] = env.NewMember()
	}
	path := fmt.Sprintf("/api/board/posts/%d/vote", p.ID)
	// One single click and one double click of UP per voter: three UPs in
	// all, so each voter ends with an UP vote, whatever the order.
	answers := apitest.TogetherV(3*len(voters), func(i int) *apitest.Response {
		return voters[i/3].Do(http.MethodPost, path, api.VoteRequest{Direction: api.VoteDirectionUp})
	})
	for i, r := range answers {
		if r.Status != http.StatusOK {
			t.Errorf("click %d of voter %d answered %d: %s", i%3, i/3, r.Status, r.Body)
		}
	}
	if t.Failed() {
		t.FailNow()
	}
	var got api.Post
	env.Client().Do(http.MethodGet, fmt.Sprintf("/api/board/posts/%d", p.ID), nil).Want(http.StatusOK).JSON(&got)
	if got.UpCount != 50 || got.DownCount != 0 {
		t.Fatalf("counts up %d down %d, want 50 0", got.UpCount, got.DownCount)
	}
	var rows int
	if err := env.Pool.QueryRow(context.Background(), `SELECT count(*) FROM post_vote WHERE post_id = $1`, p.ID).Scan(&rows); err != nil {
		t.Fatal(err)
	}
	if rows != 50 {
		t.Fatalf("%d vote rows", rows)
	}
	// Writing (10) plus up-votes capped at 50 a day.
	if b := balance(t, author); b != 60 {
		t.Fatalf("author balance %d, want 60", b)
	}
	// Every voter: +1 (UP), -1 (cancel), +1 (UP) = 1.
	for _, v := range voters {
		if b := balance(t, v); b != 1 {
			t.Fatalf("voter balance %d, want 1", b)
		}
	}
	if !got.Hot {
		t.Fatal("50 up-votes within a day is hot")
	}
}

func TestVoterDailyCapResetsNextDay(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	author := env.NewMember()
	voter := env.NewMember()
	var posts []api.Post
	for i := range 12 {
		posts = append(posts, post(t, author, api.BoardCategoryTips, fmt.Sprint("p", i)))
	}
	for _, p := range posts[:11] {
		vote(t, voter, fmt.Sprintf("/api/board/posts/%d/vote", p.ID), api.VoteDirectionUp)
	}
	if b := balance(t, voter); b != 10 {
		t.Fatalf("voter balance %d, want the cap of 10", b)
	}
	// The author: 5 posts' writing points (cap 50) + 10 up-votes' 5 (cap 50).
	if b := balance(t, author); b != 100 {
		t.Fatalf("author balance %d, want 100", b)
	}
	// Midnight in Asia/Seoul starts a new day (the clock starts at 10:00 there).
	env.Clock.Advance(14 * time.Hour)
	vote(t, voter, fmt.Sprintf("/api/board/posts/%d/vote", posts[11].ID), api.VoteDirectionUp)
	if b := balance(t, voter); b != 11 {
		t.Fatalf("voter balance next day %d, want 11", b)
	}
	if b := balance(t, author); b != 105 {
		t.Fatalf("author balance next day %d, want 105", b)
	}
}
