package calendar

import (
	"fmt"
	"time"
)

// Month is a member's ledger month. A member whose month begins on day d
// (1..28, member.month_start_day) has month m run from day d of m to the
// day before day d of the next month: with 25, November is 25 November to
// 24 December. Start day 1 is the calendar month.
type Month struct {
	year     int
	month    time.Month
	startDay int
}

// NewMonth is month of year for a member whose month begins on startDay; a
// start day outside 1..28 counts as 1.
func NewMonth(year int, month time.Month, startDay int) Month {
	if startDay < 1 || startDay > 28 {
		startDay = 1
	}
	first := Date(year, month, 1) // carries a month out of 1..12 into the year
	return Month{year: first.Year(), month: first.Month(), startDay: startDay}
}

// MonthOf is the month that holds day (its date in its own location; a Day
// value is in UTC) for a member whose month begins on startDay.
func MonthOf(day time.Time, startDay int) Month {
	y, m, d := day.Date()
	mo := NewMonth(y, m, startDay)
	if d < mo.startDay {
		return mo.Add(-1)
	}
	return mo
}

// Year is the year of the calendar month in which m begins.
func (m Month) Year() int { return m.year }

// Month is the calendar month in which m begins.
func (m Month) Month() time.Month { return m.month }

// StartDay is the day of the month on which m begins.
func (m Month) StartDay() int { return m.startDay }

// From is m's first day.
func (m Month) From() time.Time { return Date(m.year, m.month, m.startDay) }

// To is the day after m's last day: m is the half-open range [From, To).
func (m Month) To() time.Time { return Date(m.year, m.month+1, m.startDay) }

// Last is m's last day.
func (m Month) Last() time.Time { return m.To().AddDate(0, 0, -1) }

// Contains reports whether the day (a Day value) lies in m.
func (m Month) Contains(day time.Time) bool { return !day.Before(m.From()) && day.Before(m.To()) }

// MayCompleteOn reports whether an entry dated day can complete its month
// on today, and which month that is (the one holding today): no month is
// complete before its last day, and only entries of that month dated today
// or earlier count (DECISIONS 9). The month-complete bonus
// (budget.AwardMonthComplete) and the entry create's new-day probe
// (ledger) both ask it, so they cannot disagree. Days are Day values.
func MayCompleteOn(today time.Time, startDay int, day time.Time) (Month, bool) {
	month := MonthOf(today, startDay)
	return month, !today.Before(month.Last()) && month.Contains(day) && !day.After(today)
}

// Add is the month n months after m (before it for a negative n), with the
// same start day.
func (m Month) Add(n int) Month { return NewMonth(m.year, m.month+time.Month(n), m.startDay) }

// Key is m as yyyyMM (202611), as reasons and keys name a month.
func (m Month) Key() string { return fmt.Sprintf("%04d%02d", m.year, m.month) }
