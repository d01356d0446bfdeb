package app

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"knightcode.ai/desktop/internal/testsupport"
)

// refreshRecorder is the current App while a test watches what a key
// repaints: every canvas.Refresh (and Container.Refresh) goes through
// Driver().CanvasForObject(obj).Refresh(obj), so its canvases record obj.
type refreshRecorder struct {
	fyne.App
	d *recordingDriver
}

func (a *refreshRecorder) Driver() fyne.Driver { return a.d }

type recordingDriver struct {
	fyne.Driver
	refreshed []fyne.CanvasObject
}

func (d *recordingDriver) CanvasForObject(o fyne.CanvasObject) fyne.Canvas {
	c := d.Driver.CanvasForObject(o)
	if c == nil {
		return nil
	}
	return &recordingCanvas{Canvas: c, d: d}
}

type recordingCanvas struct {
	fyne.Canvas
	d *recordingDriver
}

func (c *recordingCanvas) Refresh(o fyne.CanvasObject) {
	c.d.refreshed = append(c.d.refreshed, o)
	c.Canvas.Refresh(o)
}

// countingLayout wraps a container's layout to count its runs.
type countingLayout struct {
	inner fyne.Layout
	n     *int
}

func (l countingLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	*l.n++
	l.inner.Layout(objs, size)
}

func (l countingLayout) MinSize(objs []fyne.CanvasObject) fyne.Size { return l.inner.MinSize(objs) }

// treeNode is what the GL driver looks at in an object each frame: a
// changed MinSize makes it lay out the object's parent again.
type treeNode struct {
	path      string
	pos       fyne.Position
	size, min fyne.Size
	visible   bool
}

// keyWatch follows everything in a window outside one widget (the editor).
type keyWatch struct {
	t       *testing.T
	c       fyne.Canvas
	inside  fyne.CanvasObject
	rec     *recordingDriver
	layouts map[*fyne.Container]*int
}

func watchKeys(t *testing.T, c fyne.Canvas, inside fyne.CanvasObject) *keyWatch {
	a := fyne.CurrentApp()
	k := &keyWatch{t: t, c: c, inside: inside, rec: &recordingDriver{Driver: a.Driver()}, layouts: map[*fyne.Container]*int{}}
	fyne.SetCurrentApp(&refreshRecorder{App: a, d: k.rec})
	t.Cleanup(func() { fyne.SetCurrentApp(a) })
	return k
}

// walk visits every object in the window; in says whether it is the
// watched widget or inside it, own whether it belongs to the app rather
// than to a widget's renderer.
func (k *keyWatch) walk(visit func(o fyne.CanvasObject, path string, in, own bool)) {
	var rec func(o fyne.CanvasObject, path string, in, own bool)
	rec = func(o fyne.CanvasObject, path string, in, own bool) {
		if o == nil {
			return
		}
		in = in || o == k.inside
		path += "/" + strings.TrimPrefix(reflect.TypeOf(o).String(), "*")
		visit(o, path, in, own)
		switch o := o.(type) {
		case *fyne.Container:
			for i, c := range o.Objects {
				rec(c, fmt.Sprintf("%s[%d]", path, i), in, own)
			}
		case fyne.Widget:
			// A container the app put in a Split or Scroll is still the
			// app's; one a renderer made is the widget's.
			for i, c := range test.WidgetRenderer(o).Objects() {
				rec(c, fmt.Sprintf("%s[%d]", path, i), in, own && isHolder(o))
			}
		}
	}
	rec(k.c.Content(), "", false, true)
	for _, o := range k.c.Overlays().List() {
		rec(o, "overlay", false, true)
	}
}

// isHolder says whether a widget only holds content the app gave it.
func isHolder(w fyne.Widget) bool {
	switch w.(type) {
	case *container.Split, *container.Scroll:
		return true
	}
	return false
}

// snapshot records the objects outside the watched widget, and the
// watched widget itself (its MinSize is its parent's business), and
// counts the layouts of the app's containers from now on.
func (k *keyWatch) snapshot() map[fyne.CanvasObject]treeNode {
	out := map[fyne.CanvasObject]treeNode{}
	k.walk(func(o fyne.CanvasObject, path string, in, own bool) {
		if in && o != k.inside {
			return
		}
		out[o] = treeNode{path: path, pos: o.Position(), size: o.Size(), min: o.MinSize(), visible: o.Visible()}
		// Widgets type-assert their own containers' layouts (List does):
		// only the app's containers get a counting one. A widget's
		// layouts show as its refresh or as its parts moving.
		if c, ok := o.(*fyne.Container); ok && own && !in && c.Layout != nil {
			if _, seen := k.layouts[c]; !seen {
				n := 0
				k.layouts[c] = &n
				c.Layout = countingLayout{inner: c.Layout, n: &n}
			}
		}
	})
	return out
}

// key runs one key and reports everything it did outside the watched
// widget: objects refreshed, containers laid out, objects moved or
// resized, and MinSize changes the driver would answer with a layout.
func (k *keyWatch) key(name string, press func()) []string {
	before := k.snapshot()
	for _, n := range k.layouts {
		*n = 0
	}
	k.rec.refreshed = nil
	press()
	var out []string
	seen := map[fyne.CanvasObject]bool{}
	for _, o := range k.rec.refreshed {
		// Objects outside the window's tree (the entry's selection while
		// nothing is selected) paint nothing.
		n, inTree := before[o]
		if seen[o] || !inTree || o == k.inside {
			continue
		}
		seen[o] = true
		out = append(out, fmt.Sprintf("%s: refreshed %s", name, n.path))
	}
	after := k.snapshot()
	for o, b := range before {
		a, ok := after[o]
		switch {
		case !ok:
			out = append(out, fmt.Sprintf("%s: %s left the window", name, b.path))
		case o == k.inside:
			if a.min != b.min {
				out = append(out, fmt.Sprintf("%s: the watched widget's MinSize %v -> %v (its parent is laid out again)", name, b.min, a.min))
			}
		case a.min != b.min:
			out = append(out, fmt.Sprintf("%s: MinSize of %s %v -> %v", name, b.path, b.min, a.min))
		case a.size != b.size || a.pos != b.pos:
			out = append(out, fmt.Sprintf("%s: %s moved or resized", name, b.path))
		case a.visible != b.visible:
			out = append(out, fmt.Sprintf("%s: %s shown or hidden", name, b.path))
		}
	}
	for o := range after {
		if _, ok := before[o]; !ok {
			out = append(out, fmt.Sprintf("%s: %s appeared", name, after[o].path))
		}
	}
	for c, n := range k.layouts {
		if *n > 0 {
			path := "?"
			if b, ok := before[c]; ok {
				path = b.path
			}
			out = append(out, fmt.Sprintf("%s: %s laid out %d×", name, path, *n))
		}
	}
	return out
}

// TestWindowTypingTouchesOnlyTheEditor types into the real window, with a
// reply in the chat, and fails if a plain key refreshes, lays out, moves or
// resizes anything but the editor, or changes a MinSize the GL driver would
// answer by laying out a parent (it checks every object's MinSize each
// frame). The editor has a fixed height (three rows, then it scrolls), so
// not even a new line changes its MinSize; an editor that grows with its
// draft would have to show up here as the bar's MinSize changing only on
// the keys that add or remove a visible row.
func TestWindowTypingTouchesOnlyTheEditor(t *testing.T) {
	w, _ := openTestWindow(t)
	typeAndSend(w, "hello")
	testsupport.Eventually(t, "the reply", func() bool { return settledReply(w) })
	var k *keyWatch
	e := w.composer.prompt.Editor
	shift := &fyne.KeyEvent{Name: desktop.KeyShiftLeft}
	onUI(func() {
		w.win.Canvas().Focus(e)
		k = watchKeys(t, w.win.Canvas(), e)
	})
	keys := []struct {
		name  string
		press func()
	}{
		{"rune", func() { e.TypedRune('a') }},
		{"space", func() { e.TypedRune(' ') }},
		{"long line", func() {
			for range 200 {
				e.TypedRune('w')
			}
		}},
		{"backspace", func() { e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyBackspace}) }},
		{"left", func() { e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyLeft}) }},
		{"shift+enter", func() {
			e.KeyDown(shift)
			e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
			e.KeyUp(shift)
		}},
		{"many lines", func() {
			for range 8 {
				e.TypedRune('l')
				e.KeyDown(shift)
				e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
				e.KeyUp(shift)
			}
		}},
		{"rune after many lines", func() { e.TypedRune('z') }},
		{"select all", func() { e.TypedShortcut(&fyne.ShortcutSelectAll{}) }},
		{"rune over a selection", func() { e.TypedRune('q') }},
		{"click", func() {
			e.MouseDown(&desktop.MouseEvent{Button: desktop.MouseButtonPrimary})
			e.MouseUp(&desktop.MouseEvent{Button: desktop.MouseButtonPrimary})
		}},
	}
	var got []string
	for _, key := range keys {
		onUI(func() { got = append(got, k.key(key.name, key.press)...) })
	}
	if len(got) > 0 {
		t.Fatalf("typing reached beyond the editor:\n%s", strings.Join(got, "\n"))
	}
}
