package changes

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
	"knightcode.ai/desktop/widgets/kit"
)

// File is one changed file as the list shows it.
type File struct {
	Path, OldPath string // OldPath is set for a rename
	// Status is 'A' added, 'M' modified, 'D' deleted, 'R' renamed, 'T'
	// type changed.
	Status         byte
	Added, Deleted int
	// Binary and ModeOnly replace the line counts with "binary" or "mode".
	Binary, ModeOnly bool
	// Staged marks a file with staged changes.
	Staged bool
}

// FileList lists changed files, one row each: the status letter, the path
// (its folder dimmed, cut from the left when long) and the line counts.
// Arrow keys move the selection, Enter and a click select.
type FileList struct {
	widget.BaseWidget

	// OnSelect runs when the user selects a file (click, keys). Set does
	// not call it.
	OnSelect func(i int, f File)

	files   []File
	list    *kit.KeyList
	setting bool
}

// NewFileList is an empty file list.
func NewFileList() *FileList {
	l := &FileList{}
	l.list = kit.NewKeyList(func() int { return len(l.files) }, l.newRow, l.updateRow)
	l.list.OnSelect = func(id widget.ListItemID) {
		if !l.setting && l.OnSelect != nil && id >= 0 && id < len(l.files) {
			l.OnSelect(id, l.files[id])
		}
	}
	l.list.OnActivate = l.list.OnSelect
	l.ExtendBaseWidget(l)
	return l
}

// Set shows files. The selected file stays selected when it is still
// there (found by path), wherever it moved; otherwise nothing is.
func (l *FileList) Set(files []File) {
	keep := -1
	if _, f, ok := l.Selected(); ok {
		for j, g := range files {
			if g.Path == f.Path {
				keep = j
				break
			}
		}
	}
	l.files = append([]File(nil), files...)
	l.setting = true
	l.list.Reset(keep)
	l.setting = false
}

// Selected is the selected file and its row, ok false when none is.
func (l *FileList) Selected() (int, File, bool) {
	i := l.list.Sel
	if i < 0 || i >= len(l.files) {
		return -1, File{}, false
	}
	return i, l.files[i], true
}

// Select selects row i (clamped) as the user would, calling OnSelect.
func (l *FileList) Select(i int) { l.list.SelectRow(i) }

// Files is what the list shows.
func (l *FileList) Files() []File { return l.files }

func (l *FileList) FocusGained()               { l.list.FocusGained() }
func (l *FileList) FocusLost()                 { l.list.FocusLost() }
func (l *FileList) TypedKey(ev *fyne.KeyEvent) { l.list.TypedKey(ev) }
func (l *FileList) TypedRune(r rune)           { l.list.TypedRune(r) }

func (l *FileList) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(l.list)
}
