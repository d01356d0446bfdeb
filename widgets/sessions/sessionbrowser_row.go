package sessions

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/widgets/kit"
)

// sessionRow draws one session in two lines: a warning mark when it has a
// problem, its title in bold, a "current" tag and its date; then the
// problem, folder, message count and model in small print.
type sessionRow struct {
	widget.BaseWidget
	kit.KeyRow

	b       *SessionBrowser
	row     model.SessionRow
	warn    *canvas.Image
	title   *canvas.Text
	date    *canvas.Text
	problem *canvas.Text
	meta    *canvas.Text
	current *kit.TagPill
	// marks tint the query's words in a message hit's snippet.
	marks [maxSnippetMarks]*canvas.Rectangle
}

// maxSnippetMarks is how many matches of a snippet are tinted: a snippet
// is a line of a few words.
const maxSnippetMarks = 6

func (b *SessionBrowser) newRow() fyne.CanvasObject {
	r := &sessionRow{b: b, KeyRow: kit.KeyRow{List: b.list}, current: kit.NewTagPill()}
	r.warn = canvas.NewImageFromResource(theme.NewWarningThemedResource(theme.WarningIcon()))
	r.warn.FillMode = canvas.ImageFillContain
	r.title = canvas.NewText("", nil)
	r.title.TextStyle.Bold = true
	r.date = canvas.NewText("", nil)
	r.problem = canvas.NewText("", nil)
	r.meta = canvas.NewText("", nil)
	for i := range r.marks {
		r.marks[i] = canvas.NewRectangle(nil)
		r.marks[i].CornerRadius = 2
		r.marks[i].Hide()
	}
	r.ExtendBaseWidget(r)
	r.Restyle()
	return r
}

func (b *SessionBrowser) updateRow(id widget.ListItemID, o fyne.CanvasObject) {
	r := o.(*sessionRow)
	r.Id = id
	if id < 0 || id >= len(b.shown) {
		return
	}
	r.row = b.sessions[b.shown[id]]
	r.date.Text = kit.RelativeDate(r.row.Modified, b.now())
	r.Arrange(r.Size())
	canvas.Refresh(r)
}

func (r *sessionRow) CreateRenderer() fyne.WidgetRenderer { return &kit.SelfRenderer{W: r} }

func (r *sessionRow) Restyle() {
	th := r.Theme()
	text, caption := th.Size(theme.SizeNameText), th.Size(theme.SizeNameCaptionText)
	r.title.TextSize = text
	r.title.Color = kit.ResolveColor(th, theme.ColorNameForeground)
	for _, t := range []*canvas.Text{r.date, r.meta, r.problem} {
		t.TextSize = caption
		t.Color = kit.ResolveColor(th, theme.ColorNamePlaceHolder)
	}
	r.problem.Color = kit.ResolveColor(th, theme.ColorNameWarning)
	r.current.Set(th, "current", kit.ResolveColor(th, theme.ColorNamePrimary))
	for _, m := range r.marks {
		m.FillColor = kit.WithAlpha(kit.ResolveColor(th, theme.ColorNamePrimary), 0x48)
	}
}

func (r *sessionRow) metrics() (pad, titleH, captionH float32) {
	th := r.Theme()
	pad = th.Size(theme.SizeNamePadding)
	titleH = fyne.MeasureText("Hg", r.title.TextSize, r.title.TextStyle).Height
	captionH = fyne.MeasureText("Hg", r.meta.TextSize, fyne.TextStyle{}).Height
	return
}

func (r *sessionRow) HeightAt(float32) float32 {
	pad, titleH, captionH := r.metrics()
	return 2*pad + titleH + captionH
}

func (r *sessionRow) Arrange(size fyne.Size) {
	th := r.Theme()
	pad, titleH, captionH := r.metrics()
	inner := th.Size(theme.SizeNameInnerPadding)
	x, right := inner, size.Width-inner
	mid := pad + titleH/2

	dw := fyne.MeasureText(r.date.Text, r.date.TextSize, r.date.TextStyle)
	r.date.Move(fyne.NewPos(right-dw.Width, mid-dw.Height/2))
	r.date.Resize(dw)
	right -= dw.Width + inner

	if r.row.Problem != "" {
		icon := titleH * 0.9
		r.warn.Show()
		r.warn.Move(fyne.NewPos(x, mid-icon/2))
		r.warn.Resize(fyne.NewSquareSize(icon))
		x += icon + pad
	} else {
		r.warn.Hide()
	}
	title := kit.FirstTextLine(r.row.Title)
	r.title.TextStyle = fyne.TextStyle{Bold: title != "", Italic: title == ""}
	r.title.Color = kit.ResolveColor(th, theme.ColorNameForeground)
	if title == "" {
		title = "Untitled session"
		r.title.Color = kit.ResolveColor(th, theme.ColorNamePlaceHolder)
	}
	if !r.row.Current {
		r.current.Text.Text = ""
	} else {
		r.current.Text.Text = "current"
		right -= r.current.Size(th).Width + pad
	}
	r.title.Text = fitTitle(title, max(0, right-x), r.title.TextSize, r.title.TextStyle)
	tw := fyne.MeasureText(r.title.Text, r.title.TextSize, r.title.TextStyle)
	r.title.Move(fyne.NewPos(x, pad))
	r.title.Resize(fyne.NewSize(tw.Width, titleH))
	r.current.Place(th, x+tw.Width+pad, mid)

	// The second line starts under the title, past the warning mark.
	y := pad + titleH
	x2, avail := inner, size.Width-2*inner
	r.problem.Text = kit.FitText(r.row.Problem, avail, r.problem.TextSize, r.problem.TextStyle)
	pw := float32(0)
	if r.problem.Text != "" {
		r.problem.Text += " · "
		pw = fyne.MeasureText(r.problem.Text, r.problem.TextSize, r.problem.TextStyle).Width
	}
	r.problem.Move(fyne.NewPos(x2, y))
	r.problem.Resize(fyne.NewSize(pw, captionH))
	meta := sessionMeta(r.row)
	h, hit := r.b.MessageHit(r.row.Path)
	lead := ""
	if hit {
		lead = h.Who + ": “"
		meta = lead + h.Snippet + "”"
	}
	r.meta.Text = kit.FitText(meta, max(0, avail-pw), r.meta.TextSize, r.meta.TextStyle)
	r.meta.Move(fyne.NewPos(x2+pw, y))
	r.meta.Resize(fyne.NewSize(max(0, avail-pw), captionH))
	var matches [][2]int
	if hit {
		matches = h.Matches
	}
	r.placeMarks(matches, len(lead), meta, x2+pw, y, captionH)
}

// placeMarks tints the matches (byte ranges of the snippet, which starts
// at lead in full) as far as the fitted line shows them.
func (r *sessionRow) placeMarks(matches [][2]int, lead int, full string, x, y, h float32) {
	shown := r.meta.Text
	if shown != full {
		// Fitted: the text up to its ellipsis is full's.
		shown = strings.TrimSuffix(shown, "…")
	}
	n := 0
	for _, m := range matches {
		start, end := lead+m[0], min(lead+m[1], len(shown))
		if n == len(r.marks) || start >= end || !strings.HasPrefix(full, shown) {
			break
		}
		x0 := fyne.MeasureText(shown[:start], r.meta.TextSize, r.meta.TextStyle).Width
		x1 := fyne.MeasureText(shown[:end], r.meta.TextSize, r.meta.TextStyle).Width
		mk := r.marks[n]
		mk.Move(fyne.NewPos(x+x0-1, y))
		mk.Resize(fyne.NewSize(x1-x0+2, h))
		mk.Show()
		n++
	}
	for _, mk := range r.marks[n:] {
		mk.Hide()
	}
}

func (r *sessionRow) Parts() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.warn, r.title, r.current.Bg, r.current.Text, r.date, r.problem,
		r.marks[0], r.marks[1], r.marks[2], r.marks[3], r.marks[4], r.marks[5], r.meta}
}

// sessionMeta is the small print under a session's title.
func sessionMeta(s model.SessionRow) string {
	parts := make([]string, 0, 3)
	if s.Subtitle != "" {
		parts = append(parts, s.Subtitle)
	}
	parts = append(parts, plural(s.Messages, "message", "messages"))
	if s.Model != "" {
		parts = append(parts, s.Model)
	}
	if s.From != "" {
		parts = append(parts, "from: "+s.From)
	}
	return strings.Join(parts, " · ")
}

// fitTitle cuts a title to width, keeping a fork's edit mark (model's
// ForkName: " (edited)", " (edited 2)", …) at its end: an edited fork and
// its session differ only there, and a plain cut would hide it.
func fitTitle(title string, width, size float32, style fyne.TextStyle) string {
	i := strings.LastIndex(title, model.EditedMarkStart)
	if i <= 0 || !strings.HasSuffix(title, ")") || fyne.MeasureText(title, size, style).Width <= width {
		return kit.FitText(title, width, size, style)
	}
	mark := title[i:]
	if w := fyne.MeasureText(mark, size, style).Width; w < width/2 {
		return kit.FitText(title[:i], width-w, size, style) + mark
	}
	return kit.FitText(title, width, size, style)
}
