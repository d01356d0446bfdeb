package markdown

import (
	"math/rand"
	"net/url"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"knightcode.ai/desktop/widgets/widgettest"
)

const mdTestWidth = 600

// mdLaidOut sizes m to mdTestWidth and the height it needs there.
func mdLaidOut(m *MarkdownView) *MarkdownView {
	m.Resize(fyne.NewSize(mdTestWidth, 1))
	m.Resize(fyne.NewSize(mdTestWidth, m.MinSize().Height))
	return m
}

func mdOneShot(src string) *MarkdownView {
	m := NewMarkdownView()
	m.SetMarkdown(src)
	return mdLaidOut(m)
}

func TestMarkdownDocument(t *testing.T) {
	widgettest.NewTestApp(t)
	test.AssertObjectRendersToMarkup(t, "markdown_document.xml", mdOneShot(widgettest.MarkdownDocument))
}

// streamAndCompare feeds src in the given pieces and checks the result is
// drawn exactly like src set in one go.
func streamAndCompare(t *testing.T, src string, cuts []int) {
	t.Helper()
	want := test.RenderObjectToMarkup(mdOneShot(src))
	m := NewMarkdownView()
	m.Resize(fyne.NewSize(mdTestWidth, 1))
	for _, c := range cuts {
		m.SetMarkdown(src[:c])
	}
	m.SetMarkdown(src)
	if got := test.RenderObjectToMarkup(mdLaidOut(m)); got != want {
		t.Fatalf("streamed rendering differs from one-shot rendering\n%s", widgettest.MarkupDiff(want, got))
	}
}

func TestMarkdownStreamingByteByByte(t *testing.T) {
	widgettest.NewTestApp(t)
	var cuts []int
	for i := 1; i < len(widgettest.MarkdownDocument); i++ {
		cuts = append(cuts, i)
	}
	streamAndCompare(t, widgettest.MarkdownDocument, cuts)
}

func TestMarkdownStreamingRandomChunks(t *testing.T) {
	widgettest.NewTestApp(t)
	for seed := int64(1); seed <= 20; seed++ {
		r := rand.New(rand.NewSource(seed))
		var cuts []int
		for i := r.Intn(8) + 1; i < len(widgettest.MarkdownDocument); i += r.Intn(40) + 1 {
			cuts = append(cuts, i)
		}
		streamAndCompare(t, widgettest.MarkdownDocument, cuts)
	}
}

// The last line of streamed text can change what came before it: each of
// these ends by turning a line that opened a block into one that does not.
func TestMarkdownStreamingLastLineReinterpreted(t *testing.T) {
	widgettest.NewTestApp(t)
	for _, src := range []string{
		"Para\n#hashtag continues the paragraph\n",
		"Para\n```x` is not a fence\n",
		"Para\n***a is not a rule\n",
		"Para\n<divx> is not an html block\n",
		"| a | b |\n|---|---|x\nnot a table after all\n",
		"text\n| a | b |\n|---|---|\n| 1 | 2 |\n\nafter\n",
		"- item\n-\n- next\n",
		"Title\n===\n\nbody\n",
		"Title\n-- not an underline\n",
		"> quote\nlazy line\n\nafter\n",
		"1. one\n2) two\n",
	} {
		var cuts []int
		for i := 1; i < len(src); i++ {
			cuts = append(cuts, i)
		}
		streamAndCompare(t, src, cuts)
	}
}

func TestMarkdownReferenceLinksRerender(t *testing.T) {
	widgettest.NewTestApp(t)
	src := "See [the docs][d] first.\n\nMore text.\n\n[d]: https://example.com/docs\n\nAfter.\n"
	var cuts []int
	for i := 1; i < len(src); i++ {
		cuts = append(cuts, i)
	}
	streamAndCompare(t, src, cuts)
}

func TestMarkdownNotExtendingRerendersFully(t *testing.T) {
	widgettest.NewTestApp(t)
	m := NewMarkdownView()
	m.Resize(fyne.NewSize(mdTestWidth, 1))
	m.SetMarkdown("# One\n\nfirst text\n\nsecond")
	m.SetMarkdown("# Two\n\nother text\n\nthird")
	want := test.RenderObjectToMarkup(mdOneShot("# Two\n\nother text\n\nthird"))
	if got := test.RenderObjectToMarkup(mdLaidOut(m)); got != want {
		t.Fatal(widgettest.MarkupDiff(want, got))
	}
}

func TestMarkdownKeepsClosedBlocks(t *testing.T) {
	widgettest.NewTestApp(t)
	m := NewMarkdownView()
	m.Resize(fyne.NewSize(mdTestWidth, 1))
	m.SetMarkdown("# Title\n\nFirst paragraph.\n\nSecond")
	title, first := m.Blocks[0].Obj, m.Blocks[1].Obj
	m.SetMarkdown("# Title\n\nFirst paragraph.\n\nSecond paragraph grows\n\n- and a list")
	if m.Blocks[0].Obj != title || m.Blocks[1].Obj != first {
		t.Fatal("closed blocks were rendered again")
	}
	if len(m.Blocks) != 4 {
		t.Fatalf("got %d blocks, want 4", len(m.Blocks))
	}
}

func TestStableBlocks(t *testing.T) {
	for _, tc := range []struct {
		src    string
		starts []int
		want   int
	}{
		{"", nil, 0},
		{"para", []int{0}, 0},
		{"a\n\nb", []int{0, 3}, 0},   // b opened on the unfinished line
		{"a\n\nb\n", []int{0, 3}, 1}, // b's line is complete: a is final
		{"a\n\nbc\nd", []int{0, 3}, 1},
		{"t\n|a|\n|-|\n|1|", []int{0, 0}, 0}, // split paragraph stays together
	} {
		starts := tc.starts
		if got := stableBlocks(tc.src, len(starts), func(i int) int { return starts[i] }); got != tc.want {
			t.Errorf("stableBlocks(%q, %v) = %d, want %d", tc.src, tc.starts, got, tc.want)
		}
	}
}

func TestMarkdownLinksOpenOnlyWhenTapped(t *testing.T) {
	widgettest.NewTestApp(t)
	m := NewMarkdownView()
	var opened []string
	m.OnLinkTapped = func(u *url.URL) { opened = append(opened, u.String()) }
	m.SetMarkdown("See [the docs](https://example.com/docs) and <https://knightcode.ai>.")
	mdLaidOut(m)
	if len(opened) != 0 {
		t.Fatal("rendering opened a link")
	}
	var links []*linkText
	for _, o := range test.LaidOutObjects(m) {
		if l, ok := o.(*linkText); ok {
			links = append(links, l)
		}
	}
	if len(links) != 2 {
		t.Fatalf("found %d links, want 2", len(links))
	}
	test.Tap(links[1])
	if len(opened) != 1 || opened[0] != "https://knightcode.ai" {
		t.Fatalf("opened %v", opened)
	}
}
