package widgets

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
)

// tagPill is a short word on a tinted rounded background: a session's
// "current" mark, an entry's label, a command's source. It is two canvas
// objects rather than a widget so that list rows stay cheap.
type tagPill struct {
	bg   *canvas.Rectangle
	text *canvas.Text
}

func newTagPill() *tagPill {
	t := &tagPill{bg: canvas.NewRectangle(nil), text: canvas.NewText("", nil)}
	t.text.TextStyle.Bold = true
	return t
}

// set gives the pill its word and colour: the text in tone, the background
// a faint wash of it, which reads on light and dark themes alike.
func (t *tagPill) set(th fyne.Theme, word string, tone color.Color) {
	t.text.Text = word
	t.text.TextSize = th.Size(theme.SizeNameCaptionText)
	t.text.Color = tone
	t.bg.FillColor = withAlpha(tone, 0x2a)
	t.bg.CornerRadius = th.Size(theme.SizeNameInputRadius)
}

func (t *tagPill) size(th fyne.Theme) fyne.Size {
	if t.text.Text == "" {
		return fyne.Size{}
	}
	s := fyne.MeasureText(t.text.Text, t.text.TextSize, t.text.TextStyle)
	p := th.Size(theme.SizeNamePadding)
	return fyne.NewSize(s.Width+2*p, s.Height)
}

// place puts the pill with its left edge at x, centred on midY, and says
// how wide it is; an empty pill is hidden and takes no room.
func (t *tagPill) place(th fyne.Theme, x, midY float32) float32 {
	s := t.size(th)
	if s.Width == 0 {
		t.hide()
		return 0
	}
	t.bg.Show()
	t.text.Show()
	t.bg.Move(fyne.NewPos(x, midY-s.Height/2))
	t.bg.Resize(s)
	p := th.Size(theme.SizeNamePadding)
	t.text.Move(fyne.NewPos(x+p, midY-s.Height/2))
	t.text.Resize(s.SubtractWidthHeight(2*p, 0))
	return s.Width
}

// hide takes the pill off the row, for a row too narrow to show it.
func (t *tagPill) hide() {
	t.bg.Hide()
	t.text.Hide()
}
