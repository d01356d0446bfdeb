package widgets

import (
	"fmt"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"knightcode.ai/desktop/model"
)

func sampleNotices(n int) []model.Notice {
	t0 := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	out := []model.Notice{
		{Time: t0.Add(-24 * time.Hour), Text: "Yesterday's notice", Level: model.NoticeInfo, Source: "git-status"},
		{Time: t0, Text: "Extension \"lint\" failed in tool_call handler:\nTypeError: cannot read properties of undefined (reading 'path')\n    at lint.ts:42:13", Level: model.NoticeError, Source: "lint"},
		{Time: t0.Add(time.Minute), Text: "<b>plain</b> & a warning with no source", Level: model.NoticeWarning},
	}
	for i := 0; i < n; i++ {
		out = append(out, model.Notice{Time: t0.Add(time.Duration(i+2) * time.Minute), Text: fmt.Sprint("notice ", i), Level: model.NoticeLevel(i % 3), Source: "bulk"})
	}
	return out
}

func TestNotificationList(t *testing.T) {
	test.NewTempApp(t)
	l := NewNotificationList()
	l.now = func() time.Time { return time.Date(2026, 11, 30, 18, 0, 0, 0, time.UTC) }
	w := test.NewTempWindow(t, l)
	w.Resize(fyne.NewSize(600, 400))
	test.AssertRendersToMarkup(t, "notificationlist/empty.xml", w.Canvas())

	l.SetNotices(sampleNotices(0))
	if l.notices[0].Text != "<b>plain</b> & a warning with no source" {
		t.Fatalf("first row %q, want the newest", l.notices[0].Text)
	}
	l.list.Select(1)
	test.AssertRendersToMarkup(t, "notificationlist/selected.xml", w.Canvas())

	// A longer history keeps the selection on the same notice, and builds
	// rows only for what is on screen.
	l.SetNotices(sampleNotices(500))
	if l.selected < 0 || l.notices[l.selected].Source != "lint" {
		t.Fatalf("selection lost: %d", l.selected)
	}
	rows := 0
	for _, o := range test.LaidOutObjects(l.list) {
		if _, ok := o.(*noticeRow); ok {
			rows++
		}
	}
	if rows == 0 || rows > 30 {
		t.Fatalf("%d rows built for 503 notices", rows)
	}
	l.SetNotices(nil)
	if l.selected != -1 || len(l.notices) != 0 {
		t.Fatal("clearing kept a selection")
	}
}

func TestNotificationListShots(t *testing.T) {
	saveShots(t, "notificationlist", fyne.NewSize(600, 400), func() fyne.CanvasObject {
		l := NewNotificationList()
		l.now = func() time.Time { return time.Date(2026, 11, 30, 18, 0, 0, 0, time.UTC) }
		l.SetNotices(sampleNotices(12))
		l.list.Select(13)
		return l
	})
}
