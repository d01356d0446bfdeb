package app

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// sidebarFoldWidth is the tab width below which the tool sidebar folds
// away: under it the sidebar's share would break file names mid-word and
// leave the transcript too narrow to read.
const sidebarFoldWidth = 760

// sidebarFold shows or folds the tool sidebar beside the transcript. By
// itself it folds the sidebar in a narrow tab and shows it in a wide one;
// the header's toggle (shown while the tab is narrow) and View › Tool
// sidebar override that until the tab crosses the width again.
type sidebarFold struct {
	split   *container.Split
	sidebar fyne.CanvasObject
	// toggle is the header's button; it shows only in a narrow tab, where
	// the sidebar is away by default.
	toggle *widget.Button
	// toggled runs when the toggle shows or hides: its row lays out again.
	toggled func()
	narrow  bool
	shown   bool
}

func newSidebarFold(split *container.Split, sidebar fyne.CanvasObject) *sidebarFold {
	f := &sidebarFold{split: split, sidebar: sidebar, shown: true}
	f.toggle = widget.NewButtonWithIcon("", theme.ListIcon(), f.flip)
	f.toggle.Hide()
	return f
}

// watch wraps the tab's middle (the split and what stacks with it) in a
// layout that tells the fold the tab's width.
func (f *sidebarFold) watch(objects ...fyne.CanvasObject) *fyne.Container {
	return container.New(foldLayout{f}, objects...)
}

// flip is the toggle and the menu item: the other way from now, until the
// tab crosses the width.
func (f *sidebarFold) flip() {
	f.apply(!f.shown)
}

// setNarrow follows the tab's width: crossing it drops the user's choice.
func (f *sidebarFold) setNarrow(narrow bool) {
	if narrow == f.narrow {
		return
	}
	f.narrow = narrow
	if narrow {
		f.toggle.Show()
	} else {
		f.toggle.Hide()
	}
	if f.toggled != nil {
		f.toggled()
	}
	f.apply(!narrow)
}

func (f *sidebarFold) apply(shown bool) {
	if f.shown == shown {
		return
	}
	f.shown = shown
	if shown {
		f.sidebar.Show()
	} else {
		f.sidebar.Hide()
	}
	f.split.Refresh()
}

// foldLayout stacks its objects, as container.NewStack does, and passes
// the width on to the fold first.
type foldLayout struct{ f *sidebarFold }

func (l foldLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	if size.Width > 0 {
		l.f.setNarrow(size.Width < sidebarFoldWidth)
	}
	for _, o := range objects {
		o.Move(fyne.Position{})
		o.Resize(size)
	}
}

// MinSize leaves the sidebar out: with it, the window's minimum would be
// wider than the width the sidebar folds at, and the driver updates a
// window's size limits only when its content grows, so the window could
// never be made narrow enough to fold it.
func (l foldLayout) MinSize(objects []fyne.CanvasObject) fyne.Size {
	var m fyne.Size
	for _, o := range objects {
		switch {
		case !o.Visible():
		case o == fyne.CanvasObject(l.f.split):
			m = m.Max(l.f.split.Leading.MinSize())
		default:
			m = m.Max(o.MinSize())
		}
	}
	return m
}
