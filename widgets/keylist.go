package widgets

import (
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// keyList is a widget.List driven by its selection: arrows, Page Up/Down,
// Home and End move the selected row and Enter activates it. widget.List
// moves a separate focus highlight instead and gives Enter no meaning,
// which shows two cursors in a list whose rows open on Enter; so this one
// never lets the List see its focus.
type keyList struct {
	widget.List

	// onActivate runs for Enter and for a double click on a row (a single
	// one when tapActivates).
	onActivate func(id widget.ListItemID)
	// onSelect follows the selection, whoever moved it.
	onSelect func(id widget.ListItemID)
	// onEscape, onRune and onLeaveTop hand Esc, typed characters and Up on
	// the first row back to the search box that owns the list.
	onEscape   func()
	onRune     func(r rune)
	onLeaveTop func()
	// tapActivates makes one click run a row, as in a menu.
	tapActivates bool
	// noSelectOnFocus leaves nothing selected when the list takes the
	// focus: where picking is a decision (a dialog's options), the first
	// arrow key picks the first row instead.
	noSelectOnFocus bool

	sel       widget.ListItemID
	focused   bool
	rowHeight float32
	created   int // rows built: the virtualisation tests count them

	lastTap   widget.ListItemID
	lastTapAt time.Time
	now       func() time.Time
}

var (
	_ fyne.Focusable = (*keyList)(nil)
	_ fyne.Tappable  = (*keyRow)(nil)
)

func newKeyList(length func() int, create func() fyne.CanvasObject, update func(widget.ListItemID, fyne.CanvasObject)) *keyList {
	l := &keyList{sel: -1, lastTap: -1, now: time.Now}
	l.Length = length
	l.CreateItem = func() fyne.CanvasObject {
		o := create()
		l.created++
		l.rowHeight = o.MinSize().Height
		return o
	}
	l.UpdateItem = update
	l.OnSelected = func(id widget.ListItemID) {
		l.sel = id
		if l.onSelect != nil {
			l.onSelect(id)
		}
	}
	l.OnUnselected = func(id widget.ListItemID) {
		if l.sel == id {
			l.sel = -1
		}
	}
	l.ExtendBaseWidget(l)
	return l
}

func (l *keyList) count() int {
	if l.Length == nil {
		return 0
	}
	return l.Length()
}

// selectRow selects id, clamped to the rows there are; with no rows it
// clears the selection.
func (l *keyList) selectRow(id widget.ListItemID) {
	n := l.count()
	if n == 0 {
		if l.sel >= 0 {
			l.UnselectAll()
		}
		return
	}
	id = min(max(id, 0), n-1)
	if id == l.sel {
		return
	}
	// Select redraws the rows before it reports the change; rows that
	// look different when selected need to know already.
	l.sel = id
	l.Select(id)
}

// reset forgets the selection after the rows changed under it and selects
// id afresh (none when id < 0).
func (l *keyList) reset(id widget.ListItemID) {
	l.sel = -1
	l.List.UnselectAll()
	if n := l.count(); id >= 0 && n > 0 {
		l.sel = min(id, n-1)
		l.Select(l.sel) // refreshes
		return
	}
	l.Refresh()
}

func (l *keyList) step(delta int) {
	if l.sel < 0 {
		l.selectRow(0)
		return
	}
	l.selectRow(l.sel + delta)
}

func (l *keyList) page() int {
	if l.rowHeight <= 0 {
		return 10
	}
	return max(1, int(l.Size().Height/(l.rowHeight+l.Theme().Size(theme.SizeNamePadding)))-1)
}

func (l *keyList) activate() {
	if l.sel >= 0 && l.sel < l.count() && l.onActivate != nil {
		l.onActivate(l.sel)
	}
}

// FocusGained shows where the keyboard is by selecting the first row when
// nothing is selected. The List's own focus highlight stays off.
func (l *keyList) FocusGained() {
	l.focused = true
	if l.sel < 0 && !l.noSelectOnFocus {
		l.selectRow(0)
	}
}

func (l *keyList) FocusLost() { l.focused = false }

func (l *keyList) TypedKey(ev *fyne.KeyEvent) {
	switch ev.Name {
	case fyne.KeyUp:
		if l.sel <= 0 && l.onLeaveTop != nil {
			l.onLeaveTop()
			return
		}
		l.step(-1)
	case fyne.KeyDown:
		l.step(1)
	case fyne.KeyPageUp:
		l.step(-l.page())
	case fyne.KeyPageDown:
		l.step(l.page())
	case fyne.KeyHome:
		l.selectRow(0)
	case fyne.KeyEnd:
		l.selectRow(l.count() - 1)
	case fyne.KeyReturn, fyne.KeyEnter:
		l.activate()
	case fyne.KeyEscape:
		if l.onEscape != nil {
			l.onEscape()
		}
	}
}

func (l *keyList) TypedRune(r rune) {
	if l.onRune != nil {
		l.onRune(r)
	}
}

// tapped handles a click on row id. Rows take clicks themselves (the List
// would only select), so a second click on the same row soon after the
// first can open it without delaying every single click the way a
// DoubleTappable row would.
func (l *keyList) tapped(id widget.ListItemID) {
	if l.tapActivates {
		l.selectRow(id)
		l.activate()
		return
	}
	now := l.now()
	double := id == l.lastTap && now.Sub(l.lastTapAt) <= doubleClickDelay()
	l.lastTap, l.lastTapAt = id, now
	if !l.focused {
		if c := fyne.CurrentApp().Driver().CanvasForObject(l); c != nil {
			c.Focus(l)
		}
	}
	l.selectRow(id)
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

// keyRow is embedded by row widgets to send their clicks to the list.
type keyRow struct {
	list *keyList
	id   widget.ListItemID
}

func (r *keyRow) Tapped(*fyne.PointEvent) {
	if r.list != nil {
		r.list.tapped(r.id)
	}
}
