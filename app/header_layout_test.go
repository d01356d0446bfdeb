package app

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"knightcode.ai/desktop/internal/testsupport"
	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/widgets/palette"
)

// The header gives way in order as the window narrows: the folder first,
// then the model and the name shrink to their floors, then the thinking
// picker goes; nothing ever reaches past the right edge, and the buttons
// stay whole.
func TestHeaderGivesWayInOrder(t *testing.T) {
	test.NewTempApp(t)
	name := widget.NewLabel("Hello, show me some markdown please")
	name.Truncation = fyne.TextTruncateEllipsis
	folder := widget.NewLabel("/home/someone/projects/knightcode")
	models := palette.NewModelPicker()
	models.SetModels([]model.ModelChoice{{Provider: "local", ID: "coder", Name: "Coder (reasoning)", Reasoning: true, Images: true}})
	models.SetCurrent("local", "coder")
	thinking := palette.NewThinkingPicker()
	thinking.SetLevels([]string{"off", "low", "medium", "high"})
	thinking.SetCurrent("medium")
	attach, settings := widget.NewButton("A", nil), widget.NewButton("S", nil)
	objects := []fyne.CanvasObject{name, folder, models, thinking, attach, settings}
	header := container.New(&headerLayout{}, objects...)

	for _, c := range []struct {
		width                     float32
		folder, thinking          bool
		nameAtLeast, modelAtLeast float32
		wholeModel                bool
	}{
		{width: 1400, folder: true, thinking: true, nameAtLeast: headerNameFloor, wholeModel: true},
		{width: 900, folder: false, thinking: true, nameAtLeast: headerNameFloor, wholeModel: true},
		{width: 640, folder: false, thinking: true, nameAtLeast: headerNameFloor, modelAtLeast: headerModelFloor},
		{width: 480, folder: false, thinking: false, nameAtLeast: headerNameFloor, modelAtLeast: headerModelFloor},
		{width: 1400, folder: true, thinking: true, nameAtLeast: headerNameFloor, wholeModel: true}, // and back
	} {
		header.Resize(fyne.NewSize(c.width, 40))
		header.Refresh()
		if folder.Visible() != c.folder || thinking.Visible() != c.thinking {
			t.Errorf("at %v: folder shown %v, thinking shown %v; want %v, %v", c.width, folder.Visible(), thinking.Visible(), c.folder, c.thinking)
		}
		if name.Size().Width < c.nameAtLeast {
			t.Errorf("at %v: the name is %v wide, under %v", c.width, name.Size().Width, c.nameAtLeast)
		}
		if c.wholeModel && models.Size().Width < models.MinSize().Width {
			t.Errorf("at %v: the model picker is cut (%v of %v)", c.width, models.Size().Width, models.MinSize().Width)
		}
		if !c.thinking && !c.wholeModel && models.Size().Width < models.MinSize().Width && name.Size().Width > c.nameAtLeast+1 {
			t.Errorf("at %v: the name (%v) took room the cut model picker needs", c.width, name.Size().Width)
		}
		if models.Size().Width < c.modelAtLeast {
			t.Errorf("at %v: the model picker is %v wide, under %v", c.width, models.Size().Width, c.modelAtLeast)
		}
		for i, o := range objects {
			if !o.Visible() {
				continue
			}
			if right := o.Position().X + o.Size().Width; right > c.width+0.5 || o.Position().X < 0 {
				t.Errorf("at %v: object %d spans %v…%v, outside the header", c.width, i, o.Position().X, right)
			}
			if i >= headerButtons && o.Size().Width < o.MinSize().Width {
				t.Errorf("at %v: button %d is cut", c.width, i)
			}
		}
	}
}

// The window is never made smaller than its minimum, where the header and
// the status bar still fit; a narrow tab folds the tool sidebar away
// behind a toggle in the header, which brings it back; a wide one shows
// it again.
func TestNarrowWindowFoldsTheSidebar(t *testing.T) {
	w, _ := openTestWindow(t)
	var min fyne.Size
	onUI(func() { min = w.win.Content().MinSize() })
	if min.Width < minWindowSize.Width || min.Height < minWindowSize.Height {
		t.Fatalf("the window's content may shrink to %v, under %v", min, minWindowSize)
	}

	resize := func(width float32) {
		onUI(func() { w.win.Resize(fyne.NewSize(width, 600)) })
	}
	state := func() (sidebar, toggle bool) {
		onUI(func() { sidebar, toggle = w.right.object.Visible(), w.fold.toggle.Visible() })
		return
	}
	if s, tg := state(); !s || tg {
		t.Fatalf("wide: sidebar shown %v, toggle shown %v", s, tg)
	}
	resize(520)
	testsupport.Eventually(t, "the sidebar folded and the toggle shown", func() bool { s, tg := state(); return !s && tg })
	// The minimum is the same with the sidebar folded: the driver raises a
	// window's size limits when its content grows but never lowers them,
	// so a minimum counting the sidebar would keep the window from
	// getting narrower once folded.
	var folded fyne.Size
	onUI(func() { folded = w.win.Content().MinSize() })
	if folded.Width != min.Width {
		t.Fatalf("the window's minimum width is %v with the sidebar shown, %v folded", min.Width, folded.Width)
	}
	onUI(func() { test.Tap(w.fold.toggle) })
	if s, _ := state(); !s {
		t.Fatal("the toggle did not bring the sidebar back")
	}
	onUI(func() { test.Tap(w.fold.toggle) })
	if s, _ := state(); s {
		t.Fatal("the toggle did not fold the sidebar again")
	}
	resize(1100)
	testsupport.Eventually(t, "the sidebar back and the toggle gone", func() bool { s, tg := state(); return s && !tg })
}

// A toast covers none of the header (where the pickers just used are):
// it shows over the transcript.
func TestToastsLeaveTheHeaderFree(t *testing.T) {
	w, _ := openTestWindow(t)
	onUI(func() {
		w.win.Resize(fyne.NewSize(1100, 700))
		w.toasts.Show("Nothing is running.", model.NoticeInfo)
	})
	var toast, header fyne.Position
	var toastSize, headerSize fyne.Size
	testsupport.Eventually(t, "a toast on screen", func() bool {
		found := false
		onUI(func() {
			// The layer's own renderer: LaidOutObjects would make a new,
			// empty one.
			for _, o := range test.WidgetRenderer(w.toasts.Object().(fyne.Widget)).Objects() {
				if _, ok := o.(fyne.Tappable); ok && o.Size().Width > 0 {
					d := fyne.CurrentApp().Driver()
					toast, toastSize = d.AbsolutePositionForObject(o), o.Size()
					header, headerSize = d.AbsolutePositionForObject(w.top), w.top.Size()
					found = true
				}
			}
		})
		return found
	})
	if toast.Y < header.Y+headerSize.Height {
		t.Fatalf("the toast (%v, %v) overlaps the header (%v, %v)", toast, toastSize, header, headerSize)
	}
}
