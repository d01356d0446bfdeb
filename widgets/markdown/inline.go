package markdown

import (
	"bytes"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/util"
)

// spanLook is the style inherited down the inline tree.
type spanLook struct {
	style  fyne.TextStyle
	size   fyne.ThemeSizeName
	color  fyne.ThemeColorName
	strike bool
	link   string
}

// spanBuilder turns goldmark inline nodes into spans, merging neighbours
// that look alike (goldmark splits text at every delimiter it considered).
type spanBuilder struct {
	src   []byte
	spans []InlineSpan
	buf   strings.Builder
	cur   InlineSpan
	open  bool
}

func inlineSpans(n ast.Node, src []byte, look spanLook) []InlineSpan {
	b := &spanBuilder{src: src}
	b.children(n, look)
	b.flush()
	return b.spans
}

func (b *spanBuilder) write(text string, look spanLook, code bool) {
	if text == "" {
		return
	}
	s := InlineSpan{Style: look.style, Size: look.size, Color: look.color, strike: look.strike, link: look.link, code: code}
	if b.open && !code && !b.cur.code && b.cur == s {
		b.buf.WriteString(text)
		return
	}
	b.flush()
	b.cur, b.open = s, true
	b.buf.WriteString(text)
}

func (b *spanBuilder) flush() {
	if !b.open {
		return
	}
	b.cur.Text = b.buf.String()
	b.spans = append(b.spans, b.cur)
	b.buf.Reset()
	b.open = false
}

func (b *spanBuilder) children(n ast.Node, look spanLook) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		b.node(c, look)
	}
}

func (b *spanBuilder) node(n ast.Node, look spanLook) {
	switch t := n.(type) {
	case *ast.Text:
		v := t.Segment.Value(b.src)
		if !t.IsRaw() {
			v = mdUnescape(v)
		}
		b.write(string(v), look, false)
		if t.HardLineBreak() {
			b.write("\n", look, false)
		} else if t.SoftLineBreak() {
			b.write(" ", look, false)
		}
	case *ast.String:
		b.write(string(t.Value), look, false)
	case *ast.CodeSpan:
		look.style.Monospace = true
		b.write(codeSpanText(t, b.src), look, true)
	case *ast.Emphasis:
		if t.Level >= 2 {
			look.style.Bold = true
		} else {
			look.style.Italic = true
		}
		b.children(t, look)
	case *east.Strikethrough:
		look.strike = true
		b.children(t, look)
	case *ast.Link:
		look.link = string(t.Destination)
		if t.ChildCount() == 0 {
			b.write(look.link, look, false)
			return
		}
		b.children(t, look)
	case *ast.AutoLink:
		look.link = string(t.URL(b.src))
		b.write(string(t.Label(b.src)), look, false)
	case *ast.Image:
		// Never fetched: the alt text stands in, linked to the address.
		look.link = string(t.Destination)
		alt := mdPlainText(t, b.src)
		if alt == "" {
			alt = look.link
		}
		b.write("[image: "+alt+"]", look, false)
	case *ast.RawHTML:
		for i := 0; i < t.Segments.Len(); i++ {
			seg := t.Segments.At(i)
			b.write(string(seg.Value(b.src)), look, false)
		}
	case *east.TaskCheckBox:
		// Drawn as the list item's marker.
	default:
		b.children(n, look)
	}
}

// codeSpanText joins a code span's lines the way CommonMark does: line
// endings become spaces and nothing is unescaped.
func codeSpanText(n ast.Node, src []byte) string {
	var sb strings.Builder
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if t, ok := c.(*ast.Text); ok {
			v := t.Segment.Value(src)
			if bytes.HasSuffix(v, []byte("\n")) {
				sb.Write(v[:len(v)-1])
				sb.WriteByte(' ')
			} else {
				sb.Write(v)
			}
		}
	}
	return sb.String()
}

// mdPlainText is the unstyled text under n, for alt text and previews.
func mdPlainText(n ast.Node, src []byte) string {
	var sb strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch t := c.(type) {
		case *ast.Text:
			sb.Write(mdUnescape(t.Segment.Value(src)))
			if t.SoftLineBreak() || t.HardLineBreak() {
				sb.WriteByte(' ')
			}
		case *ast.String:
			sb.Write(t.Value)
		}
		return ast.WalkContinue, nil
	})
	return sb.String()
}

// mdUnescape applies backslash escapes and entity references, which
// goldmark leaves in the source and resolves only when writing HTML.
func mdUnescape(v []byte) []byte {
	if bytes.IndexByte(v, '\\') >= 0 {
		v = util.UnescapePunctuations(v)
	}
	if bytes.IndexByte(v, '&') >= 0 {
		v = util.ResolveEntityNames(util.ResolveNumericReferences(v))
	}
	return v
}

// headingLook sizes a heading; levels past 2 differ by weight only, as the
// theme has no sizes between body and sub-heading text.
func headingLook(level int) spanLook {
	look := spanLook{style: fyne.TextStyle{Bold: true}}
	switch level {
	case 1:
		look.size = theme.SizeNameHeadingText
	case 2:
		look.size = theme.SizeNameSubHeadingText
	}
	return look
}
