package kit

import (
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// KeyList is a widget.List driven by its selection: arrows, Page Up/Down,
// Home and End move the selected row and Enter activates it. widget.List
// moves a separate focus highlight instead and gives Enter no meaning,
// which shows two cursors in a list whose rows open on Enter; so this one
// never lets the List see its focus.
type KeyList struct {
	widget.List

	// OnActivate runs for Enter and for a double click on a row (a single
	// one when tapActivates).
	OnActivate func(id widget.ListItemID)
	// OnSelect follows the selection, whoever moved it.
	OnSelect func(id widget.ListItemID)
	// OnEscape, onRune and onLeaveTop hand Esc, typed characters and Up on
	// the first row back to the search box that owns the list.
	OnEscape   func()
	OnRune     func(r rune)
	OnLeaveTop func()
	// TapActivates makes one click run a row, as in a menu.
	TapActivates bool
	// NoSelectOnFocus leaves nothing selected when the list takes the
	// focus: where picking is a decision (a dialog's options), the first
	// arrow key picks the first row instead.
	NoSelectOnFocus bool

	Sel       widget.ListItemID
	focused   bool
	RowHeight float32
	Created   int // rows built: the virtualisation tests count them

	lastTap   widget.ListItemID
	lastTapAt time.Time
	Now       func() time.Time
}

var (
	_ fyne.Focusable = (*KeyList)(nil)
	_ fyne.Tappable  = (*KeyRow)(nil)
)

// NewKeyList is a list of length() rows made by create and filled by
// update, as widget.NewList, with nothing selected.
func NewKeyList(length func() int, create func() fyne.CanvasObject, update func(widget.ListItemID, fyne.CanvasObject)) *KeyList {
	l := &KeyList{Sel: -1, lastTap: -1, Now: time.Now}
	l.Length = length
	l.CreateItem = func() fyne.CanvasObject {
		o := create()
		l.Created++
		l.RowHeight = o.MinSize().Height
		return o
	}
	l.UpdateItem = update
	l.OnSelected = func(id widget.ListItemID) {
		l.Sel = id
		if l.OnSelect != nil {
			l.OnSelect(id)
		}
	}
	l.OnUnselected = func(id widget.ListItemID) {
		if l.Sel == id {
			l.Sel = -1
		}
	}
	l.ExtendBaseWidget(l)
	return l
}

// Count is how many rows there are (0 with no Length).
func (l *KeyList) Count() int {
	if l.Length == nil {
		return 0
	}
	return l.Length()
}

// SelectRow selects id, clamped to the rows there are; with no rows it
// clears the selection.
func (l *KeyList) SelectRow(id widget.ListItemID) {
	n := l.Count()
	if n == 0 {
		if l.Sel >= 0 {
			l.UnselectAll()
		}
		return
	}
	id = min(max(id, 0), n-1)
	if id == l.Sel {
		return
	}
	// Select redraws the rows before it reports the change; rows that
	// look different when selected need to know already.
	l.Sel = id
	l.Select(id)
}

// Reset forgets the selection after the rows changed under it and selects
// id afresh (none when id < 0).
func (l *KeyList) Reset(id widget.ListItemID) {
	l.Sel = -1
	l.List.UnselectAll()
	if n := l.Count(); id >= 0 && n > 0 {
		l.Sel = min(id, n-1)
		l.Select(l.Sel) // refreshes
		return
	}
	l.Refresh()
}

// Step moves the selection by delta rows, clamped; with nothing selected
// it selects the first row.
func (l *KeyList) Step(delta int) {
	if l.Sel < 0 {
		l.SelectRow(0)
		return
	}
	l.SelectRow(l.Sel + delta)
}

// Page is how many rows Page Up and Page Down move: one less than fit in
// view, at least one (10 before any row was made).
func (l *KeyList) Page() int {
	if l.RowHeight <= 0 {
		return 10
	}
	return max(1, int(l.Size().Height/(l.RowHeight+l.Theme().Size(theme.SizeNamePadding)))-1)
}

func (l *KeyList) activate() {
	if l.Sel >= 0 && l.Sel < l.Count() && l.OnActivate != nil {
		l.OnActivate(l.Sel)
	}
}

// FocusGained shows where the keyboard is by selecting the first row when
// nothing is selected. The List's own focus highlight stays off.
func (l *KeyList) FocusGained() {
	l.focused = true
	if l.Sel < 0 && !l.NoSelectOnFocus {
		l.SelectRow(0)
	}
}

func (l *KeyList) FocusLost() { l.focused = false }

func (l *KeyList) TypedKey(ev *fyne.KeyEvent) {
	switch ev.Name {
	case fyne.KeyUp:
		if l.Sel <= 0 && l.OnLeaveTop != nil {
			l.OnLeaveTop()
			return
		}
		l.Step(-1)
	case fyne.KeyDown:
		l.Step(1)
	case fyne.KeyPageUp:
		l.Step(-l.Page())
	case fyne.KeyPageDown:
		l.Step(l.Page())
	case fyne.KeyHome:
		l.SelectRow(0)
	case fyne.KeyEnd:
		l.SelectRow(l.Count() - 1)
	case fyne.KeyReturn, fyne.KeyEnter:
		l.activate()
	case fyne.KeyEscape:
		if l.OnEscape != nil {
			l.OnEscape()
		}
	}
}

func (l *KeyList) TypedRune(r rune) {
	if l.OnRune != nil {
		l.OnRune(r)
	}
}

// tapped handles a click on row id. Rows take clicks themselves (the List
// would only select), so a second click on the same row soon after the
// first can open it without delaying every single click the way a
// DoubleTappable row would.
func (l *KeyList) tapped(id widget.ListItemID) {
	if l.TapActivates {
		l.SelectRow(id)
		l.activate()
		return
	}
	now := l.Now()
	double := id == l.lastTap && now.Sub(l.lastTapAt) <= doubleClickDelay()
	l.lastTap, l.lastTapAt = id, now
	if !l.focused {
		if c := fyne.CurrentApp().Driver().CanvasForObject(l); c != nil {
			c.Focus(l)
		}
	}
	l.SelectRow(id)
	if double {
		l.lastTap = -1
		l.activate()
	}
}

func doubleClickDelay() time.Duration {
	if a := fyne.CurrentApp(); a != nil {
		return a.Driver().DoubleTapDelay()
	}
	return 300 * time.Millisecond
}

// KeyRow is embedded by row widgets to send their clicks to the list.
type KeyRow struct {
	List *KeyList
	Id   widget.ListItemID
}

func (r *KeyRow) Tapped(*fyne.PointEvent) {
	if r.List != nil {
		r.List.tapped(r.Id)
	}
}
