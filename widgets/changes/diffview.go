package changes

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// DiffView shows one file's unified diff: a gutter of old and new line
// numbers, added and removed lines tinted, each hunk's header in a band
// carrying the hunk's action buttons, the text coloured as the chat
// colours code.
//
// Its cost follows the screen: lines have one fixed height, so line i sits
// at i*height and only the lines in view (and a few around) have objects.
// Long lines are not wrapped: the view scrolls sideways, up to
// maxLineCells cells; past that a line is cut.
type DiffView struct {
	widget.BaseWidget

	// OnHunkAction runs when the user taps one of the buttons
	// SetHunkActions put on every hunk's header row.
	OnHunkAction func(hunk int, label string)

	diff    Diff
	lines   []Line     // diff.Lines
	shown   shownTexts // their texts as drawn
	labels  []string
	focused bool
	sel     lineSelection // rows, not lines, side by side
	split   bool          // side by side
	rows    []diffRow     // the side-by-side rows

	body   *diffBody
	scroll *container.Scroll
	// note shows Diff.Note, wrapped: git's words can be long.
	note *widget.Label
}

var (
	_ fyne.Focusable    = (*DiffView)(nil)
	_ fyne.Shortcutable = (*DiffView)(nil)
)

// NewDiffView is an empty diff view.
func NewDiffView() *DiffView {
	v := &DiffView{sel: noSelection()}
	v.note = widget.NewLabel("")
	v.note.Wrapping = fyne.TextWrapWord
	v.note.Alignment = fyne.TextAlignCenter
	v.note.Importance = widget.LowImportance
	v.body = newDiffBody(v)
	v.scroll = container.NewScroll(v.body)
	v.scroll.OnScrolled = func(fyne.Position) { v.body.draw() }
	v.ExtendBaseWidget(v)
	return v
}

// Set shows d from its top.
func (v *DiffView) Set(d Diff) {
	v.diff = d
	v.lines = d.Lines
	v.shown = newShownTexts(d.Lines)
	v.rows = nil
	if v.split {
		v.rows = sideRows(d.Lines)
	}
	v.sel = noSelection()
	v.body.reset()
	v.scroll.Offset = fyne.Position{}
	note := ""
	if len(d.Lines) == 0 {
		note = d.Note
	}
	v.note.SetText(note)
	v.scroll.Refresh() // sizes the body for the new lines and draws it
	v.body.draw()
	v.Refresh()
}

// SetHunkActions names the buttons drawn on every hunk's header row, left
// to right ("Revert", "Stage"); none by default.
func (v *DiffView) SetHunkActions(labels ...string) {
	v.labels = append([]string(nil), labels...)
	v.body.reset()
	v.body.draw()
}

// Text is the whole diff as unified-diff text, for Copy.
func (v *DiffView) Text() string { return v.diff.Text() }

func (v *DiffView) CreateRenderer() fyne.WidgetRenderer { return &diffViewRenderer{v: v} }

// ScrollTo puts the content's point y at the top of the view, clamped.
func (v *DiffView) ScrollTo(x, y float32) {
	content, view := v.body.MinSize(), v.scroll.Size()
	x = max(min(x, content.Width-view.Width), 0)
	y = max(min(y, content.Height-view.Height), 0)
	v.scroll.ScrollToOffset(fyne.NewPos(x, y))
	v.body.draw()
}

// Offset is where the view is scrolled to.
func (v *DiffView) Offset() fyne.Position { return v.scroll.Offset }

func (v *DiffView) FocusGained()   { v.focused = true }
func (v *DiffView) FocusLost()     { v.focused = false }
func (v *DiffView) TypedRune(rune) {}

// TypedKey scrolls: arrows by a line (or four cells sideways), Page Up and
// Down by a screen less a line, Home and End to the ends.
func (v *DiffView) TypedKey(ev *fyne.KeyEvent) {
	off, rowH := v.scroll.Offset, v.body.m.rowH
	page := max(v.scroll.Size().Height-rowH, rowH)
	switch ev.Name {
	case fyne.KeyUp:
		v.ScrollTo(off.X, off.Y-rowH)
	case fyne.KeyDown:
		v.ScrollTo(off.X, off.Y+rowH)
	case fyne.KeyLeft:
		v.ScrollTo(off.X-4*v.body.m.cell.Width, off.Y)
	case fyne.KeyRight:
		v.ScrollTo(off.X+4*v.body.m.cell.Width, off.Y)
	case fyne.KeyPageUp:
		v.ScrollTo(off.X, off.Y-page)
	case fyne.KeyPageDown:
		v.ScrollTo(off.X, off.Y+page)
	case fyne.KeyHome:
		v.ScrollTo(0, 0)
	case fyne.KeyEnd:
		v.ScrollTo(0, v.body.MinSize().Height)
	case fyne.KeyEscape:
		v.sel = noSelection()
		v.body.draw()
	}
}

// TypedShortcut copies the selected lines for Ctrl+C, or the whole diff
// when none are selected.
func (v *DiffView) TypedShortcut(s fyne.Shortcut) {
	if _, ok := s.(*fyne.ShortcutCopy); ok {
		text := v.SelectedText()
		if text == "" {
			text = v.Text()
		}
		if a := fyne.CurrentApp(); a != nil {
			a.Clipboard().SetContent(text)
		}
	}
}

// focus takes the keyboard when the user clicks the diff.
func (v *DiffView) focus() {
	if v.focused {
		return
	}
	if c := fyne.CurrentApp().Driver().CanvasForObject(v); c != nil {
		c.Focus(v)
	}
}

type diffViewRenderer struct{ v *DiffView }

func (r *diffViewRenderer) Layout(size fyne.Size) {
	v := r.v
	v.scroll.Resize(size)
	pad := v.Theme().Size(theme.SizeNameInnerPadding)
	v.note.Move(fyne.NewPos(pad, pad))
	v.note.Resize(fyne.NewSize(max(size.Width-2*pad, 0), max(size.Height-2*pad, 0)))
	v.body.draw()
}

func (r *diffViewRenderer) MinSize() fyne.Size { return fyne.NewSize(100, 60) }

func (r *diffViewRenderer) Refresh() {
	r.Layout(r.v.Size())
	r.v.note.Refresh()
}

func (r *diffViewRenderer) Objects() []fyne.CanvasObject {
	if r.v.note.Text != "" {
		return []fyne.CanvasObject{r.v.note}
	}
	return []fyne.CanvasObject{r.v.scroll}
}

func (r *diffViewRenderer) Destroy() {}
