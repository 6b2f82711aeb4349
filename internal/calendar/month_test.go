package calendar_test

import (
	"testing"
	"time"

	"github.com/nestegg/nestegg/internal/calendar"
)

func TestMonthRange(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		start            int
		year             int
		month            time.Month
		from, last, to   string
		wantYear, wantNo int // the month's name after NewMonth's carry
		key              string
	}{
		{1, 2026, time.December, "2026-12-01", "2026-12-31", "2027-01-01", 2026, 12, "202612"},
		{1, 2026, time.February, "2026-02-01", "2026-02-28", "2026-03-01", 2026, 2, "202602"},
		{1, 2028, time.February, "2028-02-01", "2028-02-29", "2028-03-01", 2028, 2, "202802"},
		{25, 2026, time.November, "2026-11-25", "2026-12-24", "2026-12-25", 2026, 11, "202611"},
		{25, 2026, time.December, "2026-12-25", "2027-01-24", "2027-01-25", 2026, 12, "202612"},
		{25, 2027, time.January, "2027-01-25", "2027-02-24", "2027-02-25", 2027, 1, "202701"},
		{28, 2027, time.January, "2027-01-28", "2027-02-27", "2027-02-28", 2027, 1, "202701"},
		{28, 2027, time.February, "2027-02-28", "2027-03-27", "2027-03-28", 2027, 2, "202702"},
		{28, 2028, time.February, "2028-02-28", "2028-03-27", "2028-03-28", 2028, 2, "202802"},
		{5, 2026, time.November, "2026-11-05", "2026-12-04", "2026-12-05", 2026, 11, "202611"},
		// A start day outside 1..28 is the calendar month.
		{0, 2026, time.March, "2026-03-01", "2026-03-31", "2026-04-01", 2026, 3, "202603"},
		{31, 2026, time.March, "2026-03-01", "2026-03-31", "2026-04-01", 2026, 3, "202603"},
		// A month out of 1..12 carries into the year.
		{25, 2026, 13, "2027-01-25", "2027-02-24", "2027-02-25", 2027, 1, "202701"},
		{1, 2026, 0, "2025-12-01", "2025-12-31", "2026-01-01", 2025, 12, "202512"},
	} {
		m := calendar.NewMonth(c.year, c.month, c.start)
		got := [3]string{m.From().Format(time.DateOnly), m.Last().Format(time.DateOnly), m.To().Format(time.DateOnly)}
		if got != [3]string{c.from, c.last, c.to} {
			t.Errorf("start %d, %d-%02d: from, last, to %v, want %s %s %s", c.start, c.year, c.month, got, c.from, c.last, c.to)
		}
		if m.Year() != c.wantYear || int(m.Month()) != c.wantNo || m.Key() != c.key {
			t.Errorf("start %d, %d-%02d: named %d-%02d (%s), want %d-%02d (%s)", c.start, c.year, c.month, m.Year(), m.Month(), m.Key(), c.wantYear, c.wantNo, c.key)
		}
		for _, d := range []time.Time{m.From(), m.To(), m.Last()} {
			if d.Location() != time.UTC || d.Hour() != 0 {
				t.Errorf("start %d, %d-%02d: %s is not a UTC midnight", c.start, c.year, c.month, d)
			}
		}
	}
}

func TestMonthOfHoldsEveryDayOfItsMonth(t *testing.T) {
	t.Parallel()
	for _, start := range []int{1, 5, 25, 28} {
		// Two years and a leap day: 2027 to 2028.
		for m := calendar.NewMonth(2027, time.January, start); m.Year() < 2029; m = m.Add(1) {
			for d := m.From(); d.Before(m.To()); d = d.AddDate(0, 0, 1) {
				if got := calendar.MonthOf(d, start); got != m {
					t.Fatalf("start %d: %s is in %s, want %s", start, d.Format(time.DateOnly), got.Key(), m.Key())
				}
				if !m.Contains(d) {
					t.Fatalf("start %d: %s does not contain %s", start, m.Key(), d.Format(time.DateOnly))
				}
			}
			if m.Contains(m.To()) || m.Contains(m.From().AddDate(0, 0, -1)) {
				t.Fatalf("start %d: %s contains a day around it", start, m.Key())
			}
			if next := m.Add(1); !next.From().Equal(m.To()) || next.Add(-1) != m {
				t.Fatalf("start %d: %s is not followed by %s", start, m.Key(), next.Key())
			}
		}
	}
}

func TestMonthOf(t *testing.T) {
	t.Parallel()
	seoul, err := time.LoadLocation("Asia/Seoul")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		day   time.Time
		start int
		want  string
	}{
		{calendar.Date(2026, time.December, 24), 25, "202611"},
		{calendar.Date(2026, time.December, 25), 25, "202612"},
		{calendar.Date(2027, time.January, 1), 25, "202612"},
		{calendar.Date(2027, time.January, 24), 25, "202612"},
		{calendar.Date(2027, time.January, 25), 25, "202701"},
		{calendar.Date(2027, time.January, 1), 1, "202701"},
		{calendar.Date(2026, time.December, 31), 1, "202612"},
		{calendar.Date(2028, time.February, 29), 28, "202802"},
		{calendar.Date(2028, time.February, 27), 28, "202801"},
		{calendar.Date(2027, time.March, 27), 28, "202702"},
		// A time in its own location: its date there.
		{time.Date(2027, time.January, 25, 0, 30, 0, 0, seoul), 25, "202701"},
		{time.Date(2027, time.January, 24, 23, 59, 0, 0, seoul), 25, "202612"},
	} {
		if got := calendar.MonthOf(c.day, c.start).Key(); got != c.want {
			t.Errorf("MonthOf(%s, %d) = %s, want %s", c.day, c.start, got, c.want)
		}
	}
}

func TestMonthAdd(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		from calendar.Month
		n    int
		want string
	}{
		{calendar.NewMonth(2026, time.December, 25), 1, "2027-01-25"},
		{calendar.NewMonth(2027, time.January, 25), -1, "2026-12-25"},
		{calendar.NewMonth(2027, time.January, 1), -23, "2025-02-01"},
		{calendar.NewMonth(2026, time.March, 28), 11, "2027-02-28"},
		{calendar.NewMonth(2026, time.March, 28), 0, "2026-03-28"},
	} {
		got := c.from.Add(c.n)
		if got.From().Format(time.DateOnly) != c.want || got.StartDay() != c.from.StartDay() {
			t.Errorf("%s (start %d) + %d = from %s (start %d), want %s", c.from.Key(), c.from.StartDay(), c.n, got.From(), got.StartDay(), c.want)
		}
	}
}

func TestMayCompleteOn(t *testing.T) {
	for _, c := range []struct {
		name            string
		today, day      time.Time
		startDay        int
		want            bool
		wantMonthFromTo string
	}{
		{"the last day, a past day of the month", calendar.Date(2026, 11, 30), calendar.Date(2026, 11, 12), 1, true, "2026-11-01 2026-12-01"},
		{"the last day, today", calendar.Date(2026, 11, 30), calendar.Date(2026, 11, 30), 1, true, "2026-11-01 2026-12-01"},
		{"the day before the last", calendar.Date(2026, 11, 29), calendar.Date(2026, 11, 12), 1, false, "2026-11-01 2026-12-01"},
		{"an entry of the month before", calendar.Date(2026, 11, 30), calendar.Date(2026, 10, 31), 1, false, "2026-11-01 2026-12-01"},
		{"payday month, its last day", calendar.Date(2026, 12, 24), calendar.Date(2026, 11, 25), 25, true, "2026-11-25 2026-12-25"},
		{"payday month, the calendar month's last day", calendar.Date(2026, 11, 30), calendar.Date(2026, 11, 26), 25, false, "2026-11-25 2026-12-25"},
	} {
		month, got := calendar.MayCompleteOn(c.today, c.startDay, c.day)
		span := month.From().Format(time.DateOnly) + " " + month.To().Format(time.DateOnly)
		if got != c.want || span != c.wantMonthFromTo {
			t.Errorf("%s: %v in month %s, want %v in %s", c.name, got, span, c.want, c.wantMonthFromTo)
		}
	}
}
