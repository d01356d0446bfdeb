package app

import (
	"image/png"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/widget"

	"knightcode.ai/desktop/internal/testsupport"
)

// outsideFile is a file outside the temporary folder: this test's source.
func outsideFile(t *testing.T) string {
	t.Helper()
	p, err := filepath.Abs("open_output_test.go")
	if err != nil {
		t.Fatal(err)
	}
	if insideAny(p, []string{os.TempDir()}) {
		t.Skipf("the source %s is inside the temporary folder", p)
	}
	return p
}

func writeFile(t *testing.T, path, text string, mode fs.FileMode) string {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil { // past the umask
		t.Fatal(err)
	}
	return path
}

// TestCheckOutputPath: only a regular, not executable file whose real
// place is in an allowed folder is opened; each refusal says why.
func TestCheckOutputPath(t *testing.T) {
	tmp := []string{os.TempDir()}
	dir := t.TempDir()
	outside := outsideFile(t)
	plain := writeFile(t, filepath.Join(dir, "out.log"), "hello\n", 0o644)
	link := filepath.Join(dir, "link.log")
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	inLink := filepath.Join(dir, "inside-link.log")
	if err := os.Symlink(plain, inLink); err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(dir, outside)
	if err != nil || !strings.HasPrefix(rel, "..") {
		t.Fatalf("no way up from %s to %s: %q %v", dir, outside, rel, err)
	}
	climb := dir + string(filepath.Separator) + rel
	program := writeFile(t, filepath.Join(dir, "run.sh"), "#!/bin/sh\necho hi\n", 0o755)
	groupExec := writeFile(t, filepath.Join(dir, "g.log"), "x", 0o610)

	cases := []struct {
		name, path string
		folders    []string
		refused    string // "" accepted
	}{
		{"a file in the temporary folder", plain, tmp, ""},
		{"a link in the temporary folder to a file there", inLink, tmp, ""},
		{"a link in the temporary folder to a file outside", link, tmp, "which is outside the folders the agent writes its outputs to"},
		{"a path climbing out with ..", climb, tmp, "is outside the folders the agent writes its outputs to"},
		{"a file outside", outside, tmp, "is outside the folders"},
		{"a folder", dir, tmp, "is a folder, not a regular file"},
		{"the allowed folder itself", dir, []string{dir}, "is a folder"},
		{"a program", program, tmp, "is a program"},
		{"a file any x bit makes a program", groupExec, tmp, "is a program"},
		{"/dev/null", "/dev/null", tmp, "is outside the folders"},
		{"/dev/null with /dev allowed", "/dev/null", []string{"/dev"}, "is not a regular file (a device)"},
		{"a missing file", filepath.Join(dir, "gone.log"), tmp, "does not exist"},
		{"no folders", plain, nil, "is outside the folders"},
		{"a folder whose name starts the same", plain, []string{dir[:len(dir)-1]}, "is outside the folders"},
	}
	for _, c := range cases {
		f, err := checkOutputPath(c.path, c.folders)
		if f != nil {
			f.Close()
		}
		switch {
		case c.refused == "" && err != nil:
			t.Errorf("%s (%s): refused: %v", c.name, c.path, err)
		case c.refused != "" && err == nil:
			t.Errorf("%s (%s): accepted", c.name, c.path)
		case c.refused != "" && !strings.Contains(err.Error(), c.refused):
			t.Errorf("%s: said %q, want it to say %q", c.name, err, c.refused)
		}
	}
}

// TestCheckOutputPathSwapped: a file put in the place of the checked one
// between the check and the opening is refused.
func TestCheckOutputPathSwapped(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, filepath.Join(dir, "out.log"), "checked\n", 0o644)
	other := writeFile(t, filepath.Join(dir, "other.log"), "swapped in\n", 0o644)
	swapped := false
	beforeOutputOpen = func(string) {
		swapped = true
		if err := os.Rename(other, path); err != nil {
			t.Error(err)
		}
	}
	defer func() { beforeOutputOpen = func(string) {} }()
	f, err := checkOutputPath(path, []string{dir})
	if f != nil {
		f.Close()
	}
	if !swapped || err == nil || !strings.Contains(err.Error(), "changed while it was being opened") {
		t.Fatalf("swapped %v; got %v", swapped, err)
	}
}

// TestOutputFoldersFromEnvironment: an agent folder named by
// PI_CODING_AGENT_DIR is allowed; other folders outside the temporary one
// are not.
func TestOutputFoldersFromEnvironment(t *testing.T) {
	base := t.TempDir()
	for _, d := range []string{"tmp", "home", "agent", "other"} {
		if err := os.Mkdir(filepath.Join(base, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("TMPDIR", filepath.Join(base, "tmp"))
	t.Setenv("HOME", filepath.Join(base, "home"))
	t.Setenv("XDG_CACHE_HOME", filepath.Join(base, "home", ".cache"))
	t.Setenv("PI_CODING_AGENT_DIR", filepath.Join(base, "agent"))
	t.Setenv("KNIGHTCODE_CODING_AGENT_DIR", "")
	folders := (&agentFiles{tabHost: &tabHost{}}).outputFolders()

	for _, c := range []struct {
		file string
		ok   bool
	}{
		{"agent/pi-bash-1.log", true},
		{"tmp/pi-bash-2.log", true},
		{"home/.pi/agent/sessions/x.log", true},
		{"home/.knightcode/agent/y.log", true},
		{"home/.cache/knightcode-desktop/remote-files/z.log", true},
		{"other/notes.log", false},
		{"home/.ssh/id_rsa", false},
	} {
		path := filepath.Join(base, c.file)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, path, "x", 0o600)
		f, err := checkOutputPath(path, folders)
		if f != nil {
			f.Close()
		}
		if (err == nil) != c.ok {
			t.Errorf("%s: accepted %v (%v), want %v; folders %q", c.file, err == nil, err, c.ok, folders)
		}
	}
}

func TestIsProgram(t *testing.T) {
	for _, c := range []struct {
		name string
		mode fs.FileMode
		goos string
		want bool
	}{
		{"out.log", 0o644, "linux", false},
		{"out.log", 0o744, "linux", true},
		{"out.log", 0o641, "darwin", true},
		{"setup.EXE", 0o644, "windows", true},
		{"a.ps1", 0o644, "windows", true},
		{"link.lnk", 0o644, "windows", true},
		{"code.js", 0o644, "windows", true},
		{"out.log", 0o755, "windows", false},
		{"out.exe.txt", 0o644, "windows", false},
	} {
		if got := isProgram(c.name, c.mode, c.goos); got != c.want {
			t.Errorf("isProgram(%s, %v, %s) = %v", c.name, c.mode, c.goos, got)
		}
	}
}

func TestCleanOutputText(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain\ttext\n", "plain\ttext\n"},
		{"\x1b[1;31mred\x1b[0m and \x1b[38;5;196mmore\x1b[m", "red and more"},
		{"\x1b]0;a title\x07after", "after"},
		{"\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "link"},
		{"\x1b(Bcharset\x1b=keypad\x1b7", "charsetkeypad"},
		{"\x1b]unterminated\nnext line", "\nnext line"},
		{"dos\r\nline", "dos\nline"},
		{"10%\r50%\r100%\n", "10%\n50%\n100%\n"},
		{"bell\x07nul\x00del\x7f", "bell\ufffdnul\ufffddel\ufffd"},
		{"c1 \u009b csi", "c1 \ufffd csi"},
		{"bad \xff byte", "bad \ufffd byte"},
		{"grüße €", "grüße €"},
		{"trailing esc\x1b", "trailing esc"},
	} {
		if got := cleanOutputText(c.in); got != c.want {
			t.Errorf("cleanOutputText(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestReadHeadWholeCharacters: the head is cut before a character the
// limit splits, and says it was cut.
func TestReadHeadWholeCharacters(t *testing.T) {
	for _, c := range []struct {
		in   string
		want string
		cut  bool
	}{
		{"abcdefgh€x", "abcdefgh", true},  // € (3 bytes) at 8..10 split at 10
		{"abcdefg€x", "abcdefg€", true},   // ends exactly at 10
		{"abcdefghi😀", "abcdefghi", true}, // a 4-byte one split after 1
		{"abcdefghij", "abcdefghij", false},
		{"short", "short", false},
	} {
		head, cut, err := readHead(strings.NewReader(c.in), 10)
		if err != nil || head != c.want || cut != c.cut {
			t.Errorf("readHead(%q, 10) = %q, %v, %v; want %q, %v", c.in, head, cut, err, c.want, c.cut)
		}
	}

	dir := t.TempDir()
	big := strings.Repeat("a", outputViewLimit-1) + "€" + strings.Repeat("b", 1_500_000)
	out, err := loadOutput(writeFile(t, filepath.Join(dir, "big.log"), big, 0o644), []string{dir})
	if err != nil {
		t.Fatal(err)
	}
	if !out.cut || len(out.text) != outputViewLimit-1 || out.size != int64(len(big)) {
		t.Fatalf("cut %v, %d bytes shown of %d", out.cut, len(out.text), out.size)
	}
	if note := out.cutNote(); note != "Showing the first 1 MB of 2.5 MB." {
		t.Fatalf("note %q", note)
	}
	exact, err := loadOutput(writeFile(t, filepath.Join(dir, "exact.log"), strings.Repeat("x", outputViewLimit), 0o644), []string{dir})
	if err != nil || exact.cut || exact.cutNote() != "" || len(exact.text) != outputViewLimit {
		t.Fatalf("a file of exactly the limit: cut %v, note %q, %d bytes, %v", exact.cut, exact.cutNote(), len(exact.text), err)
	}
}

func TestExportToOpen(t *testing.T) {
	dir := t.TempDir()
	html := writeFile(t, filepath.Join(dir, "session.html"), "<p>x</p>", 0o644)
	upper := writeFile(t, filepath.Join(dir, "SESSION.HTM"), "<p>x</p>", 0o644)
	text := writeFile(t, filepath.Join(dir, "session.txt"), "x", 0o644)
	exe := writeFile(t, filepath.Join(dir, "session.exe"), "x", 0o644)
	folder := filepath.Join(dir, "folder.html")
	os.Mkdir(folder, 0o755)
	for _, c := range []struct {
		path, refused string
	}{
		{html, ""},
		{upper, ""},
		{text, "is not an HTML file"},
		{exe, "is not an HTML file"},
		{filepath.Join(dir, "gone.html"), "does not exist"},
		{folder, "is not a regular file"},
	} {
		_, err := exportToOpen(c.path)
		if (c.refused == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.refused)) {
			t.Errorf("%s: %v, want %q", c.path, err, c.refused)
		}
	}
}

func TestCheckHostOutputPath(t *testing.T) {
	for _, c := range []struct {
		path, refused string
	}{
		{"/tmp/pi-bash-1a2b.log", ""},
		{"/var/tmp/out.log", ""},
		{"/var/folders/xy/abc/T/pi-bash-1.log", ""},
		{"/home/ann/.pi/agent/sessions/x.log", ""},
		{"/home/ann/.knightcode/agent/out.log", ""},
		{"tmp/out.log", "is not an absolute path"},
		{"~/.pi/agent/x.log", "is not an absolute path"},
		{"/tmp/../etc/passwd", "climbs out"},
		{"/home/ann/.pi/agent/../../.ssh/id_rsa", "climbs out"},
		{"/etc/passwd", "is outside the folders"},
		{"/home/ann/.ssh/id_rsa", "is outside the folders"},
		{"/tmpfoo/x.log", "is outside the folders"},
		{"/home/ann/.pi/settings.json", "is outside the folders"},
		{"/tmp", "is outside the folders"},
	} {
		err := checkHostOutputPath(c.path)
		if (c.refused == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.refused)) {
			t.Errorf("%s: %v, want %q", c.path, err, c.refused)
		}
	}
}

// TestWindowShowAllViewer: Show all of a tool's output in the temporary
// folder opens the viewer with the cleaned text, which Copy text copies;
// Esc closes it and the keyboard goes back to the editor. A file
// outside gets a message saying why, and no viewer.
func TestWindowShowAllViewer(t *testing.T) {
	w, _ := openTestWindow(t)
	dir := t.TempDir()
	path := writeFile(t, filepath.Join(dir, "pi-bash-1.log"), "\x1b[32mok\x1b[0m line 1\r\nline 2\n", 0o644)
	onUI(func() { w.sidebar.OnShowAll(path) })
	testsupport.Eventually(t, "the viewer", func() bool { return dialogOpen(w) })
	var view *outputLines
	onUI(func() { view, _ = w.win.Canvas().Focused().(*outputLines) })
	if view == nil {
		t.Fatal("the viewer's lines do not have the keyboard")
	}
	var rows []string
	onUI(func() {
		for id := range view.Length() {
			o := view.CreateItem()
			view.UpdateItem(id, o)
			rows = append(rows, o.(*fyne.Container).Objects[0].(*canvas.Text).Text)
		}
	})
	if strings.Join(rows, "|") != "ok line 1|line 2" {
		t.Fatalf("the viewer shows %q", rows)
	}
	onUI(func() { w.modals.top().(*keyDialog).button("Copy text").Tapped(nil) })
	var copied string
	onUI(func() { copied = w.app.Clipboard().Content() })
	if copied != "ok line 1\nline 2\n" || !dialogOpen(w) {
		t.Errorf("Copy text copied %q; the viewer open %v", copied, dialogOpen(w))
	}
	press(w, fyne.KeyDown)
	press(w, fyne.KeyPageDown)
	if !dialogOpen(w) {
		t.Fatal("moving in the text closed the viewer")
	}
	if shot := os.Getenv("KNIGHTCODE_VIEWER_PNG"); shot != "" {
		onUI(func() {
			w.win.Resize(fyne.NewSize(1000, 700))
			f, err := os.Create(shot)
			if err == nil {
				err = png.Encode(f, w.win.Canvas().Capture())
				f.Close()
			}
			if err != nil {
				t.Error(err)
			}
		})
	}
	press(w, fyne.KeyEscape)
	if dialogOpen(w) {
		t.Fatal("Esc left the viewer open")
	}
	var focused fyne.Focusable
	onUI(func() { focused = w.win.Canvas().Focused() })
	if focused != w.composer.prompt.Editor {
		t.Fatalf("after the viewer the focus is on %T", focused)
	}

	onUI(func() { w.sidebar.OnShowAll(outsideFile(t)) })
	testsupport.Eventually(t, "the refusal", func() bool { return dialogOpen(w) })
	var said string
	onUI(func() {
		if k, ok := w.modals.top().(*keyDialog); ok {
			if l, ok := k.content.(*widget.Label); ok {
				said = l.Text
			}
		}
	})
	if !strings.Contains(said, "is outside the folders the agent writes its outputs to") {
		t.Fatalf("the refusal says %q", said)
	}
	press(w, fyne.KeyEscape)
}

func TestViewerLines(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"a\nb\n", []string{"a", "b"}},
		{"a\n\nb", []string{"a", "", "b"}},
		{"abcdefghij", []string{"abcdef", "ghij"}},
		{"ab\tc", []string{"ab    ", "c"}}, // the tab stops at the row's end
		{"€€€€€€€", []string{"€€€€€€", "€"}},
		{"", []string{""}},
	} {
		if got := viewerLines(c.in, 6); strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("viewerLines(%q, 6) = %q, want %q", c.in, got, c.want)
		}
	}
	if got := viewerLines("a\tb", 20); got[0] != "a       b" {
		t.Errorf("a tab to the next stop of 8: %q", got[0])
	}
}
