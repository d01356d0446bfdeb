package widgets

import (
	"sort"
	"strings"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
)

// selectable is text a person can select in the chat: it says what text it
// shows, maps a point to a place in that text, and draws a selection. Its
// offsets are bytes of selText.
type selectable interface {
	fyne.CanvasObject
	selText() string
	// offsetAt is the character boundary nearest p, in the object's own
	// coordinates.
	offsetAt(p fyne.Position) int
	// setSelection highlights [from, to); from == to highlights nothing.
	setSelection(from, to int)
}

// selectionParent is a container whose selectable text lies in children.
type selectionParent interface {
	selectionKids() []fyne.CanvasObject
}

// placedLeaf is a selectable and where it sits in the entry's view.
type placedLeaf struct {
	leaf selectable
	pos  fyne.Position
}

// collectLeaves lists the selectable text under o, in reading order, with
// positions relative to o's parent plus origin.
func collectLeaves(o fyne.CanvasObject, origin fyne.Position, dst []placedLeaf) []placedLeaf {
	if !o.Visible() {
		return dst
	}
	at := origin.Add(o.Position())
	if s, ok := o.(selectable); ok {
		return append(dst, placedLeaf{leaf: s, pos: at})
	}
	if p, ok := o.(selectionParent); ok {
		for _, c := range p.selectionKids() {
			dst = collectLeaves(c, at, dst)
		}
	}
	return dst
}

// selection is a highlighted range of one leaf.
type selRange struct{ from, to int }

func (r selRange) empty() bool { return r.from >= r.to }

// highlightColor is the theme's selection colour.
func highlightColor(th fyne.Theme) *canvas.Rectangle {
	r := canvas.NewRectangle(resolveColor(th, theme.ColorNameSelection))
	r.CornerRadius = 2
	return r
}

// --- textFlow

func (f *textFlow) selText() string {
	if f.fullText == nil {
		var b strings.Builder
		for _, s := range f.spans {
			b.WriteString(s.text)
		}
		t := b.String()
		f.fullText = &t
	}
	return *f.fullText
}

// spanBase is where span i starts in selText.
func (f *textFlow) spanBase(i int) int {
	if len(f.bases) != len(f.spans)+1 {
		f.bases = make([]int, len(f.spans)+1)
		for k, s := range f.spans {
			f.bases[k+1] = f.bases[k] + len(s.text)
		}
	}
	return f.bases[i]
}

func (f *textFlow) offsetAt(p fyne.Position) int {
	if f.layout == nil || len(f.layout.lines) == 0 {
		return 0
	}
	lines := f.layout.lines
	i := sort.Search(len(lines), func(i int) bool { return lines[i].y+lines[i].h > p.Y })
	if i >= len(lines) {
		if f.more {
			return f.pieceOffset(&f.layout.pieces[lines[len(lines)-1].p1-1], f.layout.pieces[lines[len(lines)-1].p1-1].end)
		}
		return len(f.selText())
	}
	l := lines[i]
	pieces := f.layout.pieces[l.p0:l.p1]
	if len(pieces) == 0 {
		return f.lineStart(i)
	}
	for k := range pieces {
		pc := &pieces[k]
		if p.X < pc.x && k == 0 {
			return f.pieceOffset(pc, pc.start)
		}
		if p.X < pc.x+pc.w {
			return f.pieceOffset(pc, pc.start+f.runeAt(pc, p.X-pc.x))
		}
	}
	last := &pieces[len(pieces)-1]
	return f.pieceOffset(last, last.end)
}

// lineStart is where line i starts in selText.
func (f *textFlow) lineStart(i int) int {
	for ; i >= 0; i-- {
		l := f.layout.lines[i]
		if l.p1 > l.p0 {
			pc := &f.layout.pieces[l.p1-1]
			return f.pieceOffset(pc, pc.end)
		}
	}
	return 0
}

func (f *textFlow) pieceOffset(pc *flowPiece, at int) int { return f.spanBase(int(pc.si)) + at }

// runeAt is how many bytes of the piece lie left of x (the nearer boundary).
func (f *textFlow) runeAt(pc *flowPiece, x float32) int {
	text := pc.span.text[pc.start:pc.end]
	w := float32(0)
	for i, r := range text {
		a := measureWord(f.layout.appTh, string(r), pc.m.size, pc.span.style)
		if x < w+a/2 {
			return i
		}
		w += a
	}
	return len(text)
}

// xOf is where byte at of the piece starts, from the line's left.
func (f *textFlow) xOf(pc *flowPiece, at int) float32 {
	if at <= pc.start {
		return pc.x
	}
	if at >= pc.end {
		return pc.x + pc.w
	}
	return pc.x + measureWord(f.layout.appTh, pc.span.text[pc.start:at], pc.m.size, pc.span.style)
}

func (f *textFlow) setSelection(from, to int) {
	r := selRange{from, to}
	if r.empty() {
		r = selRange{}
	}
	if r == f.sel {
		return
	}
	f.sel = r
	f.draw()
	requestFrame(f)
}

// selectionRects adds the highlight of the visible lines [first, last).
func (f *textFlow) selectionRects(dst []fyne.CanvasObject, first, last int) []fyne.CanvasObject {
	if f.sel.empty() {
		return dst
	}
	for i := first; i < last; i++ {
		l := f.layout.lines[i]
		pieces := f.layout.pieces[l.p0:l.p1]
		if len(pieces) == 0 {
			continue
		}
		lo, hi := f.pieceOffset(&pieces[0], pieces[0].start), f.pieceOffset(&pieces[len(pieces)-1], pieces[len(pieces)-1].end)
		if f.sel.to <= lo || f.sel.from >= hi && !(f.sel.from == hi && i+1 < len(f.layout.lines)) {
			continue
		}
		x0, x1 := float32(-1), float32(0)
		for k := range pieces {
			pc := &pieces[k]
			a, b := f.pieceOffset(pc, pc.start), f.pieceOffset(pc, pc.end)
			if f.sel.to <= a || f.sel.from >= b {
				continue
			}
			s := f.xOf(pc, max(f.sel.from-f.spanBase(int(pc.si)), pc.start))
			e := f.xOf(pc, min(f.sel.to-f.spanBase(int(pc.si)), pc.end))
			if x0 < 0 {
				x0 = s
			}
			x1 = e
		}
		if x0 < 0 {
			continue
		}
		if f.sel.to > hi {
			x1 += 4 // the line break is selected too
		}
		r := highlightColor(f.layout.th)
		r.Move(fyne.NewPos(x0, l.y))
		r.Resize(fyne.NewSize(max(x1-x0, 1), l.h))
		dst = append(dst, r)
	}
	return dst
}

// --- codeBlock

func (c *codeBlock) selText() string {
	if c.shownCode == nil || c.shownFor != c.code {
		t := expandAllTabs(c.code)
		c.shownCode, c.shownFor = &t, c.code
	}
	return *c.shownCode
}

func (c *codeBlock) offsetAt(p fyne.Position) int {
	l := &c.lay
	if len(l.lines) == 0 || l.cell.Height <= 0 {
		return 0
	}
	i := int((p.Y - l.top) / l.cell.Height)
	switch {
	case i < 0:
		return 0
	case i >= len(l.lines):
		last := l.lines[len(l.lines)-1]
		return last.off + last.nb
	}
	cl := l.lines[i]
	col := int((p.X-l.pad)/l.cell.Width + 0.5)
	line := c.selText()[cl.off : cl.off+cl.nb]
	return cl.off + runeOffset(line, max(col, 0))
}

func (c *codeBlock) setSelection(from, to int) {
	r := selRange{from, to}
	if r.empty() {
		r = selRange{}
	}
	if r == c.sel {
		return
	}
	c.sel = r
	c.draw()
	requestFrame(c)
}

func (c *codeBlock) selectionRects(dst []fyne.CanvasObject, first, last int) []fyne.CanvasObject {
	if c.sel.empty() {
		return dst
	}
	l := &c.lay
	text := c.selText()
	for i := first; i < last; i++ {
		cl := l.lines[i]
		lo, hi := cl.off, cl.off+cl.nb
		if c.sel.to <= lo || c.sel.from > hi || (c.sel.from == hi && c.sel.to == hi) {
			continue
		}
		line := text[lo:hi]
		a := utf8.RuneCountInString(line[:max(c.sel.from, lo)-lo])
		b := utf8.RuneCountInString(line[:min(c.sel.to, hi)-lo])
		if c.sel.to > hi {
			b++ // the line break
		}
		r := highlightColor(c.Theme())
		r.Move(fyne.NewPos(l.pad+float32(a)*l.cell.Width, c.lineTop(i)))
		r.Resize(fyne.NewSize(max(float32(b-a)*l.cell.Width, 1), l.cell.Height))
		dst = append(dst, r)
	}
	return dst
}

// --- monoBlock

func (b *monoBlock) selText() string { return strings.Join(b.lines, "\n") }

func (b *monoBlock) lineOffset(i int) int {
	n := 0
	for _, l := range b.lines[:i] {
		n += len(l) + 1
	}
	return n
}

func (b *monoBlock) offsetAt(p fyne.Position) int {
	if len(b.lines) == 0 || b.cell.Height <= 0 {
		return 0
	}
	i := int(p.Y / b.cell.Height)
	switch {
	case i < 0:
		return 0
	case i >= len(b.lines):
		return len(b.selText())
	}
	col := int(p.X/b.cell.Width + 0.5)
	return b.lineOffset(i) + runeOffset(b.lines[i], max(col, 0))
}

func (b *monoBlock) setSelection(from, to int) {
	r := selRange{from, to}
	if r.empty() {
		r = selRange{}
	}
	if r == b.sel {
		return
	}
	b.sel = r
	b.draw()
	requestFrame(b)
}

func (b *monoBlock) selectionRects(dst []fyne.CanvasObject, first, last int) []fyne.CanvasObject {
	if b.sel.empty() {
		return dst
	}
	base := b.lineOffset(first)
	for i := first; i < last; i++ {
		lo, hi := base, base+len(b.lines[i])
		base = hi + 1
		if b.sel.to <= lo || b.sel.from > hi || (b.sel.from == hi && b.sel.to == hi) {
			continue
		}
		line := b.lines[i]
		x0 := utf8.RuneCountInString(line[:max(b.sel.from, lo)-lo])
		x1 := utf8.RuneCountInString(line[:min(b.sel.to, hi)-lo])
		if b.sel.to > hi {
			x1++
		}
		r := highlightColor(b.Theme())
		r.Move(fyne.NewPos(float32(x0)*b.cell.Width, b.lineTop(i)))
		r.Resize(fyne.NewSize(max(float32(x1-x0)*b.cell.Width, 1), b.cell.Height))
		dst = append(dst, r)
	}
	return dst
}

// --- the containers between an entry and its text

func (m *MarkdownView) selectionKids() []fyne.CanvasObject { return m.objects }

func (v *flowStack) selectionKids() []fyne.CanvasObject { return v.children }

func (l *mdList) selectionKids() []fyne.CanvasObject {
	kids := make([]fyne.CanvasObject, len(l.bodies))
	for i, b := range l.bodies {
		kids[i] = b
	}
	return kids
}

func (q *mdQuote) selectionKids() []fyne.CanvasObject { return []fyne.CanvasObject{q.body} }

func (t *mdTable) selectionKids() []fyne.CanvasObject {
	var kids []fyne.CanvasObject
	for _, r := range t.rows {
		for _, c := range r {
			kids = append(kids, c)
		}
	}
	return kids
}

func (p *windowedParts) selectionKids() []fyne.CanvasObject { return p.all() }
