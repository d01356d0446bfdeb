package changes

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"knightcode.ai/desktop/widgets/kit"
	"knightcode.ai/desktop/widgets/widgettest" // in-place background work, queued Later
)

// goDiff is a diff of a Go file of n lines in hunks of ten: a header, four
// context lines, three removed, three added.
func goDiff(n int) Diff {
	var lines []Line
	old, new := 1, 1
	for h := 0; len(lines) < n; h++ {
		var body []string
		for k := 0; k < 4; k++ {
			body = append(body, fmt.Sprintf(" \tx := %d // context", k))
		}
		for k := 0; k < 3; k++ {
			body = append(body, fmt.Sprintf("-\treturn %q", "old"))
		}
		for k := 0; k < 3; k++ {
			body = append(body, fmt.Sprintf("+\treturn %q", "new"))
		}
		header := fmt.Sprintf("@@ -%d,7 +%d,7 @@ func f%d()", old, new, h)
		lines = append(lines, HunkLines(h, header, old, new, body)...)
		old, new = old+100, new+100
	}
	return Diff{Path: "pkg/big.go", Lines: lines[:n]}
}

func showDiff(t testing.TB, d Diff) (*DiffView, fyne.Window) {
	test.NewTempApp(t)
	v := NewDiffView()
	w := test.NewTempWindow(t, v)
	w.Resize(fyne.NewSize(800, 600))
	v.Set(d)
	return v, w
}

// liveObjects counts the objects in v's renderer tree, as the painter
// walks it.
func liveObjects(o fyne.CanvasObject) int {
	n := 1
	switch c := o.(type) {
	case fyne.Widget:
		for _, k := range test.WidgetRenderer(c).Objects() {
			n += liveObjects(k)
		}
	case *fyne.Container:
		for _, k := range c.Objects {
			n += liveObjects(k)
		}
	}
	return n
}

// drawnTexts are the texts of the body's objects, in order.
func drawnTexts(v *DiffView) []string {
	var out []string
	for _, o := range v.body.objects {
		if t, ok := o.(*canvas.Text); ok {
			out = append(out, t.Text)
		}
	}
	return out
}

func TestDiffViewCostFollowsTheScreen(t *testing.T) {
	v, _ := showDiff(t, goDiff(20000))
	// 600 px of lines of ~17 px, a margin of 8 around: ~50 lines, at most
	// a band, two numbers, a sign and a few coloured runs each.
	const bound = 600
	atTop := liveObjects(v)
	if atTop > bound || len(v.body.objects) == 0 {
		t.Fatalf("at the top: %d live objects (%d drawn), want 1..%d", atTop, len(v.body.objects), bound)
	}
	t.Logf("at the top: %d live objects, %d of them the rows' own", atTop, v.body.shown.Count())
	v.ScrollTo(0, v.body.MinSize().Height/2)
	if n := liveObjects(v); n > bound {
		t.Fatalf("in the middle: %d live objects, want ≤ %d", n, bound)
	}
	mid := v.body.LineTop(10000)
	if v.Offset().Y > mid || v.Offset().Y+600 < mid {
		t.Fatalf("scrolled to %v, line 10000 at %v is not in view", v.Offset(), mid)
	}
	v.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEnd})
	if n := liveObjects(v); n > bound {
		t.Fatalf("at the end: %d live objects, want ≤ %d", n, bound)
	}
	texts := strings.Join(drawnTexts(v), "\n")
	last := v.diff.Lines[len(v.diff.Lines)-1]
	if !strings.Contains(texts, fmt.Sprint(last.New)) {
		t.Errorf("at the end, the last line's number %d is not drawn", last.New)
	}
	t.Logf("at the end: %d live objects; %d chunks lexed", liveObjects(v), v.body.hl.lexed)
	if chunks := len(v.body.hl.state); v.body.hl.lexed > 6 {
		t.Errorf("%d of %d chunks lexed after showing three screens", v.body.hl.lexed, chunks)
	}
}

func TestDiffViewHighlightsLikeTheChat(t *testing.T) {
	v, _ := showDiff(t, goDiff(40))
	// A context line "\tx := 0 // context": the comment is coloured apart
	// from the code, and the tab is expanded.
	colours := map[string]string{}
	for _, o := range v.body.objects {
		if t, ok := o.(*canvas.Text); ok {
			r, g, b, _ := t.Color.RGBA()
			colours[t.Text] = fmt.Sprint(r, g, b)
		}
	}
	t.Logf("colours: %v", colours)
	if colours["// context"] == "" || colours["// context"] == colours["x"] && colours["x"] != "" {
		t.Errorf("the comment is not coloured apart: %v", colours)
	}
	for text := range colours {
		if strings.Contains(text, "\t") {
			t.Errorf("a tab is drawn: %q", text)
		}
	}
}

func TestDiffViewHunkButtons(t *testing.T) {
	v, _ := showDiff(t, goDiff(30))
	type call struct {
		hunk  int
		label string
	}
	var calls []call
	v.OnHunkAction = func(h int, label string) { calls = append(calls, call{h, label}) }
	v.SetHunkActions("Revert", "Stage")
	for _, o := range v.body.objects {
		if b, ok := o.(*kit.MiniButton); ok {
			test.Tap(b)
		}
	}
	sort.Slice(calls, func(i, j int) bool {
		return calls[i].hunk < calls[j].hunk || calls[i].hunk == calls[j].hunk && calls[i].label < calls[j].label
	})
	want := []call{{0, "Revert"}, {0, "Stage"}, {1, "Revert"}, {1, "Stage"}, {2, "Revert"}, {2, "Stage"}}
	if fmt.Sprint(calls) != fmt.Sprint(want) {
		t.Fatalf("tapping every button called %v, want %v", calls, want)
	}
}

func TestDiffViewKeysScroll(t *testing.T) {
	v, w := showDiff(t, goDiff(2000))
	w.Canvas().Focus(v)
	v.TypedKey(&fyne.KeyEvent{Name: fyne.KeyPageDown})
	if y := v.Offset().Y; y < 400 {
		t.Fatalf("Page Down scrolled to %v", y)
	}
	v.TypedKey(&fyne.KeyEvent{Name: fyne.KeyUp})
	v.TypedKey(&fyne.KeyEvent{Name: fyne.KeyHome})
	if y := v.Offset().Y; y != 0 {
		t.Fatalf("Home left the view at %v", y)
	}
	v.TypedShortcut(&fyne.ShortcutCopy{})
	if got := fyne.CurrentApp().Clipboard().Content(); got != v.Text() || !strings.HasPrefix(got, "@@ -1,7 +1,7 @@") {
		t.Fatalf("Ctrl+C copied %.60q", got)
	}
}

func TestDiffViewNote(t *testing.T) {
	v, w := showDiff(t, goDiff(100))
	v.Set(Diff{Path: "x.go", Note: "git said: " + strings.Repeat("fatal: a long refusal ", 20)})
	if size := v.note.MinSize(); size.Width > 800 {
		t.Errorf("a long note is %v wide in a view 800 wide: not wrapped", size)
	}
	v.Set(Diff{Path: "logo.png", Note: "Binary file"})
	if len(v.body.objects) != 0 {
		t.Errorf("%d line objects for a diff without lines", len(v.body.objects))
	}
	if !test.LaidOutObjects(w.Canvas().Content())[0].Visible() || v.note.Text != "Binary file" {
		t.Errorf("the note is not shown")
	}
	if v.Text() != "Binary file" {
		t.Errorf("Text() = %q", v.Text())
	}
}

func TestParseUnifiedRoundTrip(t *testing.T) {
	text := "diff --git a/x.go b/x.go\n--- a/x.go\n+++ b/x.go\n" +
		"@@ -3,4 +3,4 @@ func a()\n ctx\n-old\n+new\n ctx2\n\\ No newline at end of file\n" +
		"@@ -20 +20,2 @@\n-z\n+y\n+w\n"
	lines := ParseUnified(text)
	if got, want := (Diff{Lines: lines}).Text(), text[strings.Index(text, "@@"):]; got != want {
		t.Fatalf("Text() =\n%s\nwant\n%s", got, want)
	}
	if l := lines[3]; l.Kind != '+' || l.New != 4 || l.Old != 0 || l.Hunk != 0 {
		t.Errorf("the added line is %+v", l)
	}
	if l := lines[4]; l.Old != 5 || l.New != 5 {
		t.Errorf("the context after it is %+v", l)
	}
	if l := lines[len(lines)-1]; l.New != 21 || l.Hunk != 1 {
		t.Errorf("the last line is %+v", l)
	}
}

func TestDiffViewCopiesSelectedLines(t *testing.T) {
	v, _ := showDiff(t, goDiff(30))
	row := func(i int, shift bool) *desktop.MouseEvent {
		ev := &desktop.MouseEvent{Button: desktop.MouseButtonPrimary}
		ev.Position = fyne.NewPos(200, v.body.LineTop(i)+v.body.m.rowH/2)
		if shift {
			ev.Modifier = fyne.KeyModifierShift
		}
		return ev
	}
	v.body.MouseDown(row(8, false))
	v.body.MouseDown(row(6, true))
	v.TypedShortcut(&fyne.ShortcutCopy{})
	want := "-\treturn \"old\"\n-\treturn \"old\"\n+\treturn \"new\"\n"
	if got := fyne.CurrentApp().Clipboard().Content(); got != want {
		t.Fatalf("Ctrl+C with lines 6-8 selected copied %q, want %q", got, want)
	}
	selected := 0
	for _, o := range v.body.objects {
		if r, ok := o.(*canvas.Rectangle); ok && r.FillColor == v.body.m.selection {
			selected++
		}
	}
	if selected != 3 {
		t.Errorf("%d lines drawn selected, want 3", selected)
	}
	v.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if v.SelectedText() != "" {
		t.Errorf("Esc left %q selected", v.SelectedText())
	}
}

func TestDiffViewFollowsTheTheme(t *testing.T) {
	v, _ := showDiff(t, goDiff(40))
	fyne.CurrentApp().Settings().SetTheme(widgettest.LightTheme())
	v.Refresh()
	light := v.body.m.dim // the gutter's numbers
	fyne.CurrentApp().Settings().SetTheme(widgettest.DarkTheme())
	v.Refresh()
	if v.body.m.dim == light {
		t.Fatalf("the numbers' colour is %v in both variants", light)
	}
	numbers := 0
	for _, o := range v.body.objects {
		if tx, ok := o.(*canvas.Text); ok && tx.Text == "1" {
			numbers++
			if tx.Color == light {
				t.Fatalf("line 1's number kept its light-theme colour after the switch to dark")
			}
		}
	}
	if numbers == 0 {
		t.Fatalf("line 1's number is not drawn")
	}
}

func TestDiffViewScrollsSidewaysWithButtonsInView(t *testing.T) {
	d := goDiff(30)
	d.Lines[2].Text = strings.Repeat("wide ", 400) // 2,000 cells, cut at maxLineCells
	v, _ := showDiff(t, d)
	v.SetHunkActions("Revert")
	if w := v.body.MinSize().Width; w < float32(maxLineCells)*v.body.m.cell.Width || w > float32(maxLineCells+40)*v.body.m.cell.Width {
		t.Fatalf("content %v wide for a line cut at %d cells", w, maxLineCells)
	}
	v.TypedKey(&fyne.KeyEvent{Name: fyne.KeyRight})
	v.ScrollTo(1500, 0)
	off, view := v.Offset(), v.scroll.Size()
	if off.X != 1500 {
		t.Fatalf("scrolled sideways to %v", off)
	}
	buttons := 0
	for _, o := range v.body.objects {
		if b, ok := o.(*kit.MiniButton); ok {
			buttons++
			if x := b.Position().X; x < off.X || x+b.Size().Width > off.X+view.Width {
				t.Errorf("a hunk button at x %v is outside the view [%v, %v]", x, off.X, off.X+view.Width)
			}
		}
	}
	if buttons == 0 {
		t.Fatal("no hunk buttons drawn")
	}
}
