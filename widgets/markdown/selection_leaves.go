package markdown

import (
	"image/color"
	"sort"
	"strings"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"knightcode.ai/desktop/widgets/kit"
)

// Selectable is text a person can select in the chat: it says what text it
// shows, maps a point to a place in that text, and draws a selection. Its
// offsets are bytes of selText.
type Selectable interface {
	fyne.CanvasObject
	SelText() string
	// OffsetAt is the character boundary nearest p, in the object's own
	// coordinates.
	OffsetAt(p fyne.Position) int
	// SetSelection highlights [from, to); from == to highlights nothing.
	SetSelection(from, to int)
	// SetFound highlights the matches of a search, current (an index in
	// ranges, or -1) more strongly.
	SetFound(ranges []SelRange, current int)
}

// Marks is what a leaf highlights: the selection and the search matches.
type Marks struct {
	sel     SelRange
	Found   []SelRange
	Current int
}

func (m *Marks) setSel(from, to int) bool {
	r := SelRange{from, to}
	if r.Empty() {
		r = SelRange{}
	}
	if r == m.sel {
		return false
	}
	m.sel = r
	return true
}

// SetFound records a search's matches, ranges[current] the current one (or
// -1 for none), and reports whether that changed what is highlighted.
func (m *Marks) SetFound(ranges []SelRange, current int) bool {
	if len(ranges) == 0 && len(m.Found) == 0 {
		return false
	}
	if current == m.Current && len(ranges) == len(m.Found) {
		same := true
		for i := range ranges {
			same = same && ranges[i] == m.Found[i]
		}
		if same {
			return false
		}
	}
	m.Found, m.Current = ranges, current
	return true
}

// each visits the highlighted ranges, back to front, with their colours.
func (m *Marks) each(th fyne.Theme, f func(r SelRange, col color.Color)) {
	if len(m.Found) > 0 {
		warn := kit.ResolveColor(th, theme.ColorNameWarning)
		for i, r := range m.Found {
			a := uint8(0x50)
			if i == m.Current {
				a = 0xc0
			}
			f(r, kit.WithAlpha(warn, a))
		}
	}
	if !m.sel.Empty() {
		f(m.sel, kit.ResolveColor(th, theme.ColorNameSelection))
	}
}

func (m *Marks) any() bool { return !m.sel.Empty() || len(m.Found) > 0 }

// rects adds the highlights of lines [first, last) of a leaf, one per line
// and range: mark(i, r, col) is the highlight of range r on line i in col,
// or nil where r misses the line. Every leaf walks its lines so; only how
// a line is measured differs.
func (m *Marks) rects(dst []fyne.CanvasObject, th fyne.Theme, first, last int, mark func(i int, r SelRange, col color.Color) fyne.CanvasObject) []fyne.CanvasObject {
	if !m.any() {
		return dst
	}
	m.each(th, func(r SelRange, col color.Color) {
		for i := first; i < last; i++ {
			if o := mark(i, r, col); o != nil {
				dst = append(dst, o)
			}
		}
	})
	return dst
}

// markedLeaf is a leaf that draws its own marks.
type markedLeaf interface {
	fyne.CanvasObject
	Draw()
}

// setSelOf highlights [from, to) of leaf, redrawing it if that changed.
func (m *Marks) setSelOf(leaf markedLeaf, from, to int) {
	if m.setSel(from, to) {
		leaf.Draw()
		kit.RequestFrame(leaf)
	}
}

// setFoundOf shows a search's matches in leaf, redrawing it if they changed.
func (m *Marks) setFoundOf(leaf markedLeaf, ranges []SelRange, current int) {
	if m.SetFound(ranges, current) {
		leaf.Draw()
		kit.RequestFrame(leaf)
	}
}

// markRect is a highlight of col.
func markRect(col color.Color) *canvas.Rectangle {
	r := canvas.NewRectangle(col)
	r.CornerRadius = 2
	return r
}

// SelectionParent is a container whose selectable text lies in children.
type SelectionParent interface {
	SelectionKids() []fyne.CanvasObject
}

// PlacedLeaf is a selectable and where it sits in the entry's view.
type PlacedLeaf struct {
	Leaf Selectable
	Pos  fyne.Position
}

// CollectLeaves lists the selectable text under o, in reading order, with
// positions relative to o's parent plus origin.
func CollectLeaves(o fyne.CanvasObject, origin fyne.Position, dst []PlacedLeaf) []PlacedLeaf {
	if !o.Visible() {
		return dst
	}
	at := origin.Add(o.Position())
	if s, ok := o.(Selectable); ok {
		return append(dst, PlacedLeaf{Leaf: s, Pos: at})
	}
	if p, ok := o.(SelectionParent); ok {
		for _, c := range p.SelectionKids() {
			dst = CollectLeaves(c, at, dst)
		}
	}
	return dst
}

// SelRange is a highlighted range of one leaf: bytes [From, To) of its
// selText.
type SelRange struct{ From, To int }

// Empty says the range holds no byte.
func (r SelRange) Empty() bool { return r.From >= r.To }

// --- textFlow

func (f *TextFlow) SelText() string {
	if f.fullText == nil {
		var b strings.Builder
		for _, s := range f.Spans {
			b.WriteString(s.Text)
		}
		t := b.String()
		f.fullText = &t
	}
	return *f.fullText
}

// SpanBase is where span i starts in selText.
func (f *TextFlow) SpanBase(i int) int {
	if len(f.bases) != len(f.Spans)+1 {
		f.bases = make([]int, len(f.Spans)+1)
		for k, s := range f.Spans {
			f.bases[k+1] = f.bases[k] + len(s.Text)
		}
	}
	return f.bases[i]
}

func (f *TextFlow) OffsetAt(p fyne.Position) int {
	if f.Layout == nil || len(f.Layout.Lines) == 0 {
		return 0
	}
	lines := f.Layout.Lines
	i := sort.Search(len(lines), func(i int) bool { return lines[i].Y+lines[i].H > p.Y })
	if i >= len(lines) {
		if f.More {
			return f.PieceOffset(&f.Layout.Pieces[lines[len(lines)-1].P1-1], f.Layout.Pieces[lines[len(lines)-1].P1-1].End)
		}
		return len(f.SelText())
	}
	l := lines[i]
	pieces := f.Layout.Pieces[l.P0:l.P1]
	if len(pieces) == 0 {
		return f.lineStart(i)
	}
	for k := range pieces {
		pc := &pieces[k]
		if p.X < pc.x && k == 0 {
			return f.PieceOffset(pc, pc.Start)
		}
		if p.X < pc.x+pc.w {
			return f.PieceOffset(pc, pc.Start+f.runeAt(pc, p.X-pc.x))
		}
	}
	last := &pieces[len(pieces)-1]
	return f.PieceOffset(last, last.End)
}

// lineStart is where line i starts in selText.
func (f *TextFlow) lineStart(i int) int {
	for ; i >= 0; i-- {
		l := f.Layout.Lines[i]
		if l.P1 > l.P0 {
			pc := &f.Layout.Pieces[l.P1-1]
			return f.PieceOffset(pc, pc.End)
		}
	}
	return 0
}

// PieceOffset is where byte at of piece pc's span lies in selText.
func (f *TextFlow) PieceOffset(pc *flowPiece, at int) int { return f.SpanBase(int(pc.Si)) + at }

// runeAt is how many bytes of the piece lie left of x (the nearer boundary).
func (f *TextFlow) runeAt(pc *flowPiece, x float32) int {
	text := pc.span.Text[pc.Start:pc.End]
	w := float32(0)
	for i, r := range text {
		a := measureWord(f.Layout.appTh, string(r), pc.m.size, pc.span.Style)
		if x < w+a/2 {
			return i
		}
		w += a
	}
	return len(text)
}

// XOf is where byte at of the piece starts, from the line's left.
func (f *TextFlow) XOf(pc *flowPiece, at int) float32 {
	if at <= pc.Start {
		return pc.x
	}
	if at >= pc.End {
		return pc.x + pc.w
	}
	return pc.x + measureWord(f.Layout.appTh, pc.span.Text[pc.Start:at], pc.m.size, pc.span.Style)
}

func (f *TextFlow) SetSelection(from, to int) { f.Marks.setSelOf(f, from, to) }

func (f *TextFlow) SetFound(ranges []SelRange, current int) {
	f.Marks.setFoundOf(f, ranges, current)
}

// selectionRects adds the highlights of the visible lines [first, last).
func (f *TextFlow) selectionRects(dst []fyne.CanvasObject, first, last int) []fyne.CanvasObject {
	return f.Marks.rects(dst, f.Layout.th, first, last, f.lineMark)
}

// lineMark is the highlight of range sel on line i, or nil.
func (f *TextFlow) lineMark(i int, sel SelRange, col color.Color) fyne.CanvasObject {
	l := f.Layout.Lines[i]
	pieces := f.Layout.Pieces[l.P0:l.P1]
	if len(pieces) == 0 {
		return nil
	}
	hi := f.PieceOffset(&pieces[len(pieces)-1], pieces[len(pieces)-1].End)
	x0, x1 := float32(-1), float32(0)
	for k := range pieces {
		pc := &pieces[k]
		a, b := f.PieceOffset(pc, pc.Start), f.PieceOffset(pc, pc.End)
		if sel.To <= a || sel.From >= b {
			continue
		}
		s := f.XOf(pc, max(sel.From-f.SpanBase(int(pc.Si)), pc.Start))
		e := f.XOf(pc, min(sel.To-f.SpanBase(int(pc.Si)), pc.End))
		if x0 < 0 {
			x0 = s
		}
		x1 = e
	}
	if x0 < 0 {
		return nil
	}
	if sel.To > hi {
		x1 += 4 // the line break is selected too
	}
	r := markRect(col)
	r.Move(fyne.NewPos(x0, l.Y))
	r.Resize(fyne.NewSize(max(x1-x0, 1), l.H))
	return r
}

// --- codeBlock

func (c *CodeBlock) SelText() string {
	if c.shownCode == nil || c.shownFor != c.code {
		t := expandAllTabs(c.code)
		c.shownCode, c.shownFor = &t, c.code
	}
	return *c.shownCode
}

func (c *CodeBlock) OffsetAt(p fyne.Position) int {
	l := &c.Lay
	if len(l.Lines) == 0 || l.Cell.Height <= 0 {
		return 0
	}
	i := int((p.Y - l.top) / l.Cell.Height)
	switch {
	case i < 0:
		return 0
	case i >= len(l.Lines):
		last := l.Lines[len(l.Lines)-1]
		return last.Off + last.Nb
	}
	cl := l.Lines[i]
	col := int((p.X-l.Pad)/l.Cell.Width + 0.5)
	line := c.SelText()[cl.Off : cl.Off+cl.Nb]
	return cl.Off + runeOffset(line, max(col, 0))
}

func (c *CodeBlock) SetSelection(from, to int) { c.Marks.setSelOf(c, from, to) }

func (c *CodeBlock) SetFound(ranges []SelRange, current int) {
	c.Marks.setFoundOf(c, ranges, current)
}

func (c *CodeBlock) selectionRects(dst []fyne.CanvasObject, first, last int) []fyne.CanvasObject {
	if !c.Marks.any() {
		return dst
	}
	l := &c.Lay
	text := c.SelText()
	return c.Marks.rects(dst, c.Theme(), first, last, func(i int, sel SelRange, col color.Color) fyne.CanvasObject {
		cl := l.Lines[i]
		return cellMark(text, cl.Off, cl.Off+cl.Nb, sel, col, l.Cell, fyne.NewPos(l.Pad, c.LineTop(i)))
	})
}

// cellMark is the highlight of range sel on a monospace line holding
// text[lo:hi] that starts at at, or nil.
func cellMark(text string, lo, hi int, sel SelRange, col color.Color, cell fyne.Size, at fyne.Position) fyne.CanvasObject {
	if sel.To <= lo || sel.From > hi || (sel.From == hi && sel.To == hi) {
		return nil
	}
	line := text[lo:hi]
	a := utf8.RuneCountInString(line[:max(sel.From, lo)-lo])
	b := utf8.RuneCountInString(line[:min(sel.To, hi)-lo])
	if sel.To > hi {
		b++ // the line break
	}
	r := markRect(col)
	r.Move(at.AddXY(float32(a)*cell.Width, 0))
	r.Resize(fyne.NewSize(max(float32(b-a)*cell.Width, 1), cell.Height))
	return r
}

// --- monoBlock

func (b *MonoBlock) SelText() string { return strings.Join(b.Lines, "\n") }

func (b *MonoBlock) lineOffset(i int) int {
	n := 0
	for _, l := range b.Lines[:i] {
		n += len(l) + 1
	}
	return n
}

func (b *MonoBlock) OffsetAt(p fyne.Position) int {
	if len(b.Lines) == 0 || b.cell.Height <= 0 {
		return 0
	}
	i := int(p.Y / b.cell.Height)
	switch {
	case i < 0:
		return 0
	case i >= len(b.Lines):
		return len(b.SelText())
	}
	col := int(p.X/b.cell.Width + 0.5)
	return b.lineOffset(i) + runeOffset(b.Lines[i], max(col, 0))
}

func (b *MonoBlock) SetSelection(from, to int) { b.Marks.setSelOf(b, from, to) }

func (b *MonoBlock) SetFound(ranges []SelRange, current int) {
	b.Marks.setFoundOf(b, ranges, current)
}

func (b *MonoBlock) selectionRects(dst []fyne.CanvasObject, first, last int) []fyne.CanvasObject {
	if !b.Marks.any() {
		return dst
	}
	text := b.SelText()
	starts := make([]int, 0, max(last-first, 0)) // where lines [first, last) start in text
	for i, at := first, b.lineOffset(first); i < last; i++ {
		starts = append(starts, at)
		at += len(b.Lines[i]) + 1
	}
	return b.Marks.rects(dst, b.Theme(), first, last, func(i int, sel SelRange, col color.Color) fyne.CanvasObject {
		lo := starts[i-first]
		return cellMark(text, lo, lo+len(b.Lines[i]), sel, col, b.cell, fyne.NewPos(0, b.LineTop(i)))
	})
}

// --- the containers between an entry and its text

func (m *MarkdownView) SelectionKids() []fyne.CanvasObject { return m.objects }

func (v *FlowStack) SelectionKids() []fyne.CanvasObject { return v.children }

func (l *MdList) SelectionKids() []fyne.CanvasObject {
	kids := make([]fyne.CanvasObject, len(l.bodies))
	for i, b := range l.bodies {
		kids[i] = b
	}
	return kids
}

func (q *MdQuote) SelectionKids() []fyne.CanvasObject { return []fyne.CanvasObject{q.body} }

func (t *MdTable) SelectionKids() []fyne.CanvasObject {
	var kids []fyne.CanvasObject
	for _, r := range t.rows {
		for _, c := range r {
			kids = append(kids, c)
		}
	}
	return kids
}
