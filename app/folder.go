package app

import (
	"os"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
	native "github.com/sqweek/dialog"
)

// chooseFolder is the first screen's "Work in another folder…": the
// platform's folder chooser, else Fyne's.
func (t *Tab) chooseFolder() {
	t.askNative(native.Directory().Title("Work in another folder").SetStartDir(t.started.dir).Browse, t.workIn, t.chooseFolderInWindow)
}

func (t *Tab) chooseFolderInWindow() {
	d := dialog.NewFolderOpen(func(u fyne.ListableURI, err error) {
		if err == nil && u != nil {
			t.workIn(u.Path())
		}
	}, t.win)
	if l, err := storage.ListerForURI(storage.NewFileURI(t.started.dir)); err == nil {
		d.SetLocation(l)
	} else if home, err := os.UserHomeDir(); err == nil {
		if l, err := storage.ListerForURI(storage.NewFileURI(home)); err == nil {
			d.SetLocation(l)
		}
	}
	t.showFileDialog(d)
}

// workIn replaces this tab, still empty, with one whose agent works in
// dir; a tab with a conversation stays, and the new one opens beside it.
func (t *Tab) workIn(dir string) {
	f := t.flags
	f.Dir, f.Dirs = dir, nil
	f.AgentArgs = withoutSessionArgs(f.AgentArgs)
	next := t.shell.openTab(f, true)
	if len(t.drawn.Items) == 0 && !t.working() && next != t {
		t.shell.removeTab(t)
	}
}
