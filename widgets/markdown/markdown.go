package markdown

import (
	"net/url"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/yuin/goldmark/ast"
	"knightcode.ai/desktop/widgets/kit"
)

// MarkdownView renders GitHub-flavoured markdown that may still be
// arriving.
//
// It is meant to be fed the whole text so far on every update. Earlier
// top-level blocks keep their rendered objects; only the text from the
// start of the last block that may still change is parsed and drawn
// again, and only that part is laid out, so an update costs time in
// proportion to the tail, not the document. Text that does not extend the
// previous text is rendered from scratch.
type MarkdownView struct {
	widget.BaseWidget

	// OnLinkTapped, if set, is called instead of opening a tapped link.
	// Without it only http, https and mailto links are opened.
	OnLinkTapped func(*url.URL)

	src    string
	Blocks []mdBlock
	// refs is set once the text defines a link reference: a definition
	// can change any earlier paragraph, so every update re-renders all.
	refs  bool
	links linkOpener

	// Layout state: blocks before dirty are placed for width laidW.
	laidW float32
	dirty int
	// changed is the first block whose widget is new or updated since the
	// last repaint request.
	changed int
	height  float32
	stamp   kit.LookStamp
	objects []fyne.CanvasObject
	// shown is what of it is in the window.
	shown kit.WindowStack
	// Resized is called when a block changed height by itself (Show all),
	// and when a text parsed in the background is shown.
	Resized func()

	// Parsing is set while a tail is parsed in the background; next is the
	// text set meanwhile, to show once it is done.
	Parsing bool
	next    string
	hasNext bool
}

// mdBlock is a rendered top-level block.
type mdBlock struct {
	// Start and end are the byte range of its source lines; end is -1
	// while it is the last block, as its text may still grow.
	Start, end int
	Obj        fyne.CanvasObject
	kind       ast.NodeKind
	// gap is the space above it, in theme padding units.
	gap float32
	top float32
	h   float32
}

// NewMarkdownView returns an empty view.
func NewMarkdownView() *MarkdownView {
	m := &MarkdownView{shown: kit.NewWindowStack()}
	m.links.open = func(u *url.URL) {
		if m.OnLinkTapped != nil {
			m.OnLinkTapped(u)
			return
		}
		defaultLinks.tap(u.String())
	}
	m.ExtendBaseWidget(m)
	return m
}

var defaultLinks = &linkOpener{}

// Markdown returns the source last set.
func (m *MarkdownView) Markdown() string {
	return m.src
}

// asyncTail is the longest tail parsed on the UI goroutine. goldmark
// parses some 100 MB/s; a tail of megabytes (a blob the model is still
// writing) would cost tens of milliseconds a frame, so it is parsed in
// the background and drawn when done, the text before it staying on
// screen meanwhile.
const asyncTail = 256 << 10

// SetMarkdown shows src. Calls whose text extends the previous text redo
// only the tail.
func (m *MarkdownView) SetMarkdown(src string) {
	if m.Parsing {
		m.next, m.hasNext = src, true
		return
	}
	if src == m.src {
		return
	}
	grows := strings.HasPrefix(src, m.src)
	if !grows {
		m.refs = false // a new text: its own parse says whether it has them
	}
	extends := grows && !m.refs
	keep := 0
	if extends {
		keep = stableBlocks(m.src, len(m.Blocks), func(i int) int { return m.Blocks[i].Start })
	}
	if len(src)-m.blockStart(keep) > asyncTail {
		m.parseInBackground(src, keep, extends)
		return
	}
	tail := []byte(src[m.blockStart(keep):])
	parsed, refs := mdParseBlocks(tail)
	if !m.install(src, keep, extends, tail, parsed, refs, nil) {
		// The tail brought the first link reference definition.
		tail = []byte(src)
		parsed, refs = mdParseBlocks(tail)
		m.install(src, 0, false, tail, parsed, refs, nil)
	}
	m.src = src
	m.Refresh()
}

// blockStart is where block keep starts, or 0 when no block is kept.
func (m *MarkdownView) blockStart(keep int) int {
	if keep > 0 {
		return m.Blocks[keep].Start
	}
	return 0
}

// parseInBackground parses the tail from block keep off the UI goroutine,
// with the inline spans of its paragraphs, and shows the result when done.
// Texts set meanwhile wait; the last of them is shown next.
func (m *MarkdownView) parseInBackground(src string, keep int, extends bool) {
	m.Parsing = true
	from := m.blockStart(keep)
	var tail []byte
	var parsed []parsedBlock
	var refs bool
	var spans map[ast.Node][]InlineSpan
	kit.InBackground(func() {
		tail = []byte(src[from:])
		parsed, refs = mdParseBlocksWith(newGFMParser(), tail)
		spans = paragraphSpans(parsed, tail)
	}, func() {
		m.Parsing = false
		if !m.install(src, keep, extends, tail, parsed, refs, spans) {
			m.parseInBackground(src, 0, false)
			return
		}
		m.src = src
		m.Refresh()
		if m.Resized != nil {
			m.Resized()
		}
		if m.hasNext {
			next := m.next
			m.next, m.hasNext = "", false
			m.SetMarkdown(next)
		}
	})
}

// install replaces the blocks from keep on with those parsed from tail (the
// text from where block keep starts), reusing closed blocks whose source
// is unchanged when src extends the text they came from. spans, if set,
// holds the inline spans of the parsed paragraphs and headings. It reports
// false, changing nothing, when the tail defines link references but
// blocks were kept.
func (m *MarkdownView) install(src string, keep int, extends bool, tail []byte, parsed []parsedBlock, refs bool,
	spans map[ast.Node][]InlineSpan) bool {
	from := m.blockStart(keep)
	if refs && !m.refs {
		m.refs = true
		if keep > 0 || extends {
			return false
		}
	}

	var old []mdBlock
	if extends && !m.refs {
		old = m.Blocks[keep:]
	}
	r := &mdRender{src: tail, links: &m.links, resized: m.blockResized, spans: spans}
	fresh := make([]mdBlock, 0, len(parsed))
	prev := mdNoKind
	if keep > 0 {
		prev = m.Blocks[keep-1].kind
	}
	for i, p := range parsed {
		kind := p.node.Kind()
		b := mdBlock{Start: from + p.Start, end: -1, kind: kind, gap: blockGap(prev, kind)}
		if i+1 < len(parsed) {
			b.end = from + parsed[i+1].Start
		}
		b.Obj = reuseBlock(old, b.Start, b.end)
		if b.Obj == nil {
			b.Obj = updateInPlace(old, b.Start, kind, p.node, r)
		}
		if b.Obj == nil {
			b.Obj = r.block(p.node, spanLook{}, 0)
		}
		fresh = append(fresh, b)
		prev = kind
	}
	m.Blocks = append(m.Blocks[:keep], fresh...)
	m.dirty = min(m.dirty, keep)
	m.changed = min(m.changed, keep)
	return true
}

// updateInPlace gives the still-open block that grew since the last update
// its new content in the widget that already shows it, rather than
// allocating a new one on every streamed update.
func updateInPlace(old []mdBlock, start int, kind ast.NodeKind, n ast.Node, r *mdRender) fyne.CanvasObject {
	for _, b := range old {
		if b.Start == start && b.kind == kind && b.end == -1 && r.update(b.Obj, n) {
			return b.Obj
		}
	}
	return nil
}

// reuseBlock finds an earlier rendering of exactly the same closed block.
func reuseBlock(old []mdBlock, start, end int) fyne.CanvasObject {
	if end <= start {
		return nil
	}
	for _, b := range old {
		if b.Start == start && b.end == end {
			return b.Obj
		}
	}
	return nil
}

// blockResized is called by a block that changed height by itself.
func (m *MarkdownView) blockResized() {
	m.dirty = 0
	if m.Resized != nil {
		m.Resized()
		return
	}
	m.Refresh()
}

// SetWindow implements windowed.
func (m *MarkdownView) SetWindow(top, bottom float32) { m.shown.SetWindow(top, bottom) }

func (m *MarkdownView) CreateRenderer() fyne.WidgetRenderer {
	return &markdownRenderer{m: m}
}

// HeightAt lays out for width and returns the height it takes.
func (m *MarkdownView) HeightAt(width float32) float32 {
	m.LayoutAt(width)
	return m.height
}

// LayoutAt places blocks from the first one not yet placed for width.
func (m *MarkdownView) LayoutAt(width float32) {
	th := m.Theme()
	st := kit.LookStampOf(th)
	if width != m.laidW || st != m.stamp {
		m.dirty = 0
		m.laidW, m.stamp = width, st
	}
	if m.dirty >= len(m.Blocks) && len(m.objects) == len(m.Blocks) {
		return
	}
	first := m.dirty
	pad := th.Size(theme.SizeNamePadding)
	y := float32(0)
	if m.dirty > 0 {
		last := m.Blocks[m.dirty-1]
		y = last.top + last.h
	}
	for i := m.dirty; i < len(m.Blocks); i++ {
		b := &m.Blocks[i]
		if i > 0 {
			y += b.gap * pad
		}
		b.top = y
		b.h = kit.ObjHeightAt(b.Obj, width)
		b.Obj.Move(fyne.NewPos(0, y))
		b.Obj.Resize(fyne.NewSize(width, b.h))
		y += b.h
	}
	if len(m.Blocks) == 0 {
		y = 0
	}
	m.height = y
	m.dirty = len(m.Blocks)

	m.objects = m.objects[:min(len(m.objects), first)]
	for _, b := range m.Blocks[len(m.objects):] {
		m.objects = append(m.objects, b.Obj)
	}
	m.shown.Set(m.objects)
	m.shown.Apply()
}

type markdownRenderer struct {
	m *MarkdownView
}

func (r *markdownRenderer) Layout(size fyne.Size) {
	r.m.LayoutAt(size.Width)
}

func (r *markdownRenderer) MinSize() fyne.Size {
	return fyne.NewSize(0, r.m.HeightAt(r.m.Size().Width))
}

// Refresh asks for a repaint of the blocks that changed only: a Fyne
// canvas refresh frees the textures of the whole subtree it is given, and
// the text above the tail has not changed.
func (r *markdownRenderer) Refresh() {
	m := r.m
	if m.Size().Width <= 0 {
		return // not placed yet: laid out when it is given a size
	}
	m.LayoutAt(m.Size().Width)
	// The changed blocks made new objects for the lines that changed;
	// lines that did not keep theirs, and their textures.
	if m.changed != len(m.Blocks) || len(m.Blocks) == 0 {
		kit.RequestFrame(m)
	}
	m.changed = len(m.Blocks)
}

func (r *markdownRenderer) Objects() []fyne.CanvasObject {
	return r.m.shown.Shown
}

func (r *markdownRenderer) Destroy() {}
