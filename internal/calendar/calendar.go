// Package calendar is how the service counts days and months. A day is a
// calendar date held as UTC midnight, which is how PostgreSQL date columns
// arrive and how dates are compared; the date is that of the service time
// zone (APP_TIMEZONE), never of UTC. A month is a member's ledger month,
// which begins on the day of the month the member chose.
package calendar

import "time"

// Day is the calendar day of t in loc, as UTC midnight.
func Day(t time.Time, loc *time.Location) time.Time {
	y, m, d := t.In(loc).Date()
	return Date(y, m, d)
}

// Date is the date y-m-d as UTC midnight. As with time.Date, values out of
// range carry over: day 0 is the last day of the month before.
func Date(year int, month time.Month, day int) time.Time {
	return time.Date(year, month, day, 0, 0, 0, 0, time.UTC)
}
