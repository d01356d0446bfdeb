package app

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"

	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/widgets/tools"
)

// rightPane is the pane beside the transcript: the tool sidebar and the
// changes pane, one in front. The changes pane is built the first time it
// comes to the front and looks at the folder only while it is on screen.
type rightPane struct {
	object  *container.AppTabs
	tools   *container.TabItem
	changes *container.TabItem
	pane    *changesPane
}

func newRightPane(sidebar *tools.ToolSidebar, pane *changesPane) *rightPane {
	r := &rightPane{pane: pane}
	r.tools = container.NewTabItemWithIcon("Tools", theme.ListIcon(), sidebar)
	r.changes = container.NewTabItemWithIcon("Changes", theme.DocumentIcon(), pane.object)
	r.object = container.NewAppTabs(r.tools, r.changes)
	r.object.OnSelected = func(it *container.TabItem) {
		if it == r.changes {
			pane.shown()
		} else {
			pane.unwatch()
		}
	}
	return r
}

// showTools brings the tool sidebar to the front (a tool chip was tapped).
func (r *rightPane) showTools() {
	if r.object.Selected() != r.tools {
		r.object.Select(r.tools)
	}
}

// showChanges brings the changes pane to the front, or looks again when it
// is there.
func (r *rightPane) showChanges() {
	if r.object.Selected() != r.changes {
		r.object.Select(r.changes) // OnSelected looks
		return
	}
	r.pane.shown()
}

// changedFiles is told that files may have changed (a tool run ended, a
// restore, the window came back to the front): the changes pane looks
// again if it is on screen.
func (r *rightPane) changedFiles() {
	if r.object.Selected() == r.changes {
		r.pane.lookIfVisible()
	}
}

// stop ends the folder watch: the tab closes.
func (r *rightPane) stop() { r.pane.unwatch() }

// draw follows the view: a tool run that ended may have changed files; a
// new message is a new base to offer.
func (r *rightPane) draw(v, prev *model.View) {
	if !r.pane.built {
		return
	}
	if v.ToolsEnded != prev.ToolsEnded {
		r.changedFiles()
	}
	if len(v.Items) != len(prev.Items) && r.object.Selected() == r.changes {
		r.pane.setBases()
	}
}

// focusChanges gives the keyboard to the changes pane's file list.
func (r *rightPane) focusChanges(c fyne.Canvas) {
	if r.pane.built {
		c.Focus(r.pane.files.Focusable())
	}
}

// actionChanges is View › Changes (Ctrl+Shift+G): the pane beside the
// transcript unfolded, the changes pane in front, the keyboard in its file
// list.
func (t *Tab) actionChanges() {
	t.fold.apply(true)
	t.right.showChanges()
	if t.isCurrent() {
		t.right.focusChanges(t.win.Canvas())
	}
}

// changesShortcut opens the changes pane, as in editors with a git view.
var changesShortcut = shortcut(fyne.KeyG, fyne.KeyModifierShortcutDefault|fyne.KeyModifierShift)
