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

// voteState is a voter's vote on a target: "", "UP" or "DOWN".
type voteState string

// clicksTo is the vote request that moves from one state to another: the
// same direction again cancels, the other direction switches.
func clicksTo(from, to voteState) api.VoteDirection {
	if to == "" {
		return api.VoteDirection(from)
	}
	return api.VoteDirection(to)
}

// setPoints gives members a balance far from the zero floor, so every
// take-back shows.
func setPoints(env *apitest.Env, pts int64, members ...*apitest.Member) {
	for _, m := range members {
		env.Exec(`UPDATE member SET points = $1 WHERE id = $2`, pts, m.ID)
	}
}

// useCap records, as the ledger would, that m has used a daily cap today.
func useCap(env *apitest.Env, m *apitest.Member, reason string, pts int) {
	env.Exec(`INSERT INTO point_history (member_id, points, reason, created_at) VALUES ($1, $2, $3, $4)`,
		m.ID, pts, reason, env.Clock.Now().Add(-time.Minute))
}

// TestVoteTransitionPoints: every move between no vote, UP and DOWN changes
// the voter's and the author's points by what DECISIONS.md section 9 says (a
// switch is a cancel plus a new vote, a cancel takes back exactly what the
// vote gave), below the daily caps and at each of them.
func TestVoteTransitionPoints(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	type delta struct{ voter, author int64 }
	transitions := []struct{ from, to voteState }{
		{"", "UP"}, {"", "DOWN"}, {"UP", ""}, {"UP", "DOWN"}, {"DOWN", ""}, {"DOWN", "UP"},
	}
	conditions := []struct {
		name  string
		setup func(voter, author *apitest.Member)
		want  []delta // per transition
	}{
		{"below the caps", func(_, _ *apitest.Member) {}, []delta{
			{+1, +5}, {0, -1}, {-1, -5}, {-1, -6}, {0, +1}, {+1, +6},
		}},
		// The voter has earned 10 for up-votes today: an up-vote earns the
		// voter nothing, so its cancel takes nothing back.
		{"voter at the cap", func(voter, _ *apitest.Member) { useCap(env, voter, "UPVOTE_GIVEN", 10) }, []delta{
			{0, +5}, {0, -1}, {0, -5}, {0, -6}, {0, +1}, {0, +6},
		}},
		// The author has received 50 for up-votes today: an up-vote gives the
		// author nothing, so its cancel takes nothing back.
		{"author at the cap", func(_, author *apitest.Member) { useCap(env, author, "UPVOTE_RECEIVED", 50) }, []delta{
			{+1, 0}, {0, -1}, {-1, 0}, {-1, -1}, {0, +1}, {+1, +1},
		}},
	}
	for _, c := range conditions {
		for i, tr := range transitions {
			t.Run(fmt.Sprintf("%s/%q to %q", c.name, tr.from, tr.to), func(t *testing.T) {
				author, voter := env.NewMember(), env.NewMember()
				p := post(t, author, api.BoardCategoryCommunity, "p")
				c.setup(voter, author)
				setPoints(env, 100, author, voter)
				path := fmt.Sprintf("/api/board/posts/%d/vote", p.ID)
				if tr.from != "" {
					vote(t, voter, path, api.VoteDirection(tr.from))
				}
				v0, a0 := balance(t, voter), balance(t, author)
				env.Clock.Advance(time.Second)
				r := vote(t, voter, path, clicksTo(tr.from, tr.to))
				if deref(r.MyVote) != map[voteState]any{"": nil, "UP": "UP", "DOWN": "DOWN"}[tr.to] {
					t.Fatalf("my vote %v, want %q", deref(r.MyVote), tr.to)
				}
				got := delta{balance(t, voter) - v0, balance(t, author) - a0}
				if got != c.want[i] {
					t.Fatalf("voter %+d author %+d, want %+d %+d", got.voter, got.author, c.want[i].voter, c.want[i].author)
				}
			})
		}
	}
}

// TestVotePathsEndAlike: the probe of issue 42 (DOWN, UP, DOWN, cancel) and a
// few other paths back to no vote leave both balances where they started.
func TestVotePathsEndAlike(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	paths := [][]api.VoteDirection{
		{api.VoteDirectionDown, api.VoteDirectionUp, api.VoteDirectionDown, api.VoteDirectionDown},
		{api.VoteDirectionUp, api.VoteDirectionDown, api.VoteDirectionUp, api.VoteDirectionUp},
		{api.VoteDirectionUp, api.VoteDirectionUp, api.VoteDirectionDown, api.VoteDirectionDown},
		{api.VoteDirectionDown, api.VoteDirectionUp, api.VoteDirectionUp},
	}
	for i, clicks := range paths {
		author, voter := env.NewMember(), env.NewMember()
		p := post(t, author, api.BoardCategoryCommunity, "p")
		setPoints(env, 10, author, voter)
		path := fmt.Sprintf("/api/board/posts/%d/vote", p.ID)
		var trail []int64
		for _, d := range clicks {
			vote(t, voter, path, d)
			env.Clock.Advance(time.Second)
			trail = append(trail, balance(t, voter))
		}
		if v, a := balance(t, voter), balance(t, author); v != 10 || a != 10 {
			t.Errorf("path %d %v: voter %d (after each click %v) author %d, want 10 10", i, clicks, v, trail, a)
		}
	}
}

// TestVoteCancelAfterTheCap: an up-vote that earned its voter +1 before the
// cap was reached gives it back when cancelled at the cap, and that frees
// the cap for the next up-vote; one cast at the cap earned nothing and
// takes nothing back.
func TestVoteCancelAfterTheCap(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	author, voter := env.NewMember(), env.NewMember()
	var paths []string
	for i := range 12 {
		paths = append(paths, fmt.Sprintf("/api/board/posts/%d/vote", post(t, author, api.BoardCategoryTips, fmt.Sprint("p", i)).ID))
	}
	click := func(i int, d api.VoteDirection, want int64) {
		t.Helper()
		env.Clock.Advance(time.Second)
		vote(t, voter, paths[i], d)
		if b := balance(t, voter); b != want {
			t.Fatalf("click %s on post %d: voter %d, want %d", d, i, b, want)
		}
	}
	for i := range 10 {
		click(i, api.VoteDirectionUp, int64(i+1))
	}
	click(10, api.VoteDirectionUp, 10)   // at the cap: earns nothing
	click(10, api.VoteDirectionUp, 10)   // its cancel takes nothing
	click(10, api.VoteDirectionUp, 10)   // again at the cap
	click(10, api.VoteDirectionDown, 10) // its switch takes nothing
	click(0, api.VoteDirectionDown, 9)   // the first up-vote's +1 goes back
	click(11, api.VoteDirectionUp, 10)   // and the freed cap earns again
	click(11, api.VoteDirectionUp, 9)    // that one's cancel takes its +1
}

// TestParallelVotesKeepPointsConsistent: voters click UP and DOWN on a post
// and a comment all at once, each voter several times on each; whatever
// order the clicks take, each balance is what the standing votes gave and
// equals the point history's sum.
func TestParallelVotesKeepPointsConsistent(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	author := env.NewMember()
	p := post(t, author, api.BoardCategoryCommunity, "p")
	c := comment(t, author, p.ID, "c")
	// Five voters on two targets: at most 50 up-vote points, the author's
	// cap, so every order awards the same per vote.
	voters := make([]*apitest.Member, 5)
	for i := range voters {
		voters[i] = env.NewMember()
	}
	targets := []string{fmt.Sprintf("/api/board/posts/%d/vote", p.ID), fmt.Sprintf("/api/board/comments/%d/vote", c.ID)}
	clicks := []api.VoteDirection{api.VoteDirectionUp, api.VoteDirectionDown, api.VoteDirectionUp, api.VoteDirectionUp, api.VoteDirectionDown}
	const start = 100
	ctx := context.Background()
	for round := range 3 {
		// Each round starts from no votes, the start balance and no history.
		env.Exec(`DELETE FROM post_vote`)
		env.Exec(`DELETE FROM comment_vote`)
		env.Exec(`DELETE FROM point_history`)
		setPoints(env, start, append(voters, author)...)
		per := len(targets) * len(clicks)
		answers := apitest.TogetherV(len(voters)*per, func(i int) *apitest.Response {
			k := i % per
			return voters[i/per].Do(http.MethodPost, targets[k%len(targets)], api.VoteRequest{Direction: clicks[k/len(targets)]})
		})
		for i, r := range answers {
			if r.Status != http.StatusOK {
				t.Fatalf("round %d click %d answered %d: %s", round, i, r.Status, r.Body)
			}
		}
		var authorWant int64 = start
		for _, v := range voters {
			var ups, downs int64
			err := env.Pool.QueryRow(ctx, `SELECT count(*) FILTER (WHERE direction = 'UP'), count(*) FILTER (WHERE direction = 'DOWN')
				FROM (SELECT direction FROM post_vote WHERE member_id = $1 UNION ALL SELECT direction FROM comment_vote WHERE member_id = $1) v`,
				v.ID).Scan(&ups, &downs)
			if err != nil {
				t.Fatal(err)
			}
			if b := balance(t, v); b != start+ups {
				t.Errorf("round %d: voter with %d up-votes has %d, want %d", round, ups, b, start+ups)
			}
			authorWant += 5*ups - downs
		}
		if b := balance(t, author); b != authorWant {
			t.Errorf("round %d: author %d, want %d", round, b, authorWant)
		}
		for _, m := range append(voters, author) {
			var sum int64
			if err := env.Pool.QueryRow(ctx, `SELECT COALESCE(sum(points), 0) FROM point_history WHERE member_id = $1`, m.ID).Scan(&sum); err != nil {
				t.Fatal(err)
			}
			if b := balance(t, m); b != start+sum {
				t.Errorf("round %d: member %d has %d, history sums to %+d", round, m.ID, b, sum)
			}
		}
		if t.Failed() {
			t.FailNow()
		}
		env.Clock.Advance(time.Second)
	}
}
