package palette

import (
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"knightcode.ai/desktop/model"
)

// slashMaxRows is how many commands show before the list scrolls.
const slashMaxRows = 8

// SlashCompletion offers "/" commands in a pop-up beside the prompt editor
// while the draft is a "/" followed by a name being typed.
//
// A shown pop-up takes the keyboard from the window (Fyne sends keys to
// the top overlay), so the completion handles Up, Down, Page Up/Down, Tab,
// Enter and Esc itself and passes every other key, character and shortcut
// on to the editor given to SetEditor: typing goes on as if nothing had
// opened. Shift+Tab and Shift+Enter also go to the editor.
type SlashCompletion struct {
	// OnAccept receives "/name " when the user picks a command with Tab,
	// Enter or a click; the owner puts it in the editor.
	OnAccept func(text string)

	commands []model.PaletteItem
	hits     []paletteHit
	text     string // the editor text the hits are for
	editor   fyne.Focusable
	panel    *slashPanel
	popup    *widget.PopUp
}

// NewSlashCompletion returns a completion with no commands.
func NewSlashCompletion() *SlashCompletion {
	s := &SlashCompletion{}
	s.panel = newSlashPanel(s)
	return s
}

// SetCommands replaces the commands offered: Title is "/name", Detail its
// description; one that is Unavailable is greyed with its reason and
// listed after those that match as well.
func (s *SlashCompletion) SetCommands(cmds []model.PaletteItem) {
	s.commands = slices.Clone(cmds)
}

// SetEditor names where keys the completion does not use are sent.
func (s *SlashCompletion) SetEditor(editor fyne.Focusable) { s.editor = editor }

// Update follows the editor's text: while it is "/" and a name with no
// space or newline yet, the matching commands show; otherwise the pop-up
// hides. anchor is where the list's bottom-left corner goes, in c's
// coordinates (the editor's top-left corner, say): the list opens upwards
// from it, or downwards when there is more room below.
func (s *SlashCompletion) Update(c fyne.Canvas, editorText string, anchor fyne.Position) {
	if c == nil || !strings.HasPrefix(editorText, "/") || strings.ContainsAny(editorText, " \t\r\n") {
		s.Hide()
		return
	}
	// The same text again (the editor moved, say) keeps the user's place;
	// new text starts again at the best match.
	if s.Visible() && editorText == s.text {
		s.show(c, anchor)
		return
	}
	s.text = editorText
	s.hits = rankPalette(editorText[1:], s.commands, rankOptions{skip: "/"})
	if len(s.hits) == 0 {
		s.Hide()
		return
	}
	s.panel.list.Reset(0)
	s.panel.list.ScrollToTop()
	s.show(c, anchor)
}

func (s *SlashCompletion) show(c fyne.Canvas, anchor fyne.Position) {
	if s.popup == nil || s.popup.Canvas != c {
		s.Hide()
		s.popup = widget.NewPopUp(s.panel, c)
	}
	th := s.panel.Theme()
	pad := th.Size(theme.SizeNamePadding)
	frame := th.Size(theme.SizeNameInnerPadding) // the pop-up's own border
	rowH := s.panel.rowHeight()
	rows := min(len(s.hits), slashMaxRows)
	h := float32(rows)*(rowH+pad) - pad + frame
	cs := c.Size()
	w := float32(0)
	for _, h := range s.hits {
		w = max(w, paletteNaturalWidth(th, s.commands[h.item]))
	}
	// Wide enough for the longest command, within reason and the window;
	// the pop-up's border and a scroll bar take some too.
	w = min(max(w+frame+2*pad, 280), 640, cs.Width-anchor.X)

	above, below := anchor.Y, cs.Height-anchor.Y
	y := anchor.Y - h
	if h > above {
		if below > above {
			y, h = anchor.Y, min(h, below)
		} else {
			y, h = 0, above
		}
	}
	s.popup.Resize(fyne.NewSize(w, h))
	s.popup.ShowAtPosition(fyne.NewPos(anchor.X, y))
	if c.Focused() != s.panel {
		c.Focus(s.panel)
	}
}

// Listed are the commands the pop-up lists now, in their order.
func (s *SlashCompletion) Listed() []model.PaletteItem {
	out := make([]model.PaletteItem, len(s.hits))
	for i, h := range s.hits {
		out[i] = s.commands[h.item]
	}
	return out
}

// Visible reports whether the pop-up is showing.
func (s *SlashCompletion) Visible() bool {
	return s.popup != nil && s.popup.Visible()
}

// Move moves the selection by delta rows, stopping at either end.
func (s *SlashCompletion) Move(delta int) {
	if s.Visible() {
		s.panel.list.Step(delta)
	}
}

// Accept returns the selected command as "/name " for the editor and
// hides the pop-up; ok is false when nothing is showing or the command is
// greyed (Unavailable: it cannot run here, and its row says why).
func (s *SlashCompletion) Accept() (text string, ok bool) {
	id := s.panel.list.Sel
	if !s.Visible() || id < 0 || id >= len(s.hits) {
		return "", false
	}
	it := s.commands[s.hits[id].item]
	if it.Unavailable != "" {
		return "", false // greyed: its row says why
	}
	name := it.Title
	if !strings.HasPrefix(name, "/") {
		name = "/" + name
	}
	s.Hide()
	return name + " ", true
}

// Hide hides the pop-up; the keyboard goes back to the editor.
func (s *SlashCompletion) Hide() {
	if s.popup != nil {
		s.popup.Hide()
	}
}

func (s *SlashCompletion) accept() {
	if text, ok := s.Accept(); ok && s.OnAccept != nil {
		s.OnAccept(text)
	}
}
