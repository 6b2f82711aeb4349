package loadtest

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// The data-set generator of the growth benchmark (make bench): a member's
// history and a crowd of members and board posts, written by set-based SQL
// (generate_series) so that the full set, 10,000 members with a year of
// entries each and 100,000 posts with votes and comments, takes a few
// minutes on 2 cores. It writes PostgreSQL directly, not through the API:
// it makes data to measure against, and nothing here is a test of writes.

// Crowd is the size of the crowd SeedCrowd writes.
type Crowd struct {
	Members         int // members, each with a wallet, a category and a year of entries
	EntriesPerYear  int // entries of each crowd member
	Posts           int // board posts, written by crowd members
	VotesPerPost    int // up-votes on each post, from other crowd members
	CommentsPerPost int // comments on each post
}

// FullCrowd is the data set issue 21 names; scale (BENCH_SCALE, 0 to 1)
// shrinks it for a quicker run.
func FullCrowd(scale float64) Crowd {
	n := func(full int) int { return max(1, int(float64(full)*scale)) }
	return Crowd{Members: n(10_000), EntriesPerYear: 100, Posts: n(100_000), VotesPerPost: 3, CommentsPerPost: 2}
}

// SmallBoard is the board the small data set lists: 40 posts by 40 members
// (two pages, each post by another author, as on the large board), with
// the large board's votes and comments, and no entries. The growth of the
// board list is measured from it: a board of 100,000 posts against one of
// 40, not against an empty board, whose first page skips the votes read and
// answers no items.
func SmallBoard() Crowd {
	return Crowd{Members: 40, Posts: 40, VotesPerPost: 3, CommentsPerPost: 2}
}

// SeedHistory gives a member years of entries up to today (perDay a day),
// on a card and a bank wallet and three expense and one income categories,
// with a third of them tagged; it answers the number of entries written.
func SeedHistory(ctx context.Context, pool *pgxpool.Pool, memberID int64, years, perDay int, today time.Time) (int64, error) {
	tx, err := pool.Begin(ctx)
	if err != nil {
		return 0, err
	}
	defer func() { _ = tx.Rollback(ctx) }()
	from := today.AddDate(-years, 0, 1)
	steps := []string{
		`INSERT INTO wallet (member_id, name, type, sort_order)
		 SELECT $1, 'seed ' || t, t, o FROM unnest(ARRAY['CARD', 'BANK']) WITH ORDINALITY AS x(t, o)`,
		`INSERT INTO account_category (member_id, name, type, sort_order)
		 SELECT $1, 'seed ' || n, ty, o FROM unnest(ARRAY['food', 'transport', 'home', 'salary'], ARRAY['expense', 'expense', 'expense', 'income'])
		 WITH ORDINALITY AS x(n, ty, o)`,
		`INSERT INTO account_tag (member_id, name, sort_order)
		 SELECT $1, 'seed-tag-' || g, g FROM generate_series(1, 5) g ON CONFLICT DO NOTHING`,
	}
	for _, s := range steps {
		if _, err := tx.Exec(ctx, s, memberID); err != nil {
			return 0, fmt.Errorf("seed member %d: %w", memberID, err)
		}
	}
	tag, err := tx.Exec(ctx, `
		WITH w AS (SELECT array_agg(id ORDER BY id) AS ids FROM wallet WHERE member_id = $1 AND name LIKE 'seed %'),
		     c AS (SELECT array_agg(id ORDER BY sort_order) AS ids FROM account_category WHERE member_id = $1 AND name LIKE 'seed %')
		INSERT INTO account_entry (member_id, wallet_id, category_id, type, amount, entry_date, memo)
		SELECT $1, w.ids[1 + (k % 2)], c.ids[CASE WHEN k % 10 = 0 THEN 4 ELSE 1 + (k % 3) END],
		       CASE WHEN k % 10 = 0 THEN 'income' ELSE 'expense' END,
		       CASE WHEN k % 10 = 0 THEN 2500000 ELSE 1000 + (k * 7919) % 90000 END,
		       d::date, 'seed ' || (k % 50)
		FROM w, c, generate_series($2::date, $3::date, interval '1 day') AS d, generate_series(1, $4::int) AS k`,
		memberID, from, today, perDay)
	if err != nil {
		return 0, fmt.Errorf("seed entries of member %d: %w", memberID, err)
	}
	if _, err := tx.Exec(ctx, `
		INSERT INTO account_entry_tag (entry_id, tag_id)
		SELECT e.id, t.id FROM account_entry e
		JOIN account_tag t ON t.member_id = e.member_id AND t.name = 'seed-tag-' || (1 + e.id % 5)
		WHERE e.member_id = $1 AND e.id % 3 = 0 AND e.memo LIKE 'seed %'`, memberID); err != nil {
		return 0, fmt.Errorf("seed tags of member %d: %w", memberID, err)
	}
	return tag.RowsAffected(), tx.Commit(ctx)
}

// SeedCrowd writes the crowd: members (who cannot sign in: no password)
// with their ledgers, then posts, votes and comments with their counters
// set as the board's triggers would have. Triggers and foreign keys are off
// for the bulk inserts (session_replication_role, a superuser setting, as
// on the local development server); every row is consistent by
// construction. It answers a line saying what it wrote.
func SeedCrowd(ctx context.Context, pool *pgxpool.Pool, c Crowd, today time.Time) (string, error) {
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return "", err
	}
	failed := true
	defer func() {
		if failed {
			// Its session may still run without triggers: not back to
			// the pool.
			_ = conn.Conn().Close(context.WithoutCancel(ctx))
		}
		conn.Release()
	}()
	tag := fmt.Sprintf("crowd-%d", time.Now().UnixNano())
	steps := []struct {
		sql  string
		args []any
	}{
		{`SET session_replication_role = replica`, nil},
		{`CREATE TEMP TABLE seed_crowd (id bigint PRIMARY KEY, n int NOT NULL)`, nil},
		{`WITH m AS (
			INSERT INTO member (email, name, created_at)
			SELECT $1 || '-' || g || '@seed.invalid', 'seed ' || g, $2::timestamptz FROM generate_series(1, $3::int) g
			RETURNING id)
		  INSERT INTO seed_crowd SELECT id, row_number() OVER (ORDER BY id) FROM m`, []any{tag, today.AddDate(-1, 0, 0), c.Members}},
		{`INSERT INTO wallet (member_id, name, type, sort_order) SELECT id, 'Card', 'CARD', 1 FROM seed_crowd`, nil},
		{`INSERT INTO account_category (member_id, name, type, sort_order) SELECT id, 'Food', 'expense', 1 FROM seed_crowd`, nil},
		{`INSERT INTO account_entry (member_id, wallet_id, category_id, type, amount, entry_date, memo)
		  SELECT s.id, w.id, ca.id, 'expense', 1000 + (k * 7919) % 90000,
		         ($1::date - ((k * 365) / $2::int)), 'seed ' || (k % 50)
		  FROM seed_crowd s
		  JOIN wallet w ON w.member_id = s.id
		  JOIN account_category ca ON ca.member_id = s.id
		  CROSS JOIN generate_series(0, $2::int - 1) k`, []any{today, c.EntriesPerYear}},
		{`CREATE TEMP TABLE seed_post AS
		  WITH p AS (
			INSERT INTO post (member_id, category, title, body, up_count, comment_count, created_at, updated_at)
			SELECT s.id, (ARRAY['community', 'saving', 'tips'])[1 + g % 3], 'seed post ' || g, 'a seeded post body ' || g,
			       $2::int, $3::int, $1::timestamptz - make_interval(mins => g), $1::timestamptz - make_interval(mins => g)
			FROM generate_series(1, $4::int) g JOIN seed_crowd s ON s.n = 1 + g % (SELECT count(*) FROM seed_crowd)
			RETURNING id, member_id)
		  SELECT p.id, s.n FROM p JOIN seed_crowd s ON s.id = p.member_id`, []any{today, c.VotesPerPost, c.CommentsPerPost, c.Posts}},
		{`INSERT INTO post_vote (post_id, member_id, direction, created_at)
		  SELECT p.id, s.id, 'UP', $1::timestamptz
		  FROM seed_post p CROSS JOIN generate_series(1, $2::int) v
		  JOIN seed_crowd s ON s.n = 1 + (p.n + v - 1) % (SELECT count(*) FROM seed_crowd)
		  ON CONFLICT DO NOTHING`, []any{today, c.VotesPerPost}},
		{`INSERT INTO comment (post_id, member_id, body, created_at, updated_at)
		  SELECT p.id, s.id, 'a seeded comment ' || v, $1::timestamptz, $1::timestamptz
		  FROM seed_post p CROSS JOIN generate_series(1, $2::int) v
		  JOIN seed_crowd s ON s.n = 1 + (p.n + 7 * v) % (SELECT count(*) FROM seed_crowd)`, []any{today, c.CommentsPerPost}},
		{`DROP TABLE seed_post`, nil},
		{`DROP TABLE seed_crowd`, nil},
		{`RESET session_replication_role`, nil},
		// What a database that grew over time has: statistics, the
		// visibility map and hint bits set, the new rows on disk. Without
		// it the first reads after the seed pay for them.
		{`VACUUM (ANALYZE)`, nil},
		{`CHECKPOINT`, nil},
	}
	for i, s := range steps {
		if _, err := conn.Exec(ctx, s.sql, s.args...); err != nil {
			return "", fmt.Errorf("seed the crowd, step %d: %w", i+1, err)
		}
	}
	failed = false
	return fmt.Sprintf("%d members with %d entries each, %d posts with %d votes and %d comments each",
		c.Members, c.EntriesPerYear, c.Posts, c.VotesPerPost, c.CommentsPerPost), nil
}
