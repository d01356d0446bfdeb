package sessions

import (
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"knightcode.ai/desktop/model"
)

// previewChars bounds each message's text in the preview: it is a glance,
// the transcript opens with Enter.
const previewChars = 600

// previewNone is what the preview says with no session chosen.
const previewNone = "Choose a session to see its last messages."

// sessionPreview shows the chosen session's last messages, read-only, from
// its file: who wrote each and when (the date too when not today).
type sessionPreview struct {
	box    *fyne.Container
	scroll *container.Scroll
	path   string
	now    func() time.Time
}

func newSessionPreview(now func() time.Time) *sessionPreview {
	p := &sessionPreview{box: container.NewVBox(), now: now}
	p.scroll = container.NewVScroll(container.NewPadded(p.box))
	p.say(previewNone)
	return p
}

func (p *sessionPreview) say(text string) {
	l := widget.NewLabel(text)
	l.Importance = widget.LowImportance
	l.Wrapping = fyne.TextWrapWord
	p.box.Objects = []fyne.CanvasObject{l}
	p.box.Refresh()
	// A line said after a long preview would sit above the part scrolled to.
	if p.scroll != nil {
		p.scroll.ScrollToTop()
	}
}

// show puts up msgs, oldest first, scrolled to the newest.
func (p *sessionPreview) show(msgs []model.PreviewMessage, err error) {
	switch {
	case err != nil:
		p.say("Cannot read this session: " + err.Error())
		return
	case len(msgs) == 0:
		p.say("No messages yet.")
		return
	}
	objs := make([]fyne.CanvasObject, 0, 2*len(msgs))
	for _, m := range msgs {
		head := widget.NewLabelWithStyle(m.Who+"  ·  "+previewTime(m.When, p.now()), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		head.SizeName = theme.SizeNameCaptionText
		body := widget.NewLabel(cutText(m.Text, previewChars))
		body.Wrapping = fyne.TextWrapWord
		objs = append(objs, head, body)
	}
	p.box.Objects = objs
	// Laid out at the scroll's width first: wrapped labels know their
	// height only then, and the bottom depends on it.
	p.scroll.Refresh()
	p.scroll.ScrollToBottom()
}

// previewTime is the time of day for today's messages, with the date for
// older ones (day before month, as kit.RelativeDate writes it).
func previewTime(t, now time.Time) string {
	if t.IsZero() {
		return ""
	}
	y1, m1, d1 := t.Date()
	y2, m2, d2 := now.Date()
	switch {
	case y1 == y2 && m1 == m2 && d1 == d2:
		return t.Format("15:04")
	case y1 == y2:
		return t.Format("2 Jan, 15:04")
	}
	return t.Format("2 Jan 2006, 15:04")
}

func cutText(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
