package board

import (
	"testing"
	"time"

	"github.com/nestegg/nestegg/internal/clock"
)

func TestHotRule(t *testing.T) {
	t.Parallel()
	c := clock.NewFake(time.Date(2026, 11, 16, 10, 0, 0, 0, time.FixedZone("KST", 9*3600)))
	created := c.Now()
	cases := []struct {
		after time.Duration
		up    int32
		hot   bool
	}{
		{0, 50, true},
		{0, 49, false},
		{23*time.Hour + 59*time.Minute, 50, true},
		{24 * time.Hour, 50, false},
		{25 * time.Hour, 1000, false},
	}
	for _, tc := range cases {
		c.Set(created.Add(tc.after))
		if got := isHot(created, tc.up, c.Now()); got != tc.hot {
			t.Errorf("%d up-votes, %v after creation: hot %v, want %v", tc.up, tc.after, got, tc.hot)
		}
	}
}
