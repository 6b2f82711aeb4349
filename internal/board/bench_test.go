package board_test

import (
	"fmt"
	"io"
	"net/http"
	"testing"

	"github.com/nestegg/nestegg/internal/apitest"
)

// BenchmarkListPostsFirstPage reads the first page of a board of 100,000
// posts (with notices and hot posts, as a signed-in member, so votes are
// looked up too) through the whole request path.
func BenchmarkListPostsFirstPage(b *testing.B) {
	env := apitest.New(b)
	m := env.NewMember()
	now := env.Clock.Now()
	env.Exec(`
		INSERT INTO post (member_id, category, title, body, tags, notice, up_count, created_at, updated_at)
		SELECT $1, (ARRAY['community', 'saving', 'tips'])[1 + i % 3], 'post ' || i, repeat('body ', 40),
		       ARRAY['tag' || (i % 50)], i % 20000 = 0, CASE WHEN i % 997 = 0 THEN 60 ELSE i % 40 END,
		       $2::timestamptz - make_interval(mins => 100000 - i), $2::timestamptz - make_interval(mins => 100000 - i)
		FROM generate_series(1, 100000) AS i`, m.ID, now)
	env.Exec(`VACUUM ANALYZE post`)
	client := env.Server.Client()
	for _, query := range []string{"?category=saving", "", "?category=tips&tag=tag7"} {
		b.Run("query="+query, func(b *testing.B) {
			for b.Loop() {
				getOK(b, client, env.Server.URL+"/api/board/posts"+query, m.Token)
			}
		})
	}
}

// BenchmarkListPostsGrowth reads the first page of the whole board, as a
// signed-in member, on a board of 40 posts and on one of 100,000 (each by
// one of 40 or of 10,000 members, so a page has 20 authors either way, and
// with three up-votes each from other members): the
// in-process form of make load's board-list growth (target: at most 1.5x).
func BenchmarkListPostsGrowth(b *testing.B) {
	for _, size := range []struct{ posts, members int }{{40, 40}, {100_000, 10_000}} {
		b.Run(fmt.Sprintf("posts=%d", size.posts), func(b *testing.B) {
			env := apitest.New(b)
			m := env.NewMember()
			now := env.Clock.Now()
			env.Exec(`
				WITH authors AS (
					INSERT INTO member (email, name, created_at)
					SELECT 'crowd-' || g || '@seed.invalid', 'seed ' || g, $1::timestamptz FROM generate_series(1, $2::int) g
					RETURNING id),
				numbered AS (SELECT id, row_number() OVER (ORDER BY id) AS n FROM authors)
				INSERT INTO post (member_id, category, title, body, up_count, comment_count, created_at, updated_at)
				SELECT a.id, (ARRAY['community', 'saving', 'tips'])[1 + g % 3], 'seed post ' || g, 'a seeded post body ' || g,
				       3, 2, $1::timestamptz - make_interval(mins => g), $1::timestamptz - make_interval(mins => g)
				FROM generate_series(1, $3::int) g JOIN numbered a ON a.n = 1 + g % $2::int`, now, size.members, size.posts)
			// Three up-votes a post from other members, as make load seeds
			// (the posts' up_count is written above; the vote triggers,
			// which would update each post once a vote, are off for the
			// bulk insert in this benchmark's own database).
			env.Exec(`ALTER TABLE post_vote DISABLE TRIGGER USER`)
			env.Exec(`
				WITH voters AS (SELECT array_agg(id ORDER BY id) AS ids FROM member WHERE email LIKE 'crowd-%')
				INSERT INTO post_vote (post_id, member_id, direction, created_at)
				SELECT p.id, v.ids[1 + (p.id + k) % cardinality(v.ids)], 'UP', $1::timestamptz
				FROM post p CROSS JOIN generate_series(1, 3) k CROSS JOIN voters v
				ON CONFLICT DO NOTHING`, now)
			env.Exec(`ALTER TABLE post_vote ENABLE TRIGGER USER`)
			env.Exec(`VACUUM ANALYZE`)
			client := env.Server.Client()
			for b.Loop() {
				getOK(b, client, env.Server.URL+"/api/board/posts", m.Token)
			}
		})
	}
}

// getOK sends one signed-in GET and reads its 200 answer whole.
func getOK(b *testing.B, client *http.Client, url, token string) {
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := client.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		b.Fatalf("status %d", res.StatusCode)
	}
	_, _ = io.Copy(io.Discard, res.Body)
}
