package palette

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"
	"knightcode.ai/desktop/widgets/kit"
)

// slashPanel is the completion's pop-up content. While it shows it has the
// keyboard: it works the list with the completion keys and hands the rest
// to the editor.
type slashPanel struct {
	widget.BaseWidget

	s    *SlashCompletion
	list *kit.KeyList
	// held is the modifier state seen through KeyDown/KeyUp, for drivers
	// that cannot report it (the test driver).
	held  fyne.KeyModifier
	probe float32
}

var (
	_ fyne.Focusable    = (*slashPanel)(nil)
	_ fyne.Tabbable     = (*slashPanel)(nil)
	_ fyne.Shortcutable = (*slashPanel)(nil)
	_ desktop.Keyable   = (*slashPanel)(nil)
)

func newSlashPanel(s *SlashCompletion) *slashPanel {
	p := &slashPanel{s: s}
	p.list = kit.NewKeyList(func() int { return len(s.hits) },
		func() fyne.CanvasObject { return newPaletteRow(p.list) },
		func(id widget.ListItemID, o fyne.CanvasObject) {
			if id >= 0 && id < len(s.hits) {
				h := s.hits[id]
				o.(*paletteRow).Set(id, s.commands[h.item], h.pos)
			}
		})
	p.list.TapActivates = true
	p.list.OnActivate = func(widget.ListItemID) { s.accept() }
	p.ExtendBaseWidget(p)
	return p
}

// rowHeight is a row's height, known before the list has built any.
func (p *slashPanel) rowHeight() float32 {
	if p.list.RowHeight > 0 {
		return p.list.RowHeight
	}
	if p.probe == 0 {
		p.probe = newPaletteRow(p.list).MinSize().Height
	}
	return p.probe
}

func (p *slashPanel) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(p.list)
}

func (p *slashPanel) FocusGained() {}
func (p *slashPanel) FocusLost()   {}

// AcceptsTab keeps Tab from moving the focus: it picks a command.
func (p *slashPanel) AcceptsTab() bool { return true }

func (p *slashPanel) TypedKey(ev *fyne.KeyEvent) {
	shift := p.modifiers()&fyne.KeyModifierShift != 0
	switch ev.Name {
	case fyne.KeyUp:
		p.s.Move(-1)
	case fyne.KeyDown:
		p.s.Move(1)
	case fyne.KeyPageUp:
		p.s.Move(-slashMaxRows)
	case fyne.KeyPageDown:
		p.s.Move(slashMaxRows)
	case fyne.KeyEscape:
		p.s.Hide()
	case fyne.KeyTab, fyne.KeyReturn, fyne.KeyEnter:
		if shift {
			p.forwardKey(ev)
			return
		}
		p.s.accept()
	default:
		p.forwardKey(ev)
	}
}

func (p *slashPanel) forwardKey(ev *fyne.KeyEvent) {
	if e := p.s.editor; e != nil {
		e.TypedKey(ev)
	}
}

func (p *slashPanel) TypedRune(r rune) {
	if e := p.s.editor; e != nil {
		e.TypedRune(r)
	}
}

func (p *slashPanel) TypedShortcut(sc fyne.Shortcut) {
	if e, ok := p.s.editor.(fyne.Shortcutable); ok {
		e.TypedShortcut(sc)
	}
}

func (p *slashPanel) KeyDown(ev *fyne.KeyEvent) {
	p.held |= kit.ModifierOf(ev.Name)
	if e, ok := p.s.editor.(desktop.Keyable); ok {
		e.KeyDown(ev)
	}
}

func (p *slashPanel) KeyUp(ev *fyne.KeyEvent) {
	p.held &^= kit.ModifierOf(ev.Name)
	if e, ok := p.s.editor.(desktop.Keyable); ok {
		e.KeyUp(ev)
	}
}

// modifiers prefers the desktop driver's record, which also knows keys
// pressed before the pop-up opened.
func (p *slashPanel) modifiers() fyne.KeyModifier {
	if a := fyne.CurrentApp(); a != nil {
		if d, ok := a.Driver().(desktop.Driver); ok {
			return d.CurrentKeyModifiers()
		}
	}
	return p.held
}
