package points_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
)

func TestPoints(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	var res api.Points
	m.Do(http.MethodGet, "/api/auth/points", nil).Want(http.StatusOK).JSON(&res)
	if res.Points != 0 {
		t.Fatalf("a new member has %d points", res.Points)
	}
	env.Exec(`UPDATE member SET points = 42 WHERE id = $1`, m.ID)
	m.Do(http.MethodGet, "/api/auth/points", nil).Want(http.StatusOK).JSON(&res)
	if res.Points != 42 {
		t.Fatalf("points %d, want 42", res.Points)
	}
}

func TestPointHistoryIsNewestFirstAndAtMost100(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	other := env.NewMember()

	var h api.PointHistory
	res := m.Do(http.MethodGet, "/api/auth/point-history", nil).Want(http.StatusOK)
	res.JSON(&h)
	if len(h.Items) != 0 || !strings.Contains(string(res.Body), `"items":[]`) {
		t.Fatalf("empty history answered %s", res.Body)
	}

	// 120 records a minute apart, inserted out of time order so that the
	// order of ids is not the answer; two later records at the same instant,
	// where the later insert counts as newer; and another member's record
	// newer than all of them.
	base := apitest.Start.Add(-24 * time.Hour)
	env.Exec(`
		INSERT INTO point_history (member_id, points, reason, created_at)
		SELECT $1, n, 'R' || n, $2::timestamptz + make_interval(mins => n)
		FROM generate_series(1, 120) AS n
		ORDER BY n % 7, n`, m.ID, base)
	for _, reason := range []string{"TIE_FIRST", "TIE_SECOND"} {
		env.Exec(`INSERT INTO point_history (member_id, points, reason, created_at) VALUES ($1, 5, $2, $3)`,
			m.ID, reason, base.Add(121*time.Minute))
	}
	env.Exec(`INSERT INTO point_history (member_id, points, reason, created_at) VALUES ($1, -1, 'OTHER', $2)`,
		other.ID, base.Add(time.Hour*24))

	m.Do(http.MethodGet, "/api/auth/point-history", nil).Want(http.StatusOK).JSON(&h)
	if len(h.Items) != 100 {
		t.Fatalf("%d records, want 100", len(h.Items))
	}
	want := []string{"TIE_SECOND", "TIE_FIRST"}
	for n := 120; len(want) < 100; n-- {
		want = append(want, fmt.Sprintf("R%d", n))
	}
	for i, it := range h.Items {
		if it.Reason != want[i] {
			t.Fatalf("record %d is %s, want %s", i, it.Reason, want[i])
		}
	}
	last := h.Items[99]
	if last.Points != 23 || !last.CreatedAt.Equal(base.Add(23*time.Minute)) {
		t.Fatalf("oldest record shown %+v, want R23 at %s", last, base.Add(23*time.Minute))
	}
}
