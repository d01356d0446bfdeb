// Command diffdemo shows the changes pane's widgets over a real git diff,
// for screenshots: diffdemo [-C dir] [-from rev] [-dark] [-side] [-gen N].
// The file list is `git diff --numstat from`, the diff view the selected
// file's `git diff from -- path`; -gen shows a generated diff of N lines.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"knightcode.ai/desktop/widgets/changes"
)

func main() {
	dir := flag.String("C", ".", "the repository")
	from := flag.String("from", "HEAD~1", "the revision to diff against")
	dark := flag.Bool("dark", false, "the dark theme")
	gen := flag.Int("gen", 0, "show a generated diff of this many lines")
	side := flag.Bool("side", false, "side by side")
	flag.Parse()

	a := app.NewWithID("ai.knightcode.diffdemo")
	if *dark {
		a.Settings().SetTheme(theme.DarkTheme()) //nolint:staticcheck // a demo's fixed look
	} else {
		a.Settings().SetTheme(theme.LightTheme()) //nolint:staticcheck
	}
	w := a.NewWindow("diffdemo")
	files := changes.NewFileList()
	view := changes.NewDiffView()
	view.SetHunkActions("Revert", "Stage")
	view.SetSideBySide(*side)
	view.OnHunkAction = func(h int, label string) { fmt.Println(label, "hunk", h) }
	files.OnSelect = func(_ int, f changes.File) {
		view.Set(fileDiff(*dir, *from, f))
	}
	list := numstat(*dir, *from)
	files.Set(list)
	if *gen > 0 {
		view.Set(generated(*gen))
	} else if len(list) > 0 {
		files.Select(0)
	}
	split := container.NewHSplit(files, view)
	split.Offset = 0.28
	w.SetContent(split)
	w.Resize(fyne.NewSize(1400, 900))
	w.ShowAndRun()
}

func git(dir string, args ...string) string {
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = os.Stderr
	_ = cmd.Run()
	return out.String()
}

// numstat lists the changed files with their counts and statuses.
func numstat(dir, from string) []changes.File {
	status, oldPath := map[string]byte{}, map[string]string{}
	for _, l := range strings.Split(git(dir, "diff", "--name-status", "-M", from), "\n") {
		if f := strings.Split(l, "\t"); len(f) >= 2 {
			status[f[len(f)-1]] = l[0]
			if len(f) == 3 {
				oldPath[f[2]] = f[1]
			}
		}
	}
	var out []changes.File
	for _, l := range strings.Split(git(dir, "diff", "--numstat", "-M", from), "\n") {
		f := strings.Split(l, "\t")
		if len(f) < 3 {
			continue
		}
		file := changes.File{Path: f[2]}
		if strings.Contains(f[2], " => ") { // -z would be exact; a demo reads the plain form
			file.Path = renamedPath(f[2])
			file.OldPath = oldPath[file.Path]
		}
		file.Binary = f[0] == "-"
		file.Added, _ = strconv.Atoi(f[0])
		file.Deleted, _ = strconv.Atoi(f[1])
		file.Status = status[file.Path]
		if file.Status == 0 {
			file.Status = 'M'
		}
		out = append(out, file)
	}
	return out
}

// renamedPath is the new name in numstat's "a/{old => new}/b" form.
func renamedPath(s string) string {
	i, j := strings.Index(s, "{"), strings.Index(s, "}")
	arrow := strings.Index(s, " => ")
	if i < 0 || j < i {
		return s[arrow+4:]
	}
	return strings.ReplaceAll(s[:i]+s[arrow+4:j]+s[j+1:], "//", "/")
}

func fileDiff(dir, from string, f changes.File) changes.Diff {
	if f.Binary {
		return changes.Diff{Path: f.Path, Note: "Binary file"}
	}
	args := []string{"diff", "--no-color", "-M", from, "--", f.Path}
	if f.OldPath != "" {
		args = append(args, f.OldPath)
	}
	return changes.Diff{Path: f.Path, Lines: changes.ParseUnified(git(dir, args...))}
}

// generated is a Go diff of n lines in hunks of ten.
func generated(n int) changes.Diff {
	var lines []changes.Line
	for h := 0; len(lines) < n; h++ {
		body := []string{" func f() int {", "-\treturn 1 // old", "+\treturn 2 // new", "+\t// and a comment", " }"}
		lines = append(lines, changes.HunkLines(h, fmt.Sprintf("@@ -%d,4 +%d,5 @@", 1+h*100, 1+h*101), 1+h*100, 1+h*101, body)...)
	}
	return changes.Diff{Path: "generated.go", Lines: lines[:n]}
}
