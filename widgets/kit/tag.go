package kit

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
)

// TagPill is a short word on a tinted rounded background: a session's
// "current" mark, an entry's label, a command's source. It is two canvas
// objects rather than a widget so that list rows stay cheap.
type TagPill struct {
	Bg   *canvas.Rectangle
	Text *canvas.Text
}

// NewTagPill is an empty pill in bold text; Set gives it its word.
func NewTagPill() *TagPill {
	t := &TagPill{Bg: canvas.NewRectangle(nil), Text: canvas.NewText("", nil)}
	t.Text.TextStyle.Bold = true
	return t
}

// Set gives the pill its word and colour: the text in tone, the background
// a faint wash of it, which reads on light and dark themes alike.
func (t *TagPill) Set(th fyne.Theme, word string, tone color.Color) {
	t.Text.Text = word
	t.Text.TextSize = th.Size(theme.SizeNameCaptionText)
	t.Text.Color = tone
	t.Bg.FillColor = WithAlpha(tone, 0x2a)
	t.Bg.CornerRadius = th.Size(theme.SizeNameInputRadius)
}

func (t *TagPill) Size(th fyne.Theme) fyne.Size {
	if t.Text.Text == "" {
		return fyne.Size{}
	}
	s := fyne.MeasureText(t.Text.Text, t.Text.TextSize, t.Text.TextStyle)
	p := th.Size(theme.SizeNamePadding)
	return fyne.NewSize(s.Width+2*p, s.Height)
}

// Place puts the pill with its left edge at x, centred on midY, and says
// how wide it is; an empty pill is hidden and takes no room.
func (t *TagPill) Place(th fyne.Theme, x, midY float32) float32 {
	s := t.Size(th)
	if s.Width == 0 {
		t.Hide()
		return 0
	}
	t.Bg.Show()
	t.Text.Show()
	t.Bg.Move(fyne.NewPos(x, midY-s.Height/2))
	t.Bg.Resize(s)
	p := th.Size(theme.SizeNamePadding)
	t.Text.Move(fyne.NewPos(x+p, midY-s.Height/2))
	t.Text.Resize(s.SubtractWidthHeight(2*p, 0))
	return s.Width
}

// Hide takes the pill off the row, for a row too narrow to show it.
func (t *TagPill) Hide() {
	t.Bg.Hide()
	t.Text.Hide()
}
