package widgets

import (
	"image/color"
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
	// setFound highlights the matches of a search, current (an index in
	// ranges, or -1) more strongly.
	setFound(ranges []selRange, current int)
}

// marks is what a leaf highlights: the selection and the search matches.
type marks struct {
	sel     selRange
	found   []selRange
	current int
}

func (m *marks) setSel(from, to int) bool {
	r := selRange{from, to}
	if r.empty() {
		r = selRange{}
	}
	if r == m.sel {
		return false
	}
	m.sel = r
	return true
}

func (m *marks) setFound(ranges []selRange, current int) bool {
	if len(ranges) == 0 && len(m.found) == 0 {
		return false
	}
	if current == m.current && len(ranges) == len(m.found) {
		same := true
		for i := range ranges {
			same = same && ranges[i] == m.found[i]
		}
		if same {
			return false
		}
	}
	m.found, m.current = ranges, current
	return true
}

// each visits the highlighted ranges, back to front, with their colours.
func (m *marks) each(th fyne.Theme, f func(r selRange, col color.Color)) {
	if len(m.found) > 0 {
		warn := resolveColor(th, theme.ColorNameWarning)
		for i, r := range m.found {
			a := uint8(0x50)
			if i == m.current {
				a = 0xc0
			}
			f(r, withAlpha(warn, a))
		}
	}
	if !m.sel.empty() {
		f(m.sel, resolveColor(th, theme.ColorNameSelection))
	}
}

func (m *marks) any() bool { return !m.sel.empty() || len(m.found) > 0 }

// markRect is a highlight of col.
func markRect(col color.Color) *canvas.Rectangle {
	r := canvas.NewRectangle(col)
	r.CornerRadius = 2
	return r
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
	if f.marks.setSel(from, to) {
		f.draw()
		requestFrame(f)
	}
}

func (f *textFlow) setFound(ranges []selRange, current int) {
	if f.marks.setFound(ranges, current) {
		f.draw()
		requestFrame(f)
	}
}

// selectionRects adds the highlights of the visible lines [first, last).
func (f *textFlow) selectionRects(dst []fyne.CanvasObject, first, last int) []fyne.CanvasObject {
	if !f.marks.any() {
		return dst
	}
	f.marks.each(f.layout.th, func(sel selRange, col color.Color) {
		for i := first; i < last; i++ {
			if r := f.lineMark(i, sel, col); r != nil {
				dst = append(dst, r)
			}
		}
	})
	return dst
}

// lineMark is the highlight of range sel on line i, or nil.
func (f *textFlow) lineMark(i int, sel selRange, col color.Color) fyne.CanvasObject {
	l := f.layout.lines[i]
	pieces := f.layout.pieces[l.p0:l.p1]
	if len(pieces) == 0 {
		return nil
	}
	hi := f.pieceOffset(&pieces[len(pieces)-1], pieces[len(pieces)-1].end)
	x0, x1 := float32(-1), float32(0)
	for k := range pieces {
		pc := &pieces[k]
		a, b := f.pieceOffset(pc, pc.start), f.pieceOffset(pc, pc.end)
		if sel.to <= a || sel.from >= b {
			continue
		}
		s := f.xOf(pc, max(sel.from-f.spanBase(int(pc.si)), pc.start))
		e := f.xOf(pc, min(sel.to-f.spanBase(int(pc.si)), pc.end))
		if x0 < 0 {
			x0 = s
		}
		x1 = e
	}
	if x0 < 0 {
		return nil
	}
	if sel.to > hi {
		x1 += 4 // the line break is selected too
	}
	r := markRect(col)
	r.Move(fyne.NewPos(x0, l.y))
	r.Resize(fyne.NewSize(max(x1-x0, 1), l.h))
	return r
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
	if c.marks.setSel(from, to) {
		c.draw()
		requestFrame(c)
	}
}

func (c *codeBlock) setFound(ranges []selRange, current int) {
	if c.marks.setFound(ranges, current) {
		c.draw()
		requestFrame(c)
	}
}

func (c *codeBlock) selectionRects(dst []fyne.CanvasObject, first, last int) []fyne.CanvasObject {
	if !c.marks.any() {
		return dst
	}
	l := &c.lay
	text := c.selText()
	c.marks.each(c.Theme(), func(sel selRange, col color.Color) {
		for i := first; i < last; i++ {
			cl := l.lines[i]
			if r := cellMark(text, cl.off, cl.off+cl.nb, sel, col, l.cell); r != nil {
				r.Move(r.Position().AddXY(l.pad, c.lineTop(i)))
				dst = append(dst, r)
			}
		}
	})
	return dst
}

// cellMark is the highlight of range sel on a monospace line holding
// text[lo:hi], placed from the line's start, or nil.
func cellMark(text string, lo, hi int, sel selRange, col color.Color, cell fyne.Size) *canvas.Rectangle {
	if sel.to <= lo || sel.from > hi || (sel.from == hi && sel.to == hi) {
		return nil
	}
	line := text[lo:hi]
	a := utf8.RuneCountInString(line[:max(sel.from, lo)-lo])
	b := utf8.RuneCountInString(line[:min(sel.to, hi)-lo])
	if sel.to > hi {
		b++ // the line break
	}
	r := markRect(col)
	r.Move(fyne.NewPos(float32(a)*cell.Width, 0))
	r.Resize(fyne.NewSize(max(float32(b-a)*cell.Width, 1), cell.Height))
	return r
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
	if b.marks.setSel(from, to) {
		b.draw()
		requestFrame(b)
	}
}

func (b *monoBlock) setFound(ranges []selRange, current int) {
	if b.marks.setFound(ranges, current) {
		b.draw()
		requestFrame(b)
	}
}

func (b *monoBlock) selectionRects(dst []fyne.CanvasObject, first, last int) []fyne.CanvasObject {
	if !b.marks.any() {
		return dst
	}
	text := b.selText()
	b.marks.each(b.Theme(), func(sel selRange, col color.Color) {
		base := b.lineOffset(first)
		for i := first; i < last; i++ {
			lo, hi := base, base+len(b.lines[i])
			base = hi + 1
			if r := cellMark(text, lo, hi, sel, col, b.cell); r != nil {
				r.Move(r.Position().AddXY(0, b.lineTop(i)))
				dst = append(dst, r)
			}
		}
	})
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
