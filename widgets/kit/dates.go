package kit

import (
	"fmt"
	"time"
)

// RelativeDate says when something in a list of sessions happened:
// relative while that is quicker to read ("5 min ago", "yesterday 09:12"),
// a date after a week.
func RelativeDate(t, now time.Time) string {
	if t.IsZero() {
		return ""
	}
	t, now = t.Local(), now.Local()
	d := now.Sub(t)
	day := func(x time.Time) time.Time { return time.Date(x.Year(), x.Month(), x.Day(), 0, 0, 0, 0, time.Local) }
	days := int(day(now).Sub(day(t)).Hours()/24 + 0.5)
	switch {
	case d < time.Minute && d > -time.Minute:
		return "just now"
	case d > 0 && d < time.Hour:
		return fmt.Sprintf("%d min ago", int(d/time.Minute))
	case days == 0:
		return "today " + t.Format("15:04")
	case days == 1:
		return "yesterday " + t.Format("15:04")
	case days > 1 && days < 7:
		return t.Format("Mon 15:04")
	case t.Year() == now.Year():
		return t.Format("2 Jan")
	}
	return t.Format("2 Jan 2006")
}
