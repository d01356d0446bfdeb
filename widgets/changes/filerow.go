package changes

import (
	"image/color"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"knightcode.ai/desktop/widgets/kit"
)

// fileRow draws one changed file: a coloured status letter, a dot when it
// has staged changes, the path with its folder dimmed and the line counts
// at the right.
type fileRow struct {
	widget.BaseWidget
	kit.KeyRow

	fl      *FileList
	f       File
	status  *canvas.Text
	staged  *canvas.Circle
	dir     *canvas.Text
	name    *canvas.Text
	added   *canvas.Text
	deleted *canvas.Text
}

func (l *FileList) newRow() fyne.CanvasObject {
	r := &fileRow{fl: l, KeyRow: kit.KeyRow{List: l.list}, staged: canvas.NewCircle(nil)}
	r.status = &canvas.Text{TextStyle: fyne.TextStyle{Bold: true}}
	r.dir, r.name = &canvas.Text{}, &canvas.Text{}
	r.added, r.deleted = &canvas.Text{}, &canvas.Text{}
	r.ExtendBaseWidget(r)
	return r
}

func (l *FileList) updateRow(id widget.ListItemID, o fyne.CanvasObject) {
	r := o.(*fileRow)
	r.Id = id
	if id < 0 || id >= len(l.files) {
		return
	}
	r.f = l.files[id]
	r.Arrange(r.Size())
	canvas.Refresh(r)
}

func (r *fileRow) CreateRenderer() fyne.WidgetRenderer { return &kit.SelfRenderer{W: r} }

func (r *fileRow) Parts() []fyne.CanvasObject {
	parts := []fyne.CanvasObject{r.status, r.dir, r.name, r.added, r.deleted}
	if r.f.Staged {
		parts = append(parts, r.staged)
	}
	return parts
}

func (r *fileRow) Restyle() {
	th := r.Theme()
	size := th.Size(theme.SizeNameText)
	for _, t := range []*canvas.Text{r.status, r.dir, r.name, r.added, r.deleted} {
		t.TextSize = size
	}
	r.staged.FillColor = kit.ResolveColor(th, theme.ColorNamePrimary)
}

func (r *fileRow) HeightAt(float32) float32 {
	th := r.Theme()
	return fyne.MeasureText("Hg", th.Size(theme.SizeNameText), fyne.TextStyle{}).Height + 2*th.Size(theme.SizeNamePadding)
}

// statusColor is A green, D red, the others the accent.
func statusColor(th fyne.Theme, s byte) color.Color {
	switch s {
	case 'A':
		return kit.ResolveColor(th, theme.ColorNameSuccess)
	case 'D':
		return kit.ResolveColor(th, theme.ColorNameError)
	}
	return kit.ResolveColor(th, theme.ColorNamePrimary)
}

// shownPath is the path as a row writes it, "old → new" for a rename.
func shownPath(f File) string {
	if f.OldPath != "" && f.OldPath != f.Path {
		return f.OldPath + " → " + f.Path
	}
	return f.Path
}

// counts is what the right of the row says: "+N −M", "binary" or "mode".
func counts(f File) (added, deleted string) {
	switch {
	case f.Binary:
		return "binary", ""
	case f.ModeOnly:
		return "mode", ""
	}
	return "+" + strconv.Itoa(f.Added), "−" + strconv.Itoa(f.Deleted)
}

func (r *fileRow) Arrange(size fyne.Size) {
	r.Restyle()
	th := r.Theme()
	pad, inner := th.Size(theme.SizeNamePadding), th.Size(theme.SizeNameInnerPadding)
	fg, dim := kit.ResolveColor(th, theme.ColorNameForeground), kit.ResolveColor(th, theme.ColorNamePlaceHolder)
	place := func(t *canvas.Text, x float32) float32 {
		s := t.MinSize()
		t.Move(fyne.NewPos(x, (size.Height-s.Height)/2))
		t.Resize(s)
		return s.Width
	}

	r.status.Text = string(r.f.Status)
	r.status.Color = statusColor(th, r.f.Status)
	place(r.status, inner)
	// The paths line up whatever the letter: its column is as wide as the
	// widest.
	x := inner + fyne.MeasureText("M", r.status.TextSize, r.status.TextStyle).Width + pad
	dot := th.Size(theme.SizeNameCaptionText) / 2
	r.staged.Move(fyne.NewPos(x, (size.Height-dot)/2))
	r.staged.Resize(fyne.NewSquareSize(dot))
	x += dot + pad

	// The counts sit at the right edge, removed last.
	r.added.Text, r.deleted.Text = counts(r.f)
	r.added.Color, r.deleted.Color = kit.ResolveColor(th, theme.ColorNameSuccess), kit.ResolveColor(th, theme.ColorNameError)
	// A zero says nothing happened on that side: dimmed, as are the words.
	if r.deleted.Text == "" || r.f.Added == 0 {
		r.added.Color = dim
	}
	if r.f.Deleted == 0 {
		r.deleted.Color = dim
	}
	right := size.Width - inner
	right -= place(r.deleted, right-r.deleted.MinSize().Width)
	if r.deleted.Text != "" {
		right -= pad
	}
	right -= place(r.added, right-r.added.MinSize().Width)

	// The path, cut from the left so the file's name stays; its folder
	// dimmed.
	path := cutLeft(shownPath(r.f), max(right-inner-x, 0), r.name.TextSize)
	dir, name := "", path
	if i := strings.LastIndexByte(path, '/'); i >= 0 && r.f.OldPath == "" {
		dir, name = path[:i+1], path[i+1:]
	}
	r.dir.Text, r.dir.Color = dir, dim
	r.name.Text, r.name.Color = name, fg
	x += place(r.dir, x)
	place(r.name, x)
}

// cutLeft shortens s from the left to fit width, starting it with "…".
func cutLeft(s string, width, size float32) string {
	if fyne.MeasureText(s, size, fyne.TextStyle{}).Width <= width {
		return s
	}
	runes := []rune(s)
	lo, hi := 0, len(runes) // the fewest runes to drop, searched in [lo, hi]
	for lo < hi {
		mid := (lo + hi) / 2
		if fyne.MeasureText("…"+string(runes[mid:]), size, fyne.TextStyle{}).Width <= width {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return "…" + string(runes[lo:])
}
