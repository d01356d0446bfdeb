package chat

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// FindBar is the "find in the transcript" strip (Ctrl+F): a query field,
// where the current match stands ("3 of 17"), previous and next, close.
// Typing searches at once; Enter and F3 go to the next match, Shift with
// them to the previous one, Esc closes.
type FindBar struct {
	widget.BaseWidget

	// OnChanged gets the query as it is typed; OnNext and OnPrevious move
	// between matches; OnClose ends finding.
	OnChanged          func(query string)
	OnNext, OnPrevious func()
	OnClose            func()

	entry  *findEntry
	status *widget.Label
	prev   *widget.Button
	next   *widget.Button
	close  *widget.Button
}

// NewFindBar returns a hidden find bar.
func NewFindBar() *FindBar {
	b := &FindBar{status: widget.NewLabel("")}
	b.entry = newFindEntry(b)
	b.entry.SetPlaceHolder("Find in the conversation")
	b.entry.OnChanged = func(q string) {
		if b.OnChanged != nil {
			b.OnChanged(q)
		}
	}
	b.prev = widget.NewButtonWithIcon("", theme.MoveUpIcon(), b.previous)
	b.next = widget.NewButtonWithIcon("", theme.MoveDownIcon(), b.nextMatch)
	b.close = widget.NewButtonWithIcon("", theme.CancelIcon(), b.Close)
	for _, btn := range []*widget.Button{b.prev, b.next, b.close} {
		btn.Importance = widget.LowImportance
	}
	b.ExtendBaseWidget(b)
	b.Hide()
	return b
}

// Open shows the bar and gives its field the keyboard, the query selected
// so that typing replaces it.
func (b *FindBar) Open(c fyne.Canvas) {
	b.Show()
	if c != nil {
		c.Focus(b.entry)
	}
	b.entry.TypedShortcut(&fyne.ShortcutSelectAll{})
}

// Close hides the bar and ends finding.
func (b *FindBar) Close() {
	b.Hide()
	if b.OnClose != nil {
		b.OnClose()
	}
}

// SetQuery shows the bar looking for q, as if it had been typed there.
func (b *FindBar) SetQuery(q string) {
	b.Show()
	b.entry.SetText(q)
}

// Query is the text looked for.
func (b *FindBar) Query() string { return b.entry.Text }

// SetStatus shows the current match of total; total -1 means still
// counting.
func (b *FindBar) SetStatus(current, total int) {
	text := ""
	switch {
	case b.entry.Text == "":
	case total < 0:
		text = "Counting…"
	case total == 0:
		text = "No matches"
	case current == 0:
		text = fmt.Sprintf("%d matches", total)
	default:
		text = fmt.Sprintf("%d of %d", current, total)
	}
	b.status.SetText(text)
	b.prev.Disable()
	b.next.Disable()
	if total > 0 {
		b.prev.Enable()
		b.next.Enable()
	}
}

func (b *FindBar) nextMatch() {
	if b.OnNext != nil {
		b.OnNext()
	}
}

func (b *FindBar) previous() {
	if b.OnPrevious != nil {
		b.OnPrevious()
	}
}

func (b *FindBar) CreateRenderer() fyne.WidgetRenderer {
	right := container.NewHBox(b.status, b.prev, b.next, b.close)
	return widget.NewSimpleRenderer(container.NewBorder(nil, nil, nil, right, b.entry))
}

// findEntry is the bar's field, with the keys of finding.
type findEntry struct {
	widget.Entry
	bar *FindBar
}

var _ desktop.Keyable = (*findEntry)(nil)

func newFindEntry(bar *FindBar) *findEntry {
	e := &findEntry{bar: bar}
	e.ExtendBaseWidget(e)
	return e
}

func (e *findEntry) TypedKey(ev *fyne.KeyEvent) {
	switch ev.Name {
	case fyne.KeyReturn, fyne.KeyEnter, fyne.KeyF3:
		if e.shift() {
			e.bar.previous()
		} else {
			e.bar.nextMatch()
		}
	case fyne.KeyEscape:
		e.bar.Close()
	default:
		e.Entry.TypedKey(ev)
	}
}

// TypedShortcut takes Shift+Enter and Shift+F3, which the desktop driver
// sends as shortcuts.
func (e *findEntry) TypedShortcut(s fyne.Shortcut) {
	if cs, ok := s.(*desktop.CustomShortcut); ok && cs.Modifier == fyne.KeyModifierShift {
		switch cs.KeyName {
		case fyne.KeyReturn, fyne.KeyEnter, fyne.KeyF3:
			e.bar.previous()
			return
		}
	}
	e.Entry.TypedShortcut(s)
}

func (e *findEntry) shift() bool {
	if d, ok := fyne.CurrentApp().Driver().(desktop.Driver); ok {
		return d.CurrentKeyModifiers()&fyne.KeyModifierShift != 0
	}
	return false
}
