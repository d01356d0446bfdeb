package markdown

import (
	"bytes"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
)

// mdRender turns goldmark block nodes into widgets.
type mdRender struct {
	src   []byte
	links *linkOpener
	// resized is given to the blocks that can change height by themselves.
	resized func()
	// spans, if set, holds the inline spans of top-level paragraphs and
	// headings, made in the background with the parse.
	spans map[ast.Node][]InlineSpan
}

// inline is the spans of n, made now unless they were made beforehand
// (only top-level blocks are, with the look they always have).
func (r *mdRender) inline(n ast.Node, look spanLook) []InlineSpan {
	if s, ok := r.spans[n]; ok {
		return s
	}
	return inlineSpans(n, r.src, look)
}

// paragraphSpans makes the inline spans of the top-level paragraphs and
// headings of a parse: the part of rendering that costs time in
// proportion to the text and needs no widget, so it can be done off the
// UI goroutine.
func paragraphSpans(parsed []parsedBlock, src []byte) map[ast.Node][]InlineSpan {
	spans := map[ast.Node][]InlineSpan{}
	for _, p := range parsed {
		switch t := p.node.(type) {
		case *ast.Paragraph:
			spans[t] = inlineSpans(t, src, spanLook{})
		case *ast.Heading:
			spans[t] = inlineSpans(t, src, headingLook(t.Level))
		}
	}
	return spans
}

// flow is a text block of spans.
func (r *mdRender) flow(spans []InlineSpan) *TextFlow {
	f := NewTextFlow(spans, r.links)
	f.Resized = r.resized
	return f
}

func (r *mdRender) code(lang, code string, closed bool) *CodeBlock {
	c := newCodeBlock(lang, code, closed)
	c.Resized = r.resized
	return c
}

// mdNoKind stands for "no block before this one".
const mdNoKind ast.NodeKind = -1

// blockGap is the space above a block of kind n that follows one of kind
// prev, in multiples of the theme's padding: headings get air above them
// and stay close to what they introduce.
func blockGap(prev, n ast.NodeKind) float32 {
	switch {
	case prev == mdNoKind:
		return 0
	case n == ast.KindHeading:
		return 5
	case prev == ast.KindHeading:
		return 2
	}
	return 3
}

func (r *mdRender) block(n ast.Node, look spanLook, depth int) fyne.CanvasObject {
	switch t := n.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		return r.flow(r.inline(n, look))
	case *ast.Heading:
		hl := headingLook(t.Level)
		hl.color = look.color
		return r.flow(r.inline(n, hl))
	case *ast.ThematicBreak:
		return newRuleLine()
	case *ast.FencedCodeBlock:
		return r.code(string(t.Language(r.src)), mdLinesText(t, r.src), fenceClosed(t, r.src))
	case *ast.CodeBlock:
		return r.code("", mdLinesText(t, r.src), false)
	case *ast.Blockquote:
		look.color = theme.ColorNamePlaceHolder
		return newMDQuote(r.stack(t, look, depth, 3))
	case *ast.List:
		return r.list(t, look, depth)
	case *east.Table:
		return r.table(t)
	case *ast.HTMLBlock:
		// Raw HTML is shown as the text it is, never interpreted.
		text := mdLinesText(t, r.src)
		if t.HasClosure() {
			text += string(t.ClosureLine.Value(r.src))
		}
		f := r.flow([]InlineSpan{{Text: strings.TrimRight(text, "\n"), Color: look.color}})
		f.links = nil
		return f
	}
	f := r.flow([]InlineSpan{{Text: strings.TrimRight(mdLinesText(n, r.src), "\n"), Color: look.color}})
	f.links = nil
	return f
}

// update re-renders n into obj when obj is the kind of widget n needs,
// reporting whether it could.
func (r *mdRender) update(obj fyne.CanvasObject, n ast.Node) bool {
	switch t := n.(type) {
	case *ast.Paragraph:
		if f, ok := obj.(*TextFlow); ok {
			f.SetSpans(r.inline(n, spanLook{}))
			return true
		}
	case *ast.Heading:
		if f, ok := obj.(*TextFlow); ok {
			f.SetSpans(r.inline(n, headingLook(t.Level)))
			return true
		}
	case *ast.FencedCodeBlock:
		if c, ok := obj.(*CodeBlock); ok && c.lang == string(t.Language(r.src)) {
			c.setCode(mdLinesText(t, r.src), fenceClosed(t, r.src))
			return true
		}
	case *ast.CodeBlock:
		if c, ok := obj.(*CodeBlock); ok && c.lang == "" {
			c.setCode(mdLinesText(t, r.src), false)
			return true
		}
	}
	return false
}

// stack renders the blocks under n; gap separates blocks other than
// headings, in padding units.
func (r *mdRender) stack(n ast.Node, look spanLook, depth int, gap float32) *FlowStack {
	var children []fyne.CanvasObject
	var gaps []float32
	prev := mdNoKind
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		children = append(children, r.block(c, look, depth))
		g := blockGap(prev, c.Kind())
		if g == 3 {
			g = gap
		}
		gaps = append(gaps, g)
		prev = c.Kind()
	}
	return newFlowStack(children, gaps)
}

var mdBullets = []string{"•", "◦", "▪"}

func (r *mdRender) list(l *ast.List, look spanLook, depth int) fyne.CanvasObject {
	var markers []string
	var bodies []*FlowStack
	n := l.Start
	gap := float32(1)
	if !l.IsTight {
		gap = 3
	}
	for item := l.FirstChild(); item != nil; item = item.NextSibling() {
		marker := mdBullets[min(depth, len(mdBullets)-1)]
		if l.IsOrdered() {
			marker = strconv.Itoa(n) + string(l.Marker)
			n++
		}
		if box := mdTaskBox(item); box != nil {
			marker = "☐"
			if box.IsChecked {
				marker = "☑"
			}
		}
		markers = append(markers, marker)
		bodies = append(bodies, r.stack(item, look, depth+1, gap))
	}
	return newMDList(markers, bodies, !l.IsTight, l.IsOrdered())
}

// mdTaskBox finds a GFM task list checkbox at the start of a list item.
func mdTaskBox(item ast.Node) *east.TaskCheckBox {
	first := item.FirstChild()
	if first == nil {
		return nil
	}
	box, _ := first.FirstChild().(*east.TaskCheckBox)
	return box
}

func (r *mdRender) table(t *east.Table) fyne.CanvasObject {
	var rows [][]*TextFlow
	for row := t.FirstChild(); row != nil; row = row.NextSibling() {
		look := spanLook{}
		if row.Kind() == east.KindTableHeader {
			look.style.Bold = true
		}
		var cells []*TextFlow
		for c := row.FirstChild(); c != nil; c = c.NextSibling() {
			f := r.flow(inlineSpans(c, r.src, look))
			if cell, ok := c.(*east.TableCell); ok {
				f.align = mdCellAlign(cell.Alignment)
			}
			cells = append(cells, f)
		}
		rows = append(rows, cells)
	}
	return newMDTable(rows)
}

func mdCellAlign(a east.Alignment) fyne.TextAlign {
	switch a {
	case east.AlignCenter:
		return fyne.TextAlignCenter
	case east.AlignRight:
		return fyne.TextAlignTrailing
	}
	return fyne.TextAlignLeading
}

// fenceClosed says whether a fenced code block's closing fence is in src:
// a line of at least as many of the same fence characters, indented less
// than four columns, with nothing after them.
func fenceClosed(n *ast.FencedCodeBlock, src []byte) bool {
	open := mdLineStart(src, n.Pos())
	after := bytes.IndexByte(src[open:], '\n')
	if after < 0 {
		return false
	}
	after += open + 1
	if lines := n.Lines(); lines.Len() > 0 {
		after = lines.At(lines.Len() - 1).Stop
	}
	fence := bytes.TrimLeft(src[open:], " ")
	if len(fence) == 0 || (fence[0] != '`' && fence[0] != '~') {
		return false
	}
	want := len(fence) - len(bytes.TrimLeft(fence, string(fence[:1])))
	if after >= len(src) {
		return false
	}
	line := src[after:]
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	trimmed := bytes.TrimLeft(line, " ")
	if len(line)-len(trimmed) > 3 {
		return false
	}
	rest := bytes.TrimLeft(trimmed, string(fence[:1]))
	return len(trimmed)-len(rest) >= want && len(bytes.TrimSpace(rest)) == 0
}

// mdLinesText joins a leaf block's source lines.
func mdLinesText(n ast.Node, src []byte) string {
	lines := n.Lines()
	var sb strings.Builder
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		sb.Write(seg.Value(src))
	}
	return sb.String()
}
