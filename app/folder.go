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
func (w *Tab) chooseFolder() {
	w.askNative(native.Directory().Title("Work in another folder").SetStartDir(w.started.dir).Browse, w.workIn, w.chooseFolderInWindow)
}

func (w *Tab) chooseFolderInWindow() {
	d := dialog.NewFolderOpen(func(u fyne.ListableURI, err error) {
		if err == nil && u != nil {
			w.workIn(u.Path())
		}
	}, w.win)
	if l, err := storage.ListerForURI(storage.NewFileURI(w.started.dir)); err == nil {
		d.SetLocation(l)
	} else if home, err := os.UserHomeDir(); err == nil {
		if l, err := storage.ListerForURI(storage.NewFileURI(home)); err == nil {
			d.SetLocation(l)
		}
	}
	w.showFileDialog(d)
}

// workIn replaces this tab, still empty, with one whose agent works in
// dir; a tab with a conversation stays, and the new one opens beside it.
func (w *Tab) workIn(dir string) {
	f := w.flags
	f.Dir, f.Dirs = dir, nil
	f.AgentArgs = withoutSessionArgs(f.AgentArgs)
	next := w.shell.openTab(f, true)
	if len(w.drawn.Items) == 0 && !w.working() && next != w {
		w.shell.removeTab(w)
	}
}
