package sessions

import (
	"image/color"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/widgets/kit"
)

// treeRow draws one entry: branch lines, a kind icon, the entry's line of
// text, its label and leaf tags and its time.
type treeRow struct {
	widget.BaseWidget
	kit.KeyRow

	t     *SessionTree
	row   model.TreeRow
	guide treeGuide
	lines []*canvas.Line // pooled: a row needs one per line it crosses
	used  int
	objs  []fyne.CanvasObject
	icon  *canvas.Image
	text  *canvas.Text
	when  *canvas.Text
	label *kit.TagPill
	leaf  *kit.TagPill
}

func (t *SessionTree) newRow() fyne.CanvasObject {
	r := &treeRow{t: t, KeyRow: kit.KeyRow{List: t.list}, label: kit.NewTagPill(), leaf: kit.NewTagPill()}
	r.icon = canvas.NewImageFromResource(nil)
	r.icon.FillMode = canvas.ImageFillContain
	r.text = canvas.NewText("", nil)
	r.when = canvas.NewText("", nil)
	r.ExtendBaseWidget(r)
	return r
}

func (t *SessionTree) updateRow(id widget.ListItemID, o fyne.CanvasObject) {
	r := o.(*treeRow)
	r.Id = id
	if id < 0 || id >= t.count() {
		return
	}
	i := t.at(id)
	r.row, r.guide = t.rows[i], t.guides.g[i]
	if t.filtering {
		r.guide = treeGuide{elbow: -1} // a flat list: no branch lines
	}
	r.Restyle()
	r.Arrange(r.Size())
	canvas.Refresh(r)
}

func (r *treeRow) CreateRenderer() fyne.WidgetRenderer { return &kit.SelfRenderer{W: r} }

func (r *treeRow) Restyle() {
	th := r.Theme()
	fg, dim := theme.ColorNameForeground, theme.ColorNamePlaceHolder
	var icon fyne.Resource = theme.NewThemedResource(treeKindIcon(r.row.Kind))
	if !r.row.OnActiveBranch {
		fg = theme.ColorNamePlaceHolder
		icon = theme.NewDisabledResource(icon)
	}
	if r.icon.Resource == nil || r.icon.Resource.Name() != icon.Name() {
		r.icon.Resource = icon
		r.icon.Refresh()
	}
	r.text.TextSize = th.Size(theme.SizeNameText)
	r.text.TextStyle = fyne.TextStyle{Bold: r.row.Kind == "user" || r.row.IsLeaf}
	r.text.Color = kit.ResolveColor(th, fg)
	r.when.TextSize = th.Size(theme.SizeNameCaptionText)
	r.when.Color = kit.ResolveColor(th, dim)
	lineCol := treeLineColor(th)
	for _, l := range r.lines {
		l.StrokeColor = lineCol
	}
	r.label.Set(th, r.row.Label, kit.ResolveColor(th, theme.ColorNameSuccess))
	leafWord := ""
	if r.row.IsLeaf {
		leafWord = "current"
	}
	r.leaf.Set(th, leafWord, kit.ResolveColor(th, theme.ColorNamePrimary))
}

func (r *treeRow) metrics() (pad, icon, col, lineH float32) {
	th := r.Theme()
	pad = th.Size(theme.SizeNamePadding)
	icon = th.Size(theme.SizeNameInlineIcon) * 0.8
	col = icon + pad
	lineH = fyne.MeasureText("Hg", th.Size(theme.SizeNameText), fyne.TextStyle{}).Height
	return
}

func (r *treeRow) HeightAt(float32) float32 {
	pad, icon, _, lineH := r.metrics()
	return max(icon, lineH) + pad
}

// treeMinText is the room a row's text keeps before tags give way.
const treeMinText = 80

func (r *treeRow) Arrange(size fyne.Size) {
	th := r.Theme()
	pad, icon, _, _ := r.metrics()
	inner := th.Size(theme.SizeNameInnerPadding)
	mid := size.Height / 2
	x := r.layoutGuides(size)

	r.icon.Move(fyne.NewPos(x, mid-icon/2))
	r.icon.Resize(fyne.NewSquareSize(icon))
	x += icon + pad

	right := size.Width - inner
	r.when.Text = treeTime(r.row.Time, r.t.now())
	ws := fyne.MeasureText(r.when.Text, r.when.TextSize, r.when.TextStyle)
	r.when.Move(fyne.NewPos(right-ws.Width, mid-ws.Height/2))
	r.when.Resize(ws)
	right -= ws.Width + pad
	// Tags give way to the text when the row is narrow.
	if w := r.leaf.Size(th).Width; w > 0 && right-w-pad-x >= treeMinText {
		right -= w
		r.leaf.Place(th, right, mid)
		right -= pad
	} else {
		r.leaf.Hide()
	}
	lw := r.label.Size(th).Width
	if lw > 0 && right-x-lw-pad < treeMinText {
		lw = 0
	}
	avail := right - x
	if lw > 0 {
		avail -= lw + pad
	}
	r.text.Text = kit.FitText(kit.FirstTextLine(r.row.Text), max(0, avail), r.text.TextSize, r.text.TextStyle)
	ts := fyne.MeasureText(r.text.Text, r.text.TextSize, r.text.TextStyle)
	r.text.Move(fyne.NewPos(x, mid-ts.Height/2))
	r.text.Resize(ts)
	if lw > 0 {
		r.label.Place(th, x+ts.Width+pad, mid)
	} else {
		r.label.Hide()
	}
}

// layoutGuides draws the branch lines and returns where the icon goes.
// Indentation takes at most two fifths of the row, so deep branches on a
// narrow panel keep their text; lines past that stop.
func (r *treeRow) layoutGuides(size fyne.Size) float32 {
	pad, icon, col, _ := r.metrics()
	inner := r.Theme().Size(theme.SizeNameInnerPadding)
	mid := size.Height / 2
	// Rows sit a padding apart; lines reach up into that gap so that
	// they join the row above.
	top, bottom := -pad, size.Height
	colX := func(c int) float32 { return inner + float32(c)*col + icon/2 }
	cols := min(treeMaxIndent, int(size.Width*2/5/col))

	r.used = 0
	g := r.guide
	for c := range cols {
		if g.rails&(1<<c) != 0 {
			r.Line(colX(c), top, colX(c), bottom)
		}
	}
	if e := int(g.elbow); e >= 0 && e < cols {
		end := mid
		if g.tee {
			end = bottom
		}
		r.Line(colX(e), top, colX(e), end)
		r.Line(colX(e), mid, inner+float32(e+1)*col-pad/2, mid)
	}
	indent := min(int(g.indent), cols)
	x := inner + float32(indent)*col
	if g.down && indent < cols {
		r.Line(x+icon/2, mid+icon/2, x+icon/2, bottom)
	}
	for _, l := range r.lines[r.used:] {
		l.Hide()
	}
	return x
}

// Line shows the next pooled line from (x1,y1) to (x2,y2).
func (r *treeRow) Line(x1, y1, x2, y2 float32) {
	if r.used == len(r.lines) {
		l := canvas.NewLine(treeLineColor(r.Theme()))
		l.StrokeWidth = 1
		r.lines = append(r.lines, l)
		r.objs = nil
	}
	l := r.lines[r.used]
	r.used++
	l.Position1, l.Position2 = fyne.NewPos(x1, y1), fyne.NewPos(x2, y2)
	l.Show()
	l.Refresh()
}

// objects is asked for on every repaint, so the slice is kept until the
// pool of lines grows.
func (r *treeRow) Parts() []fyne.CanvasObject {
	if r.objs == nil {
		r.objs = make([]fyne.CanvasObject, 0, len(r.lines)+7)
		for _, l := range r.lines {
			r.objs = append(r.objs, l)
		}
		r.objs = append(r.objs, r.icon, r.text, r.label.Bg, r.label.Text, r.leaf.Bg, r.leaf.Text, r.when)
	}
	return r.objs
}

// treeLineColor is the colour of branch lines: the text colour, faded so
// the lines stay behind the words in both variants.
func treeLineColor(th fyne.Theme) color.Color {
	return kit.WithAlpha(kit.ResolveColor(th, theme.ColorNameForeground), 0x55)
}

// treeTime is an entry's time: the clock alone for today.
func treeTime(t, now time.Time) string {
	if t.IsZero() {
		return ""
	}
	t, now = t.Local(), now.Local()
	if t.Year() == now.Year() && t.YearDay() == now.YearDay() {
		return t.Format("15:04")
	}
	if t.Year() == now.Year() {
		return t.Format("2 Jan 15:04")
	}
	return t.Format("2 Jan 2006")
}
