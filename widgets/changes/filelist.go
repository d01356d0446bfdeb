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
	// reveal is set when a row was selected before the list had a
	// height: the List scrolled for a height of zero, past the row.
	reveal bool
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
	l.reveal = l.list.Size().Height <= 0
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
func (l *FileList) Select(i int) {
	l.list.SelectRow(i)
	l.reveal = l.list.Size().Height <= 0
}

// Files is what the list shows.
func (l *FileList) Files() []File { return l.files }

// Focusable is what takes the keyboard, for the window to focus: the
// list inside (the FileList itself is not one, so Tab stops once).
func (l *FileList) Focusable() fyne.Focusable { return l.list }

func (l *FileList) CreateRenderer() fyne.WidgetRenderer { return &fileListRenderer{l: l} }

type fileListRenderer struct{ l *FileList }

func (r *fileListRenderer) Layout(size fyne.Size) {
	l := r.l
	l.list.Resize(size)
	if l.reveal && size.Height > 0 {
		l.reveal = false
		l.list.ScrollToTop()
		if l.list.Sel >= 0 {
			l.list.ScrollTo(l.list.Sel)
		}
	}
}

func (r *fileListRenderer) MinSize() fyne.Size           { return r.l.list.MinSize() }
func (r *fileListRenderer) Refresh()                     { r.l.list.Refresh() }
func (r *fileListRenderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.l.list} }
func (r *fileListRenderer) Destroy()                     {}
