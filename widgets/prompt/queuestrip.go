package prompt

import (
	"fmt"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"knightcode.ai/desktop/widgets/kit"
)

// queueStripMaxRows bounds the strip; the rest is counted in a last line.
const queueStripMaxRows = 4

// QueueStrip lists the messages waiting for the agent: prompts held until
// it has started, steering messages it takes at its next step and
// follow-ups it takes when done, under an optional note that says what
// happens to them. It hides itself when nothing waits.
type QueueStrip struct {
	widget.BaseWidget

	waiting, steering, followUp []string
	note                        string
	rows                        []queueRow
	more                        *canvas.Text
	noteText                    *canvas.Text
	objects                     []fyne.CanvasObject
}

type queueRow struct {
	pill *canvas.Rectangle
	tag  *canvas.Text
	text *canvas.Text
	full string // before fitting to the width
}

// NewQueueStrip returns an empty, hidden strip.
func NewQueueStrip() *QueueStrip {
	q := &QueueStrip{}
	q.ExtendBaseWidget(q)
	q.Hide()
	return q
}

// SetQueue shows the waiting messages, steering first as the agent takes
// them first.
func (q *QueueStrip) SetQueue(steering, followUp []string) {
	if slices.Equal(q.steering, steering) && slices.Equal(q.followUp, followUp) {
		return
	}
	q.steering, q.followUp = slices.Clone(steering), slices.Clone(followUp)
	q.changed()
}

// SetWaiting shows prompts the app holds until the agent can take them,
// before the agent's own queue.
func (q *QueueStrip) SetWaiting(texts []string) {
	if slices.Equal(q.waiting, texts) {
		return
	}
	q.waiting = slices.Clone(texts)
	q.changed()
}

// SetNote sets the line above the messages that says what becomes of them;
// empty for none.
func (q *QueueStrip) SetNote(note string) {
	if q.note == note {
		return
	}
	q.note = note
	q.changed()
}

// Note is the note shown.
func (q *QueueStrip) Note() string { return q.note }

func (q *QueueStrip) changed() {
	if len(q.waiting)+len(q.steering)+len(q.followUp) == 0 {
		q.Hide()
		return
	}
	if q.Visible() {
		q.Refresh()
	} else {
		q.Show()
	}
}

func (q *QueueStrip) CreateRenderer() fyne.WidgetRenderer {
	q.more = canvas.NewText("", nil)
	q.noteText = canvas.NewText("", nil)
	q.noteText.TextStyle.Italic = true
	r := &queueStripRenderer{q: q}
	r.Refresh()
	return r
}

type queueStripRenderer struct {
	q *QueueStrip
}

func (r *queueStripRenderer) Destroy() {}

func (r *queueStripRenderer) Objects() []fyne.CanvasObject { return r.q.objects }

func (r *queueStripRenderer) metrics() (pad, rowH, size float32) {
	th := r.q.Theme()
	size = th.Size(theme.SizeNameCaptionText)
	pad = th.Size(theme.SizeNamePadding)
	return pad, fyne.MeasureText("Mg", size, fyne.TextStyle{}).Height + pad, size
}

func (r *queueStripRenderer) MinSize() fyne.Size {
	pad, rowH, _ := r.metrics()
	n := len(r.q.rows)
	if !r.q.more.Hidden {
		n++
	}
	if !r.q.noteText.Hidden {
		n++
	}
	return fyne.NewSize(0, float32(n)*rowH+pad)
}

func (r *queueStripRenderer) Layout(size fyne.Size) {
	pad, rowH, textSize := r.metrics()
	tagW := float32(0)
	for _, row := range r.q.rows {
		tagW = max(tagW, fyne.MeasureText(row.tag.Text, textSize, row.tag.TextStyle).Width)
	}
	y := pad / 2
	if note := r.q.noteText; !note.Hidden {
		note.Text = kit.FitText(r.q.note, max(0, size.Width-2*pad), textSize, note.TextStyle)
		ns := fyne.MeasureText(note.Text, textSize, note.TextStyle)
		note.Move(fyne.NewPos(pad, y+(rowH-pad/2-ns.Height)/2))
		note.Resize(ns)
		y += rowH
	}
	for _, row := range r.q.rows {
		ts := fyne.MeasureText(row.tag.Text, textSize, row.tag.TextStyle)
		row.pill.Move(fyne.NewPos(pad, y))
		row.pill.Resize(fyne.NewSize(tagW+2*pad, rowH-pad/2))
		row.tag.Move(fyne.NewPos(2*pad+(tagW-ts.Width)/2, y+(rowH-pad/2-ts.Height)/2))
		row.tag.Resize(ts)
		x := tagW + 4*pad
		row.text.Text = kit.FitText(row.full, max(0, size.Width-x-pad), textSize, row.text.TextStyle)
		tx := fyne.MeasureText(row.text.Text, textSize, row.text.TextStyle)
		row.text.Move(fyne.NewPos(x, y+(rowH-pad/2-tx.Height)/2))
		row.text.Resize(tx)
		y += rowH
	}
	r.q.more.Move(fyne.NewPos(tagW+4*pad, y))
	r.q.more.Resize(r.q.more.MinSize())
}

// Refresh rebuilds the rows; the queue changes a few times a run at most.
func (r *queueStripRenderer) Refresh() {
	q := r.q
	th := q.Theme()
	v := fyne.CurrentApp().Settings().ThemeVariant()
	_, _, size := r.metrics()

	type item struct{ tag, text string }
	var items []item
	for _, s := range q.waiting {
		items = append(items, item{"waiting", s})
	}
	for _, s := range q.steering {
		items = append(items, item{"steer", s})
	}
	for _, s := range q.followUp {
		items = append(items, item{"follow-up", s})
	}
	shown := items
	if len(items) > queueStripMaxRows {
		shown = items[:queueStripMaxRows-1]
	}
	for len(q.rows) < len(shown) {
		row := queueRow{pill: canvas.NewRectangle(nil), tag: canvas.NewText("", nil), text: canvas.NewText("", nil)}
		row.tag.TextStyle.Bold = true
		q.rows = append(q.rows, row)
	}
	q.rows = q.rows[:len(shown)]
	q.objects = q.objects[:0]
	for i, it := range shown {
		row := &q.rows[i]
		row.full = kit.OneLine(it.text)
		row.tag.Text = it.tag
		row.tag.TextSize, row.text.TextSize = size, size
		row.text.Color = th.Color(theme.ColorNameForeground, v)
		row.pill.CornerRadius = th.Size(theme.SizeNameSelectionRadius)
		switch it.tag {
		case "steer":
			row.pill.FillColor = th.Color(theme.ColorNamePrimary, v)
			row.tag.Color = th.Color(theme.ColorNameForegroundOnPrimary, v)
		case "waiting":
			row.pill.FillColor = th.Color(theme.ColorNameDisabledButton, v)
			row.tag.Color = th.Color(theme.ColorNameForeground, v)
		default:
			row.pill.FillColor = th.Color(theme.ColorNameButton, v)
			row.tag.Color = th.Color(theme.ColorNameForeground, v)
		}
		q.objects = append(q.objects, row.pill, row.tag, row.text)
	}
	q.more.Hidden = len(items) == len(shown)
	q.more.Text = fmt.Sprintf("… and %d more", len(items)-len(shown))
	q.more.TextSize = size
	q.more.Color = th.Color(theme.ColorNamePlaceHolder, v)
	q.objects = append(q.objects, q.more)
	q.noteText.Hidden = q.note == ""
	q.noteText.TextSize = size
	q.noteText.Color = th.Color(theme.ColorNamePlaceHolder, v)
	q.objects = append(q.objects, q.noteText)
	r.Layout(q.Size())
	canvas.Refresh(q)
}
