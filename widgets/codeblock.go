package widgets

import (
	"strings"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// codeBlock is a fenced or indented code block: monospace text on a tinted
// card, its language named in the header beside a Copy button.
//
// Long lines wrap at the character that reaches the edge. A horizontal
// scroller would be the other choice, but Fyne sends the mouse wheel to
// the innermost scroller, so every code block would trap the wheel and the
// transcript could not be scrolled with the pointer over code.
type codeBlock struct {
	widget.BaseWidget
	lang string
	code string
	copy *copyAction

	valid   bool
	laidW   float32
	laidH   float32
	stamp   lookStamp
	objects []fyne.CanvasObject

	// closed is set once the closing fence has arrived.
	closed bool

	// The highlighted lines, kept while the code and the look stay the
	// same, so a resize does not lex again.
	hl       [][]codeRun
	hlCode   string
	hlClosed bool
	hlStamp  lookStamp
}

func newCodeBlock(lang, code string, closed bool) *codeBlock {
	c := &codeBlock{lang: lang}
	c.setCode(code, closed)
	c.copy = newCopyAction(func() string { return c.code })
	c.ExtendBaseWidget(c)
	return c
}

// setCode replaces the code; the caller lays out and refreshes.
func (c *codeBlock) setCode(code string, closed bool) {
	c.code = strings.TrimSuffix(code, "\n")
	c.closed = closed
	c.valid = false
}

func (c *codeBlock) CreateRenderer() fyne.WidgetRenderer {
	return &widthRenderer{w: c}
}

func (c *codeBlock) heightAt(width float32) float32 {
	c.layoutAt(width)
	return c.laidH
}

func (c *codeBlock) layoutAt(width float32) {
	th := c.Theme()
	st := lookStampOf(th)
	if c.valid && c.laidW == width && c.stamp == st {
		return
	}
	pad := th.Size(theme.SizeNameInnerPadding)
	textSize := th.Size(theme.SizeNameText) - 1
	mono := fyne.TextStyle{Monospace: true}

	bg := canvas.NewRectangle(resolveColor(th, theme.ColorNameInputBackground))
	bg.StrokeColor = resolveColor(th, theme.ColorNameInputBorder)
	bg.StrokeWidth = 1
	bg.CornerRadius = th.Size(theme.SizeNameInputRadius)
	objs := []fyne.CanvasObject{bg}

	btn := c.copy.MinSize()
	header := btn.Height
	if c.lang != "" {
		lang := &canvas.Text{Text: c.lang, TextSize: th.Size(theme.SizeNameCaptionText),
			Color: resolveColor(th, theme.ColorNamePlaceHolder), TextStyle: mono}
		ls := lang.MinSize()
		lang.Move(fyne.NewPos(pad, (header-ls.Height)/2+2))
		lang.Resize(ls)
		objs = append(objs, lang)
	}
	c.copy.Move(fyne.NewPos(max(width-btn.Width-2, 0), 2))
	c.copy.Resize(btn)
	objs = append(objs, c.copy)

	cell, _ := fyne.CurrentApp().Driver().RenderedTextSize("M", textSize, mono, nil)
	cols := 0
	if width > 0 {
		cols = max(int((width-2*pad)/cell.Width), 1)
	}
	y := header + 2
	for _, line := range c.highlighted(th, st) {
		col := 0
		for _, run := range line {
			text := run.text
			for text != "" {
				n := utf8.RuneCountInString(text)
				part := text
				if cols > 0 && col+n > cols {
					if col == cols {
						col, y = 0, y+cell.Height
						continue
					}
					part = text[:runeOffset(text, cols-col)]
					n = cols - col
				}
				if run.color != nil {
					t := &canvas.Text{Text: part, Color: run.color, TextSize: textSize,
						TextStyle: fyne.TextStyle{Monospace: true, Italic: run.italic}}
					t.Move(fyne.NewPos(pad+float32(col)*cell.Width, y))
					t.Resize(fyne.NewSize(float32(n)*cell.Width, cell.Height))
					objs = append(objs, t)
				}
				col += n
				text = text[len(part):]
			}
		}
		y += cell.Height
	}
	h := y + pad
	// The stroke straddles the edge; keep it inside so clipping parents
	// do not cut the right and bottom borders.
	bg.Resize(fyne.NewSize(width-1, h-1))

	c.objects, c.laidH = objs, h
	c.laidW, c.stamp, c.valid = width, st, true
}

// highlighted returns the code's coloured lines for the look in use.
//
// Only a block whose closing fence has arrived is highlighted; one still
// streaming is plain. Lexing is by far the dearest part of drawing code
// (chroma lexes about 0.1-0.5 MB/s), and redoing it for a growing block on
// every update would cost milliseconds a frame; this way each block is
// lexed once. It depends only on the text, so a streamed block ends up
// exactly as one rendered in one go.
func (c *codeBlock) highlighted(th fyne.Theme, st lookStamp) [][]codeRun {
	if c.hl != nil && c.hlCode == c.code && c.hlClosed == c.closed && c.hlStamp == st {
		return c.hl
	}
	lang := c.lang
	if !c.closed {
		lang = ""
	}
	fg := resolveColor(th, theme.ColorNameForeground)
	dark := isDark(resolveColor(th, theme.ColorNameInputBackground))
	c.hl = highlightCode(lang, expandAllTabs(c.code), fg, dark)
	c.hlCode, c.hlClosed, c.hlStamp = c.code, c.closed, st
	return c.hl
}

func expandAllTabs(code string) string {
	if !strings.Contains(code, "\t") {
		return code
	}
	lines := strings.Split(code, "\n")
	for i, l := range lines {
		lines[i] = expandCodeTabs(l, 4)
	}
	return strings.Join(lines, "\n")
}

// runeOffset is the byte offset of the n-th rune of s.
func runeOffset(s string, n int) int {
	for i := range s {
		if n == 0 {
			return i
		}
		n--
	}
	return len(s)
}

// wrapCode expands tabs and cuts lines longer than cols runes; cols 0 means
// no limit.
func wrapCode(code string, cols int) []string {
	var out []string
	for _, line := range strings.Split(code, "\n") {
		line = expandCodeTabs(line, 4)
		if cols <= 0 || len(line) <= cols {
			out = append(out, line)
			continue
		}
		for utf8.RuneCountInString(line) > cols {
			cut := 0
			for n := 0; n < cols; n++ {
				_, size := utf8.DecodeRuneInString(line[cut:])
				cut += size
			}
			out = append(out, line[:cut])
			line = line[cut:]
		}
		out = append(out, line)
	}
	return out
}

func expandCodeTabs(line string, width int) string {
	if !strings.Contains(line, "\t") {
		return line
	}
	var sb strings.Builder
	col := 0
	for _, r := range line {
		if r == '\t' {
			n := width - col%width
			sb.WriteString(strings.Repeat(" ", n))
			col += n
			continue
		}
		sb.WriteRune(r)
		col++
	}
	return sb.String()
}

func (c *codeBlock) invalidate() { c.valid = false }

func (c *codeBlock) drawn() []fyne.CanvasObject { return c.objects }
