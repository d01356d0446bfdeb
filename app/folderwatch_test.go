package app

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"knightcode.ai/desktop/internal/testsupport"
)

// TestFolderWatch: a change anywhere below the folder is told once changes
// stop (a burst is one telling), in a folder made after the watch began
// too.
func TestFolderWatch(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the folder watch is Linux's")
	}
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, ".git"), 0o755)
	var told atomic.Int32
	stop, err := watchFolder(root, func() { told.Add(1) })
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	for i := 0; i < 50; i++ { // a burst is one telling
		os.WriteFile(filepath.Join(root, "a.txt"), []byte(strings.Repeat("x", i)), 0o644)
	}
	testsupport.Eventually(t, "told of a.txt", func() bool { return told.Load() == 1 })
	sub := filepath.Join(root, "new dir")
	os.Mkdir(sub, 0o755)
	testsupport.Eventually(t, "told of the folder", func() bool { return told.Load() == 2 })
	os.WriteFile(filepath.Join(sub, "b.txt"), []byte("b"), 0o644)
	testsupport.Eventually(t, "told of a file in the new folder", func() bool { return told.Load() == 3 })
	os.WriteFile(filepath.Join(root, ".git", "index"), []byte("i"), 0o644)
	os.WriteFile(filepath.Join(root, "c.txt"), []byte("c"), 0o644)
	// The .git write came first: had it been seen, c.txt's telling would
	// still be one, but a .git write alone is checked by the window test.
	testsupport.Eventually(t, "told of c.txt", func() bool { return told.Load() == 4 })
	stop()
	stop() // a second stop is harmless
}

// TestWindowChangesPaneSeesFilesChangedOnDisk: with the changes pane in
// front, a file another program writes shows without a click.
func TestWindowChangesPaneSeesFilesChangedOnDisk(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the folder watch is Linux's")
	}
	dir := t.TempDir()
	gitRepo(t, dir, map[string]string{"a.txt": "a\n"})
	w, _ := openTestWindowIn(t, dir)
	onUI(func() { w.actionChanges(); w.right.pane.base.SetSelectedIndex(1) })
	testsupport.Eventually(t, "nothing changed yet", func() bool {
		var st paneState
		onUI(func() { st = w.right.pane.state })
		return paneIdle(w) && st.mode == modeHead && st.root != "" && len(st.files) == 0
	})
	os.WriteFile(filepath.Join(dir, "from an editor.txt"), []byte("e\n"), 0o644)
	testsupport.Eventually(t, "the new file listed", func() bool { return hasKeys(paneFiles(w), "from an editor.txt") })
	onUI(func() { w.right.showTools() })
	var watching string
	onUI(func() { watching = w.right.pane.watching })
	if watching != "" {
		t.Fatalf("still watching %s with Tools in front", watching)
	}
}
