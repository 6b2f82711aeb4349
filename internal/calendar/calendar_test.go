package calendar_test

import (
	"testing"
	"time"

	"github.com/nestegg/nestegg/internal/calendar"
)

func TestDayIsTheDateInTheLocation(t *testing.T) {
	t.Parallel()
	seoul, err := time.LoadLocation("Asia/Seoul")
	if err != nil {
		t.Fatal(err)
	}
	newYork, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		at   time.Time
		loc  *time.Location
		want string
	}{
		// 23:30 UTC on 31 December is already 1 January in Seoul.
		{time.Date(2026, 12, 31, 23, 30, 0, 0, time.UTC), seoul, "2027-01-01"},
		{time.Date(2026, 12, 31, 23, 30, 0, 0, time.UTC), time.UTC, "2026-12-31"},
		{time.Date(2026, 12, 31, 23, 30, 0, 0, time.UTC), newYork, "2026-12-31"},
		// Midnight in Seoul is its own day, not the day before.
		{time.Date(2027, 1, 25, 0, 0, 0, 0, seoul), seoul, "2027-01-25"},
		{time.Date(2027, 1, 24, 23, 59, 59, 999, seoul), seoul, "2027-01-24"},
		{time.Date(2028, 2, 29, 12, 0, 0, 0, seoul), seoul, "2028-02-29"},
	} {
		got := calendar.Day(c.at, c.loc)
		if got.Format(time.DateOnly) != c.want || got.Location() != time.UTC || got.Hour() != 0 || got.Nanosecond() != 0 {
			t.Errorf("Day(%s, %s) = %s, want %s UTC midnight", c.at, c.loc, got, c.want)
		}
	}
}

func TestDateCarriesOver(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		y    int
		m    time.Month
		d    int
		want string
	}{
		{2026, time.March, 1, "2026-03-01"},
		{2026, time.March, 0, "2026-02-28"},
		{2028, time.March, 0, "2028-02-29"},
		{2026, 13, 5, "2027-01-05"},
		{2026, time.February, 31, "2026-03-03"},
	} {
		got := calendar.Date(c.y, c.m, c.d)
		if got.Format(time.DateOnly) != c.want || got.Location() != time.UTC || !got.Equal(got.Truncate(24*time.Hour)) {
			t.Errorf("Date(%d, %d, %d) = %s, want %s UTC midnight", c.y, c.m, c.d, got, c.want)
		}
	}
}
