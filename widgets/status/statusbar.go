package status

import (
	"fmt"
	"image/color"
	"maps"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/widgets/kit"
)

// statusContextWidth is the width of the context-usage bar.
const statusContextWidth = 80

// StatusBar is the line at the bottom of the window: connection, tokens,
// cost, context usage, what the agent is busy with, and extension status.
type StatusBar struct {
	widget.BaseWidget

	st   model.Status
	have bool

	dot    *canvas.Circle
	conn   *canvas.Text
	tokens *canvas.Text
	cost   *canvas.Text
	// The context meter: an outlined track, filled as far as the context
	// is used. Empty or unknown, only the outline shows: a filled track
	// (widget.ProgressBar's) reads as full.
	ctxTrack *canvas.Rectangle
	ctxFill  *canvas.Rectangle
	// ctxValue is how full the meter is, 0–1; ctxLevel its colour.
	ctxValue float64
	ctxLevel model.ContextLevel
	ctxText  *canvas.Text
	activity *canvas.Text
	ext      *canvas.Text
	extFull  string
	objects  []fyne.CanvasObject
}

// NewStatusBar returns a bar showing nothing yet.
func NewStatusBar() *StatusBar {
	b := &StatusBar{}
	b.ExtendBaseWidget(b)
	return b
}

// SetStatus shows st, touching only the parts whose values changed.
func (b *StatusBar) SetStatus(st model.Status) {
	old, had := b.st, b.have
	b.st, b.have = st, true
	if b.conn == nil {
		return // drawn in full when the renderer is made
	}
	relayout := false
	set := func(t *canvas.Text, s string) {
		if t.Text != s {
			t.Text = s
			t.Refresh()
			relayout = true
		}
	}
	if !had || old.Connected != st.Connected || old.Running != st.Running || old.Exited != st.Exited || old.Ended != st.Ended {
		b.styleDot()
	}
	set(b.conn, st.Connection)
	set(b.tokens, tokensText(st.TokensIn, st.TokensOut))
	set(b.cost, costText(st.Cost))
	if !had || old.ContextPercent != st.ContextPercent || old.ContextTokens != st.ContextTokens ||
		old.ContextWindow != st.ContextWindow {
		b.setContext()
		relayout = true
	}
	set(b.activity, st.Activity)
	b.activity.Hidden = st.Activity == ""
	if !had || !maps.Equal(old.Extension, st.Extension) {
		b.extFull = extensionText(st.Extension)
		relayout = true
	}
	if relayout {
		b.Arrange(b.Size())
	}
}

func (b *StatusBar) styleDot() {
	th := b.Theme()
	v := fyne.CurrentApp().Settings().ThemeVariant()
	name := theme.ColorNameWarning // starting
	switch {
	case b.st.Ended:
		name = theme.ColorNamePlaceHolder
	case b.st.Exited:
		name = theme.ColorNameError
	case b.st.Connected && b.st.Running:
		name = theme.ColorNamePrimary
	case b.st.Connected:
		name = theme.ColorNameSuccess
	}
	b.dot.FillColor = th.Color(name, v)
	b.dot.Refresh()
}

func (b *StatusBar) setContext() {
	text, value, level := b.st.ContextMeter()
	if b.ctxText.Text != text {
		b.ctxText.Text = text
		b.ctxText.Refresh()
	}
	if b.ctxValue != value || b.ctxLevel != level {
		b.ctxValue, b.ctxLevel = value, level
		b.styleContext()
	}
}

// styleContext colours the meter; layout sizes its fill.
func (b *StatusBar) styleContext() {
	th := b.Theme()
	v := fyne.CurrentApp().Settings().ThemeVariant()
	b.ctxTrack.FillColor = color.Transparent
	b.ctxTrack.StrokeColor = th.Color(theme.ColorNameInputBorder, v)
	b.ctxTrack.StrokeWidth = 1
	name := theme.ColorNamePrimary
	switch b.ctxLevel {
	case model.ContextNearlyFull:
		name = theme.ColorNameWarning
	case model.ContextOver:
		name = theme.ColorNameError
	}
	b.ctxFill.FillColor = th.Color(name, v)
	b.ctxFill.Hidden = b.ctxValue <= 0
	b.ctxText.Color = th.Color(theme.ColorNamePlaceHolder, v)
	if b.ctxLevel == model.ContextOver {
		b.ctxText.Color = th.Color(theme.ColorNameError, v)
	}
	b.ctxTrack.Refresh()
	b.ctxFill.Refresh()
	b.ctxText.Refresh()
}

func tokensText(in, out int) string {
	return model.CompactCount(in) + " in · " + model.CompactCount(out) + " out"
}

func costText(c float64) string {
	if c >= 1 || c == 0 {
		return fmt.Sprintf("$%.2f", c)
	}
	return fmt.Sprintf("$%.4f", c)
}

// extensionText joins extension statuses in key order, so they do not
// shuffle between updates.
func extensionText(m map[string]string) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if v := kit.OneLine(m[k]); v != "" {
			parts = append(parts, v)
		}
	}
	return strings.Join(parts, " · ")
}

func (b *StatusBar) CreateRenderer() fyne.WidgetRenderer {
	b.dot = canvas.NewCircle(nil)
	b.conn = canvas.NewText("", nil)
	b.tokens = canvas.NewText("", nil)
	b.cost = canvas.NewText("", nil)
	b.ctxTrack = canvas.NewRectangle(color.Transparent)
	b.ctxFill = canvas.NewRectangle(color.Transparent)
	b.ctxText = canvas.NewText("", nil)
	b.activity = canvas.NewText("", nil)
	b.ext = canvas.NewText("", nil)
	b.objects = []fyne.CanvasObject{b.dot, b.conn, b.tokens, b.cost, b.ctxTrack, b.ctxFill, b.ctxText, b.activity, b.ext}
	r := &statusBarRenderer{b: b}
	st, had := b.st, b.have
	b.have = false
	b.SetStatus(st)
	b.have = had
	r.Refresh()
	return r
}

func (b *StatusBar) texts() []*canvas.Text {
	return []*canvas.Text{b.conn, b.tokens, b.cost, b.ctxText, b.activity, b.ext}
}

// Arrange implements kit.SelfLaying: it places the bar's texts and meter
// for size.
func (b *StatusBar) Arrange(size fyne.Size) {
	th := b.Theme()
	pad := th.Size(theme.SizeNamePadding)
	gap := th.Size(theme.SizeNameInnerPadding) * 1.5
	textSize := th.Size(theme.SizeNameCaptionText)
	lineH := fyne.MeasureText("Mg", textSize, fyne.TextStyle{}).Height
	mid := size.Height / 2

	x := pad
	d := lineH / 2
	b.dot.Move(fyne.NewPos(x, mid-d/2))
	b.dot.Resize(fyne.NewSquareSize(d))
	x += d + pad
	place := func(t *canvas.Text) {
		if t.Hidden || t.Text == "" {
			return
		}
		s := fyne.MeasureText(t.Text, t.TextSize, t.TextStyle)
		t.Move(fyne.NewPos(x, mid-s.Height/2))
		t.Resize(s)
		x += s.Width + gap
	}
	b.giveWay(size.Width-x-pad, gap, pad)
	place(b.conn)
	place(b.tokens)
	place(b.cost)
	ch := pad * 1.5
	b.ctxTrack.Move(fyne.NewPos(x, mid-ch/2))
	b.ctxTrack.Resize(fyne.NewSize(statusContextWidth, ch))
	b.ctxTrack.CornerRadius = ch / 2
	// A sliver of use still shows as a round dot, not a hairline.
	fill := max(float32(min(b.ctxValue, 1))*statusContextWidth, ch)
	b.ctxFill.Move(fyne.NewPos(x, mid-ch/2))
	b.ctxFill.Resize(fyne.NewSize(fill, ch))
	b.ctxFill.CornerRadius = ch / 2
	x += statusContextWidth + pad
	place(b.ctxText)
	place(b.activity)

	// Refreshed only when its text changes: Fyne lays the bar out again at
	// the paint after its figures change width, and a refresh there would
	// mark the canvas dirty, repainting the window once more for nothing.
	ext := kit.FitText(b.extFull, max(0, size.Width-x-pad), textSize, b.ext.TextStyle)
	es := fyne.MeasureText(ext, textSize, b.ext.TextStyle)
	b.ext.Move(fyne.NewPos(size.Width-pad-es.Width, mid-es.Height/2))
	b.ext.Resize(es)
	if ext != b.ext.Text {
		b.ext.Text = ext
		b.ext.Refresh()
	}
}

// giveWay leaves out, in a narrow bar, what matters least, so the context
// meter and its figure stay whole: first the tokens, then the cost, then
// the connection's word (its dot stays). room is the width after the dot.
func (b *StatusBar) giveWay(room, gap, pad float32) {
	width := func(t *canvas.Text) float32 {
		if t.Text == "" {
			return 0
		}
		return fyne.MeasureText(t.Text, t.TextSize, t.TextStyle).Width + gap
	}
	need := statusContextWidth + pad + width(b.ctxText)
	for _, t := range []*canvas.Text{b.conn, b.cost, b.tokens} {
		need += width(t)
	}
	for _, t := range []*canvas.Text{b.tokens, b.cost, b.conn} {
		left := need > room
		if left {
			need -= width(t)
		}
		if t.Hidden != left {
			t.Hidden = left
			t.Refresh()
		}
	}
}

type statusBarRenderer struct {
	b *StatusBar
}

func (r *statusBarRenderer) Destroy() {}

func (r *statusBarRenderer) Objects() []fyne.CanvasObject { return r.b.objects }

func (r *statusBarRenderer) Layout(size fyne.Size) { r.b.Arrange(size) }

func (r *statusBarRenderer) MinSize() fyne.Size {
	th := r.b.Theme()
	pad := th.Size(theme.SizeNamePadding)
	lineH := fyne.MeasureText("Mg", th.Size(theme.SizeNameCaptionText), fyne.TextStyle{}).Height
	return fyne.NewSize(statusContextWidth+2*pad, lineH+3*pad)
}

// Refresh restyles after a theme change.
func (r *statusBarRenderer) Refresh() {
	b := r.b
	th := b.Theme()
	v := fyne.CurrentApp().Settings().ThemeVariant()
	for _, t := range b.texts() {
		t.TextSize = th.Size(theme.SizeNameCaptionText)
		t.Color = th.Color(theme.ColorNameForeground, v)
	}
	b.tokens.Color = th.Color(theme.ColorNamePlaceHolder, v)
	b.cost.Color = th.Color(theme.ColorNamePlaceHolder, v)
	b.ext.Color = th.Color(theme.ColorNamePlaceHolder, v)
	b.activity.Color = th.Color(theme.ColorNameWarning, v)
	b.styleDot()
	b.styleContext()
	b.Arrange(b.Size())
	canvas.Refresh(b)
}
