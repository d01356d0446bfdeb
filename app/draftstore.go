package app

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"fyne.io/fyne/v2"

	"knightcode.ai/desktop/app/drafts"
	"knightcode.ai/desktop/app/images"
)

// draftsDir is where the drafts are kept: a folder beside the app's other
// files. A variable so that the package's tests keep theirs apart from
// the user's and from each other's.
var draftsDir = func(a fyne.App) string {
	return filepath.Join(a.Storage().RootURI().Path(), "drafts")
}

// processKeepers are the drafts keepers of this process by folder: the
// windows of one process share one, or their writes would overwrite each
// other's drafts.
var processKeepers = struct {
	sync.Mutex
	byDir map[string]*drafts.Keeper
}{byDir: map[string]*drafts.Keeper{}}

// openDrafts is the process's keeper of dir, opened the first time. A
// keeper that cannot be opened is nil: the window says so and goes on
// without keeping drafts.
func openDrafts(dir string) (*drafts.Keeper, error) {
	processKeepers.Lock()
	defer processKeepers.Unlock()
	if k := processKeepers.byDir[dir]; k != nil {
		return k, nil
	}
	k, err := drafts.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("unsent drafts cannot be kept in %s: %w", dir, err)
	}
	processKeepers.byDir[dir] = k
	return k, nil
}

// keepImage gives a loaded image a copy in the drafts keeper's folder and
// returns its path ("" when it did not load or cannot be kept: the draft
// then holds its bytes). It runs off the UI goroutine.
func (w *Window) keepImage(name string, a images.Attachment, err error) string {
	if err != nil || w.drafts == nil || len(a.Data) == 0 {
		return ""
	}
	path, err := w.drafts.StoreImage(name, a.Data)
	if err != nil {
		return ""
	}
	return path
}

// flushDrafts writes the drafts now, from any goroutine: at quit, on a
// signal, after a panic, before the app exits without waiting.
func (w *Window) flushDrafts() {
	if w.drafts == nil {
		return
	}
	if err := w.drafts.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, "knightcode-desktop:", err)
	}
}
