package app

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/test"

	"knightcode.ai/desktop/internal/testsupport"
	"knightcode.ai/desktop/model"
)

func editorState(w *Tab) (text string, at int) {
	onUI(func() { text, at = w.composer.prompt.Editor.Text(), w.composer.prompt.Editor.CursorOffset() })
	return text, at
}

func drop(w *Tab, paths ...string) {
	uris := make([]fyne.URI, len(paths))
	for i, p := range paths {
		uris[i] = storage.NewFileURI(p)
	}
	onUI(func() { w.composer.onDropped(fyne.NewPos(10, 10), uris) })
}

// TestWindowDroppedFilesGoIntoThePrompt: files that are not images —
// text, a PDF, an SVG, a folder — go into the draft as @path references
// at the cursor (relative to the working folder, quoted when they hold a
// space), with a note whose Undo takes them out; no question is asked,
// and an image dropped with them is attached. Files that cannot be read
// are refused with the reason, and nothing of them is inserted.
func TestWindowDroppedFilesGoIntoThePrompt(t *testing.T) {
	w, _ := openTestWindow(t)
	work := w.started.dir
	write := func(name, content string) string {
		p := filepath.Join(work, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	notes := write("notes.txt", "plain text")
	spaced := write("docs/my notes.md", "# heading")
	svg := write("icon.svg", `<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"></svg>`)
	pdf := write("spec.pdf", "%PDF-1.7\n")
	src := filepath.Join(work, "src")
	os.MkdirAll(src, 0o755)
	outside := filepath.Join(t.TempDir(), "elsewhere.go")
	os.WriteFile(outside, []byte("package x"), 0o644)
	png := filepath.Join(work, "shot.png")
	writePNG(t, png, 32)

	// The cursor sits between "at" and "please", after a non-ASCII word.
	onUI(func() {
		w.composer.prompt.Editor.SetTextCursorAtEnd("Schau dir äöü an please")
		for range len([]rune(" please")) {
			w.composer.prompt.Editor.TypedKey(&fyne.KeyEvent{Name: fyne.KeyLeft})
		}
	})
	drop(w, notes, spaced, png, svg, pdf, src, outside)
	want := `Schau dir äöü an @notes.txt @"docs/my notes.md" @icon.svg @spec.pdf @src/ @` + filepath.ToSlash(outside) + ` please`
	testsupport.Eventually(t, "references inserted", func() bool { text, _ := editorState(w); return strings.Contains(text, "@") })
	if text, _ := editorState(w); text != want {
		t.Fatalf("draft %q\nwant  %q", text, want)
	}
	if _, at := editorState(w); at != len([]rune(want))-len([]rune(" please")) {
		t.Fatalf("cursor at %d after the references, want %d", at, len([]rune(want))-len(" please"))
	}
	testsupport.Eventually(t, "the image attached", func() bool { return readyCount(w) == 1 })
	if n := overlays(w); n != 0 {
		t.Fatalf("%d dialogs shown for dropped files", n)
	}
	var note string
	var shown bool
	onUI(func() { note, shown = w.composer.draftRestore.Note(), w.composer.draftRestore.Visible() })
	if !shown || !strings.Contains(note, "Added a reference to 6 files") {
		t.Fatalf("note %q shown %v", note, shown)
	}
	onUI(w.composer.draftRestore.Act) // Undo
	if text, _ := editorState(w); text != "Schau dir äöü an please" {
		t.Fatalf("after Undo: %q", text)
	}

	// A single file, into an empty draft; typing makes the note go (its
	// Undo would take back the typing), Ctrl+Z still works.
	onUI(func() { w.composer.prompt.Editor.Clear() })
	drop(w, notes)
	testsupport.Eventually(t, "one reference", func() bool { text, _ := editorState(w); return text == "@notes.txt " })
	onUI(func() { note, shown = w.composer.draftRestore.Note(), w.composer.draftRestore.Visible() })
	if !shown || !strings.Contains(note, "notes.txt") {
		t.Fatalf("note %q shown %v", note, shown)
	}
	onUI(func() { test.Type(w.composer.prompt.Editor, "explain") })
	onUI(func() { shown = w.composer.draftRestore.Visible() })
	if shown {
		t.Fatal("the undo note stayed after typing")
	}

	// Unreadable: a file that is gone, a named pipe. Refused, with why.
	onUI(func() { w.composer.prompt.Editor.Clear() })
	gone := filepath.Join(work, "deleted.txt")
	fifo := filepath.Join(work, "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	drop(w, gone, fifo)
	testsupport.Eventually(t, "refusals", func() bool {
		var said []string
		onUI(func() {
			for _, n := range w.toasts.History() {
				if n.Level == model.NoticeWarning {
					said = append(said, n.Text)
				}
			}
		})
		all := strings.Join(said, "\n")
		return strings.Contains(all, "Not added: "+gone+": the file doesn't exist.") &&
			strings.Contains(all, "Not added: "+fifo+": not a regular file")
	})
	if text, _ := editorState(w); text != "" {
		t.Fatalf("refused files went into the draft: %q", text)
	}
}

// TestClassifyDrop: images by their content (also formats the agent
// cannot take, which the attachment then names), broken or empty files
// named as images too; anything else, SVG included, is a reference.
func TestClassifyDrop(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, data, 0o644)
		return p
	}
	png := filepath.Join(dir, "a.png")
	writePNG(t, png, 8)
	bmp := append([]byte("BM"), make([]byte, 64)...)
	bmp[14] = 40
	for _, c := range []struct {
		path string
		want dropKind
	}{
		{png, dropImage},
		{write("screenshot.jpg", []byte("\x89PNG\r\n\x1a\n....")), dropImage}, // a PNG named .jpg
		{write("old.bmp", bmp), dropImage},
		{write("empty.png", nil), dropImage},
		{write("empty.txt", nil), dropReference},
		{write("main.go", []byte("package main")), dropReference},
		{write("logo.svg", []byte("<svg></svg>")), dropReference},
		{write("doc.pdf", []byte("%PDF-1.4")), dropReference},
		{dir, dropReference},
		{filepath.Join(dir, "missing"), dropRefused},
	} {
		if got := classifyDrop(c.path); got.kind != c.want {
			t.Errorf("%s: kind %v (%q), want %v", filepath.Base(c.path), got.kind, got.reason, c.want)
		}
	}
	if got := fileReference("/w/a b/c.go", "/w", false); got != `@"a b/c.go"` {
		t.Errorf("reference %s", got)
	}
	if got := fileReference("/other/c.go", "/w", false); got != "@/other/c.go" {
		t.Errorf("reference %s", got)
	}
	if got := fileReference("/w", "/w", true); got != "@/w/" {
		t.Errorf("the working folder itself: %s", got)
	}
}
