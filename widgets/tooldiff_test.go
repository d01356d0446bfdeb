package widgets

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"knightcode.ai/desktop/model"
)

func TestParseDiffRow(t *testing.T) {
	for _, c := range []struct {
		row  string
		mark diffMark
		text string
	}{
		{"+12 added", diffMark{diffAdded, "12"}, "added"},
		{"- 9 \treturn 3", diffMark{diffRemoved, "9"}, "\treturn 3"},
		{" 10 }", diffMark{diffContext, "10"}, "}"},
		{"  3     indented", diffMark{diffContext, "3"}, "    indented"},
		{"    ...", diffMark{kind: diffSkip}, "..."},
		{"   ...", diffMark{kind: diffSkip}, "..."},
		{"+1 ", diffMark{diffAdded, "1"}, ""},
		{"+7", diffMark{diffAdded, "7"}, ""},
		{"@@ -1,2 +1,3 @@", diffMark{}, "@@ -1,2 +1,3 @@"},
		{"", diffMark{}, ""},
		{"-removed without a number", diffMark{kind: diffRemoved}, "removed without a number"},
	} {
		m, text := parseDiffRow(c.row)
		if m != c.mark || text != c.text {
			t.Errorf("parseDiffRow(%q) = %+v %q, want %+v %q", c.row, m, text, c.mark, c.text)
		}
	}
}

func TestWrapCommand(t *testing.T) {
	for _, c := range []struct {
		in   string
		cols int
		want []string
	}{
		{"ls -la", 20, []string{"ls -la"}},
		{"go test ./... -run TestX -count=1", 16, []string{"go test ./... ", "-run TestX ", "-count=1"}},
		{"abcdefghijklmnop", 6, []string{"abcdef", "ghijkl", "mnop"}},
		{"cat <<EOF\n\tline\nEOF", 20, []string{"cat <<EOF", "    line", "EOF"}},
		{"a\nb\nc\nd", 20, []string{"a", "b", "c…"}},
	} {
		maxRows := 10
		if strings.Count(c.in, "\n") == 3 {
			maxRows = 3
		}
		if got := wrapCommand(c.in, c.cols, maxRows); !reflect.DeepEqual(got, c.want) {
			t.Errorf("wrapCommand(%q, %d) = %q, want %q", c.in, c.cols, got, c.want)
		}
	}
}

// TestToolSidebarDiff: edit and write cards show their diff, each row with
// its line number and sign in the gutter, added rows tinted and signed in
// the success colour, removed ones in the error colour, unchanged ones
// plain; a file's content is numbered and untinted. The caption counts
// the change and says where a computed diff comes from.
func TestToolSidebarDiff(t *testing.T) {
	s, w := showSidebar(t, diffCards())
	w.Resize(fyne.NewSize(420, 720))
	s.toggle(s.states["d1"])
	s.toggle(s.states["d2"])
	test.AssertRendersToMarkup(t, "toolsidebar/diff.xml", w.Canvas())

	v := viewOf(t, s, "d1")
	if v.diffAdd.Text != "+3" || v.diffDel.Text != "−2" || v.copyDiff.Hidden || !v.copyBtn.Hidden {
		t.Fatalf("caption %q %q, copy diff hidden %v, output copy hidden %v", v.diffAdd.Text, v.diffDel.Text, v.copyDiff.Hidden, v.copyBtn.Hidden)
	}
	type row struct {
		gutter, text string
		tinted       bool
	}
	got := map[string]row{}
	var gutterColor = map[string]any{}
	for _, r := range v.mono.rows {
		g := ""
		if r.gutter != nil {
			g = r.gutter.Text
			gutterColor[strings.TrimSpace(g)] = r.gutter.Color
		}
		got[r.text.Text] = row{g, r.text.Text, r.bg != nil}
	}
	want := map[string]row{
		"...":                    {"", "...", false},
		"func stripes() int {":   {" 8  ", "func stripes() int {", false},
		"    return 3":           {" 9 -", "    return 3", true},
		"    return 4":           {" 9 +", "    return 4", true},
		"const legs = 4":         {"99 +", "const legs = 4", true},
		`const colour = "black"`: {"98 -", `const colour = "black"`, true},
		"// mane":                {"97  ", "// mane", false},
		"}":                      {"10  ", "}", false},
		`const colour = "white"`: {"98 +", `const colour = "white"`, true},
		"":                       {"11  ", "", false},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("rows\n%+v\nwant\n%+v", got, want)
	}
	vr := fyne.CurrentApp().Settings().ThemeVariant()
	cur := fyne.CurrentApp().Settings().Theme()
	if gutterColor["9 +"] != cur.Color(theme.ColorNameSuccess, vr) || gutterColor["9 -"] != cur.Color(theme.ColorNameError, vr) ||
		gutterColor["8"] != cur.Color(theme.ColorNamePlaceHolder, vr) {
		t.Fatalf("gutter colours %v", gutterColor)
	}
	for _, r := range v.mono.rows {
		if r.bg == nil {
			continue
		}
		want := v.mono.addBg
		if strings.HasSuffix(r.gutter.Text, "-") {
			want = v.mono.delBg
		}
		if r.bg.FillColor != want || r.bg.Size().Width < v.mono.Size().Width {
			t.Fatalf("row %q tinted %v over %v, want %v over the row", r.text.Text, r.bg.FillColor, r.bg.Size().Width, want)
		}
	}

	wv := viewOf(t, s, "d2")
	if wv.diffNote.Text != "4 lines · the file's new content" || wv.diffAdd.Text != "" {
		t.Fatalf("write caption %q %q", wv.diffAdd.Text, wv.diffNote.Text)
	}
	for _, r := range wv.mono.rows {
		if r.bg != nil || strings.ContainsAny(r.gutter.Text, "+-") {
			t.Fatalf("content row %q marked %q", r.text.Text, r.gutter.Text)
		}
	}
	pv := viewOf(t, s, "d4")
	if pv.diffNote.Text != "from the arguments, lines counted per edit" {
		t.Fatalf("computed diff note %q", pv.diffNote.Text)
	}
}

// TestToolSidebarChipOpensDiff: a chip selects a closed edit card, which
// opens showing its diff.
func TestToolSidebarChipOpensDiff(t *testing.T) {
	s, _ := showSidebar(t, diffCards())
	st := s.states["d1"]
	if st.expanded() {
		t.Fatal("the finished edit is open before it is selected")
	}
	s.Select("d1")
	v := viewOf(t, s, "d1")
	if !st.expanded() || st.doc.diff == nil || !v.scroll.Visible() || len(v.mono.rows) < 2 || v.mono.rows[1].gutter == nil {
		t.Fatalf("selected edit: open %v, diff %v, scroll %v, rows %d", st.expanded(), st.doc.diff != nil, v.scroll.Visible(), len(v.mono.rows))
	}
}

func TestToolSidebarCopyDiffAndCommand(t *testing.T) {
	s, _ := showSidebar(t, diffCards())
	var copied []string
	s.OnCopyText = func(text string) { copied = append(copied, text) }
	s.toggle(s.states["d1"])
	s.toggle(s.states["d2"])
	s.toggle(s.states["d3"])
	cards := diffCards()

	v := viewOf(t, s, "d1")
	test.Tap(v.copyDiff)
	if len(copied) != 1 || copied[0] != cards[0].Diff {
		t.Fatalf("Copy diff copied %q", copied)
	}
	if v.copyDiff.confirmed != true {
		t.Fatal("Copy diff did not say it copied")
	}
	v.copyDiff.MouseOut()
	if v.copyDiff.confirmed {
		t.Fatal("\"Copied\" outlived the pointer")
	}

	test.Tap(viewOf(t, s, "d2").copyDiff)
	if copied[1] != "# Plan\n\n- feed the zebra\n- paint the stripes\n" {
		t.Fatalf("copying a file's content gave %q", copied[1])
	}

	bv := viewOf(t, s, "d3")
	test.Tap(bv.cmdCopy)
	if copied[2] != cards[2].Command {
		t.Fatalf("copy command gave %q", copied[2])
	}
	s.OnCopyText = nil
	test.Tap(bv.cmdCopy)
	if got := fyne.CurrentApp().Clipboard().Content(); got != cards[2].Command {
		t.Fatalf("clipboard %q", got)
	}
}

// TestToolSidebarWholeCommand: an open card's header shows the whole
// command, wrapped to the card's width, instead of the one-line summary;
// narrowing the sidebar wraps it again and the card grows.
func TestToolSidebarWholeCommand(t *testing.T) {
	s, w := showSidebar(t, diffCards())
	st := s.states["d3"]
	s.toggle(st)
	v := viewOf(t, s, "d3")
	if !v.args.Hidden || !v.cmdScroll.Visible() {
		t.Fatalf("open card: args hidden %v, command shown %v", v.args.Hidden, v.cmdScroll.Visible())
	}
	join := func() string {
		var rows []string
		for n := st.cmd.lines.first(); n < st.cmd.lines.end(); n++ {
			rows = append(rows, st.cmd.lines.line(n))
		}
		return strings.Join(rows, "")
	}
	if join() != st.card.Command {
		t.Fatalf("command rows %q", join())
	}
	wide, h := st.cmd.lines.count(), st.height
	w.Resize(fyne.NewSize(260, 640))
	if st.cmd.lines.count() <= wide || st.height <= h || join() != st.card.Command {
		t.Fatalf("narrower: %d rows (were %d), height %v (was %v)", st.cmd.lines.count(), wide, st.height, h)
	}
	for n := st.cmd.lines.first(); n < st.cmd.lines.end(); n++ {
		if cols := st.cmdCols; len([]rune(st.cmd.lines.line(n))) > cols {
			t.Fatalf("row %q wider than %d", st.cmd.lines.line(n), cols)
		}
	}
	// Closed, the summary is back.
	s.toggle(st)
	if v = viewOf(t, s, "d3"); v.args.Hidden || v.cmdScroll.Visible() || st.cmd.lines.count() != 0 {
		t.Fatal("closed card still shows the whole command")
	}
}

// TestToolSidebarDiffVirtualizes: a diff of thousands of rows draws only
// the rows in view, each with one text, one gutter and at most one tint.
func TestToolSidebarDiffVirtualizes(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 1999; i++ {
		if i > 1 {
			b.WriteByte('\n')
		}
		sign := " +-"[i%3]
		fmt.Fprintf(&b, "%c%4d line %d", sign, i, i)
	}
	c := model.ToolCard{ID: "big", Revision: 1, Name: "edit", Command: "big.go", Status: model.ToolDone, Diff: b.String(), Turn: 1}
	s, _ := showSidebar(t, []model.ToolCard{c})
	v := viewOf(t, s, "big")
	if n := len(v.mono.rows); n == 0 || n > cardDiffRows+1 {
		t.Fatalf("%d rows drawn for a 1999-row diff", n)
	}
	if v.scroll.Offset.Y != 0 || v.mono.rows[0].n != 0 {
		t.Fatalf("a finished diff opened at %v (row %d), not at its start", v.scroll.Offset.Y, v.mono.rows[0].n)
	}
	texts, rects := 0, 0
	for _, o := range v.mono.objects {
		switch o.(type) {
		case *canvas.Text:
			texts++
		case *canvas.Rectangle:
			rects++
		}
	}
	if texts > 2*(cardDiffRows+1) || rects > cardDiffRows+1 {
		t.Fatalf("%d texts and %d rectangles drawn", texts, rects)
	}
	if v.diffAdd.Text != "+667" || v.diffDel.Text != "−666" {
		t.Fatalf("caption %q %q", v.diffAdd.Text, v.diffDel.Text)
	}
}
