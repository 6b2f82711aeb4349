package board_test

import (
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
				req, _ := http.NewRequest(http.MethodGet, env.Server.URL+"/api/board/posts"+query, nil)
				req.Header.Set("Authorization", "Bearer "+m.Token)
				res, err := client.Do(req)
				if err != nil {
					b.Fatal(err)
				}
				if res.StatusCode != http.StatusOK {
					b.Fatalf("status %d", res.StatusCode)
				}
				_, _ = io.Copy(io.Discard, res.Body)
				res.Body.Close()
			}
		})
	}
}
