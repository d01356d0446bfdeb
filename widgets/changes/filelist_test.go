package changes

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

func showFiles(t *testing.T, files []File) *FileList {
	test.NewTempApp(t)
	l := NewFileList()
	w := test.NewTempWindow(t, l)
	w.Resize(fyne.NewSize(360, 300))
	l.Set(files)
	return l
}

func TestFileListKeepsSelectionByPath(t *testing.T) {
	l := showFiles(t, []File{{Path: "a.go", Status: 'M'}, {Path: "b.go", Status: 'A'}, {Path: "c.go", Status: 'D'}})
	var picked []string
	l.OnSelect = func(i int, f File) { picked = append(picked, f.Path) }
	l.Select(1)
	if len(picked) != 1 || picked[0] != "b.go" {
		t.Fatalf("selecting row 1 reported %v", picked)
	}
	// A new file sorts before it: b.go moves to row 2 and stays selected,
	// without OnSelect.
	l.Set([]File{{Path: "0.go", Status: 'A'}, {Path: "a.go", Status: 'M'}, {Path: "b.go", Status: 'M', Added: 3}})
	if i, f, ok := l.Selected(); !ok || i != 2 || f.Path != "b.go" || f.Added != 3 {
		t.Fatalf("after Set the selection is %d %+v %v, want row 2 b.go", i, f, ok)
	}
	if len(picked) != 1 {
		t.Errorf("Set called OnSelect: %v", picked)
	}
	// Keys move it as in the app's other lists.
	l.Focusable().TypedKey(&fyne.KeyEvent{Name: fyne.KeyUp})
	if _, f, _ := l.Selected(); f.Path != "a.go" || picked[len(picked)-1] != "a.go" {
		t.Errorf("Up selected %+v, reported %v", f, picked)
	}
	// Gone: nothing selected.
	l.Set([]File{{Path: "c.go", Status: 'M'}})
	if _, _, ok := l.Selected(); ok {
		t.Errorf("a file gone from the list is still selected")
	}
}

func TestFileRowsSay(t *testing.T) {
	files := []File{
		{Path: "widgets/new name.go", OldPath: "widgets/old.go", Status: 'R', Added: 1, Deleted: 2},
		{Path: "assets/logo.png", Status: 'M', Binary: true},
		{Path: "scripts/run.sh", Status: 'M', ModeOnly: true, Staged: true},
		{Path: "deep/" + strings.Repeat("folder/", 20) + "last.go", Status: 'D', Deleted: 40},
	}
	l := showFiles(t, files)
	for i, want := range []string{
		"R|widgets/old.go → widgets/new name.go|+1|−2",
		"M|assets/logo.png|binary|",
		"M|scripts/run.sh|mode|",
		"D|…last.go|+0|−40",
	} {
		r := l.newRow().(*fileRow)
		r.Resize(fyne.NewSize(360, r.HeightAt(360)))
		l.updateRow(i, r)
		got := strings.Join([]string{r.status.Text, r.dir.Text + r.name.Text, r.added.Text, r.deleted.Text}, "|")
		if i == 3 { // cut from the left, the name kept
			if !strings.HasPrefix(r.dir.Text, "…") || r.name.Text != "last.go" {
				t.Errorf("row 3: %q", got)
			}
			continue
		}
		if got != want {
			t.Errorf("row %d: %q, want %q", i, got, want)
		}
		if staged := len(r.Parts()) == 6; staged != files[i].Staged {
			t.Errorf("row %d: staged mark %v, want %v", i, staged, files[i].Staged)
		}
	}
}
