package sessions

import (
	"slices"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/widgets/kit"
)

const (
	treeHintPick = "Select one of your messages on the current branch to fork from it"
	treeHintFork = "Fork starts a new session from this message"
)

// SessionTree shows a session's entries as an indented list with branch
// lines: the current leaf is tagged, labels show as tags and entries off
// the active branch are dimmed. It is a list rather than a widget.Tree so
// that only the rows on screen exist, however long the session.
//
// Selecting one of the user's messages on the active branch (the agent
// forks only from those) enables "Fork from here". Keyboard: arrows, Page
// Up/Down, Home and End move; Enter forks; Esc calls OnClose.
type SessionTree struct {
	widget.BaseWidget

	OnFork func(entryID string)
	// OnClose is called for Esc.
	OnClose func()

	rows   []model.TreeRow
	guides treeGuides
	leaf   int
	// shown are the rows the filter lets through, while filtering.
	shown     []int
	filtering bool

	filter *treeFilterEntry
	mine   *kit.DialogCheck

	list  *kit.KeyList
	fork  *kit.DialogButton
	hint  *canvas.Text
	empty *widget.Label
	// hintText is the hint before fitting it beside the button.
	hintText string

	now func() time.Time
}

// NewSessionTree returns an empty tree.
func NewSessionTree() *SessionTree {
	t := &SessionTree{leaf: -1, now: time.Now}
	t.guides.Reset(0)
	t.list = kit.NewKeyList(t.count, t.newRow, t.updateRow)
	t.list.HideSeparators = true // a separator would cut every branch line
	t.list.OnSelect = func(widget.ListItemID) { t.updateFork() }
	t.list.OnActivate = func(widget.ListItemID) { t.forkSelected() }
	t.list.OnEscape = func() {
		if t.OnClose != nil {
			t.OnClose()
		}
	}
	keys := &kit.DialogKeys{Cancel: func() {
		if t.OnClose != nil {
			t.OnClose()
		}
	}}
	t.fork = kit.NewDialogButton("Fork from here", nil, t.forkSelected, keys)
	t.filter = newTreeFilterEntry(t, keys)
	t.filter.OnChanged = func(string) { t.applyFilter() }
	t.mine = kit.NewDialogCheck("My prompts only", keys)
	t.mine.OnChanged = func(bool) { t.applyFilter() }
	t.list.OnLeaveTop = func() {
		if c := fyne.CurrentApp().Driver().CanvasForObject(t); c != nil {
			c.Focus(t.filter)
		}
	}
	t.fork.Importance = widget.HighImportance
	t.hint = canvas.NewText("", nil)
	t.empty = widget.NewLabel("No entries yet")
	t.empty.Alignment = fyne.TextAlignCenter
	t.empty.Importance = widget.LowImportance
	t.ExtendBaseWidget(t)
	t.updateFork()
	return t
}

// SetRows replaces the entries, given in display order with their depth.
// The selected entry stays selected if it is still there; otherwise the
// list scrolls to the current leaf.
func (t *SessionTree) SetRows(rows []model.TreeRow) {
	keep := ""
	if r, ok := t.Selected(); ok {
		keep = r.ID
	}
	t.rows = slices.Clone(rows)
	t.guides.Reset(len(rows))
	t.leaf = -1
	for i := range t.rows {
		t.added(i)
	}
	if t.filtering {
		t.applyFilter()
		return
	}
	sel := -1
	if keep != "" {
		if i, ok := t.guides.index[keep]; ok {
			sel = i
		}
	}
	t.list.Reset(sel)
	if sel < 0 && t.leaf >= 0 {
		t.list.ScrollTo(t.leaf)
	}
	t.updateEmpty()
	t.updateFork()
}

// AppendRows adds entries that arrived after the last SetRows or
// AppendRows, at the end of the display order. Only the new rows and the
// branch lines they extend are worked out; the list redraws the rows on
// screen. A new leaf among them takes the mark from the old one.
func (t *SessionTree) AppendRows(rows []model.TreeRow) {
	if len(rows) == 0 {
		return
	}
	start := len(t.rows)
	t.rows = append(t.rows, rows...)
	for i := start; i < len(t.rows); i++ {
		t.added(i)
	}
	if t.filtering {
		t.applyFilter()
		return
	}
	t.list.Refresh()
	t.updateEmpty()
	t.updateFork()
}

func (t *SessionTree) added(i int) {
	t.guides.add(t.rows, i)
	if t.rows[i].IsLeaf {
		if t.leaf >= 0 {
			t.rows[t.leaf].IsLeaf = false
		}
		t.leaf = i
	}
}

// Selected returns the selected entry.
func (t *SessionTree) Selected() (model.TreeRow, bool) {
	if i := t.list.Sel; i >= 0 && i < t.count() {
		return t.rows[t.at(i)], true
	}
	return model.TreeRow{}, false
}

// Focus puts the keyboard in the tree at the selected entry, or at the
// current leaf when none is selected.
func (t *SessionTree) Focus(c fyne.Canvas) {
	if t.list.Sel < 0 && t.leaf >= 0 && !t.filtering {
		t.list.SelectRow(t.leaf)
	}
	if c != nil {
		c.Focus(t.list)
	}
}

func (t *SessionTree) forkable() (model.TreeRow, bool) {
	r, ok := t.Selected()
	return r, ok && r.Kind == "user" && r.OnActiveBranch && r.ID != ""
}

func (t *SessionTree) forkSelected() {
	if r, ok := t.forkable(); ok && t.OnFork != nil {
		t.OnFork(r.ID)
	}
}

func (t *SessionTree) updateFork() {
	if _, ok := t.forkable(); ok {
		t.fork.Enable()
		t.hintText = treeHintFork
	} else {
		t.fork.Disable()
		t.hintText = treeHintPick
	}
	t.fitHint()
}

// fitHint shortens the hint to the room beside the Fork button.
func (t *SessionTree) fitHint() {
	pad := t.Theme().Size(theme.SizeNamePadding)
	w := t.Size().Width - t.fork.MinSize().Width - 3*pad
	t.hint.Text = t.hintText
	if t.Size().Width > 0 {
		t.hint.Text = kit.FitText(t.hintText, max(0, w), t.hint.TextSize, t.hint.TextStyle)
	}
	t.hint.Refresh()
}

func (t *SessionTree) updateEmpty() {
	t.empty.SetText("No entries yet")
	if t.filtering {
		t.empty.SetText("No entry matches the filter")
	}
	if t.count() == 0 {
		t.empty.Show()
	} else {
		t.empty.Hide()
	}
}

// treeKindIcon is the mark before an entry's text.
func treeKindIcon(kind string) fyne.Resource {
	switch kind {
	case "user":
		return theme.AccountIcon()
	case "assistant":
		return theme.ComputerIcon()
	case "tool":
		return theme.SettingsIcon()
	case "compaction":
		return theme.HistoryIcon()
	case "branch_summary":
		return theme.FileTextIcon()
	case "model_change", "thinking_level_change":
		return theme.SearchReplaceIcon()
	case "system":
		return theme.DocumentIcon()
	}
	return theme.InfoIcon()
}
