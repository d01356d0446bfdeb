package markdown

import (
	"image/color"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"knightcode.ai/desktop/widgets/kit"
)

// CodeBlock is a fenced or indented code block: monospace text on a tinted
// card, its language named in the header beside a Copy button.
//
// Long lines wrap at the character that reaches the edge. A horizontal
// scroller would be the other choice, but Fyne sends the mouse wheel to
// the innermost scroller, so every code block would trap the wheel and the
// transcript could not be scrolled with the pointer over code.
//
// Like textFlow it keeps layout numbers for every display line and objects
// only for those in its window; past CollapseLines lines it shows those
// with "Show all", and shown whole it is laid out in steps.
type CodeBlock struct {
	widget.BaseWidget
	lang string
	code string
	copy *kit.CopyAction
	// closed is set once the closing fence has arrived.
	closed bool
	foldable
	bg       *canvas.Rectangle
	langText *canvas.Text

	// The highlighted lines, once lexed, for the code and look they were
	// lexed for.
	hl       [][]codeRun
	hlCode   string
	hlStamp  kit.LookStamp
	lexing   bool
	lexCount int // lexes started, for tests
	inLayout bool

	valid bool
	laidW float32
	stamp kit.LookStamp
	ver   uint64
	Lay   codeLayout

	lineWindow
	shown   kit.DrawnLines
	objects []fyne.CanvasObject

	// The selection and search matches, in bytes of the code as shown
	// (selText).
	Marks     Marks
	shownCode *string
	shownFor  string
}

func newCodeBlock(lang, code string, closed bool) *CodeBlock {
	c := &CodeBlock{lang: lang, lineWindow: lineWindow{win: kit.Everything}, bg: canvas.NewRectangle(nil), langText: &canvas.Text{}}
	c.setCode(code, closed)
	c.copy = kit.NewCopyAction(func() string { return c.code })
	c.ExtendBaseWidget(c)
	return c
}

// setCode replaces the code; the caller lays out and refreshes.
func (c *CodeBlock) setCode(code string, closed bool) {
	c.code = strings.TrimSuffix(code, "\n")
	c.closed = closed
	c.valid = false
}

func (c *CodeBlock) CreateRenderer() fyne.WidgetRenderer {
	return &kit.WidthRenderer{W: c}
}

func (c *CodeBlock) HeightAt(width float32) float32 {
	c.LayoutAt(width)
	return c.height()
}

func (c *CodeBlock) height() float32 {
	l := &c.Lay
	h := l.top + float32(len(l.Lines))*l.Cell.Height
	if c.More {
		h += l.Pad/2 + c.ShowAllButton().MinSize().Height
	}
	return h + l.Pad
}

func (c *CodeBlock) LayoutAt(width float32) {
	th := c.Theme()
	st := kit.LookStampOf(th)
	if c.valid && c.laidW == width && c.stamp == st {
		return
	}
	if c.stamp != st {
		c.shown.Clear()
	}
	c.inLayout = true
	c.highlight(th, st)
	c.inLayout = false
	pad := th.Size(theme.SizeNameInnerPadding)
	textSize := th.Size(theme.SizeNameText) - 1
	mono := fyne.TextStyle{Monospace: true}
	cell, _ := fyne.CurrentApp().Driver().RenderedTextSize("M", textSize, mono, nil)
	cols := 0
	if width > 0 {
		cols = max(int((width-2*pad)/cell.Width), 1)
	}
	c.Lay = codeLayout{
		code: c.code, hl: c.usableHighlight(st), cols: cols, Cell: cell, Pad: pad,
		top: c.copy.MinSize().Height + 2, fg: kit.ResolveColor(th, theme.ColorNameForeground), textSize: textSize,
	}
	c.Lay.stopAt = c.limit()
	c.laidOut(c.Lay.run())
	c.laidW, c.stamp, c.valid = width, st, true
	c.ver++
	c.placeChrome(th, width)
	if c.Pending {
		c.scheduleStep()
	}
}

// placeChrome sizes the card, the language name and the Copy button.
func (c *CodeBlock) placeChrome(th fyne.Theme, width float32) {
	c.bg.FillColor = kit.ResolveColor(th, theme.ColorNameInputBackground)
	c.bg.StrokeColor = kit.ResolveColor(th, theme.ColorNameInputBorder)
	c.bg.StrokeWidth = 1
	c.bg.CornerRadius = th.Size(theme.SizeNameInputRadius)
	// The stroke straddles the edge; keep it inside so clipping parents
	// do not cut the right and bottom borders.
	c.bg.Resize(fyne.NewSize(width-1, c.height()-1))
	btn := c.copy.MinSize()
	if c.lang != "" {
		c.langText.Text = c.lang
		c.langText.TextSize = th.Size(theme.SizeNameCaptionText)
		c.langText.Color = kit.ResolveColor(th, theme.ColorNamePlaceHolder)
		c.langText.TextStyle = fyne.TextStyle{Monospace: true}
		ls := c.langText.MinSize()
		c.langText.Move(fyne.NewPos(c.Lay.Pad, (btn.Height-ls.Height)/2+2))
		c.langText.Resize(ls)
	}
	c.copy.Move(fyne.NewPos(max(width-btn.Width-2, 0), 2))
	c.copy.Resize(btn)
}

func (c *CodeBlock) scheduleStep() {
	lay := c.Lay.code
	kit.Later(func() {
		if !c.Pending || c.Lay.code != lay {
			return
		}
		c.Lay.stopAt += LayoutStepLines
		c.Pending = !c.Lay.run()
		c.ver++
		c.bg.Resize(fyne.NewSize(c.laidW-1, c.height()-1))
		if c.Pending {
			c.scheduleStep()
		}
		c.grew(c.Refresh)
	})
}

func (c *CodeBlock) expand() {
	c.expanded = true
	c.valid = false
	if w := c.Size().Width; w > 0 {
		c.LayoutAt(w)
	}
	c.grew(c.Refresh)
}

func (c *CodeBlock) ShowAllButton() *kit.MiniButton { return c.button(c.expand) }

// usableHighlight is the lexed lines if they are for the code shown now.
func (c *CodeBlock) usableHighlight(st kit.LookStamp) [][]codeRun {
	if c.hl != nil && c.hlCode == c.code && c.hlStamp == st {
		return c.hl
	}
	return nil
}

// highlight lexes the code once its closing fence has arrived, off the UI
// goroutine: chroma lexes about 0.1-0.5 MB/s, and a block streamed in is
// then shown plain for the moment lexing takes. One still streaming is
// plain: lexing it again on every update would cost milliseconds a frame.
// It depends only on the text, so a streamed block ends up exactly as one
// rendered in one go.
func (c *CodeBlock) highlight(th fyne.Theme, st kit.LookStamp) {
	if !c.closed || c.lang == "" || !codeHighlighting || len(c.code) > highlightLimit || c.lexing ||
		c.usableHighlight(st) != nil {
		return
	}
	code, lang := c.code, c.lang
	fg := kit.ResolveColor(th, theme.ColorNameForeground)
	dark := isDark(kit.ResolveColor(th, theme.ColorNameInputBackground))
	var lines [][]codeRun
	c.lexing = true
	c.lexCount++
	kit.InBackground(func() {
		lines = highlightCode(lang, expandAllTabs(code), fg, dark)
	}, func() {
		c.lexing = false
		if c.code != code {
			return // the block changed meanwhile; its next layout lexes
		}
		c.hl, c.hlCode, c.hlStamp = lines, code, st
		c.valid = false
		if w := c.Size().Width; w > 0 && !c.inLayout {
			c.LayoutAt(w)
			c.Draw()
			kit.RequestFrame(c)
		}
	})
}

// SetWindow implements windowed.
func (c *CodeBlock) SetWindow(top, bottom float32) {
	if c.moveTo(top, bottom, c.ver) {
		c.Draw()
	}
}

// Draw brings the objects in line with the layout and the window.
func (c *CodeBlock) Draw() {
	c.objects = c.objects[:0]
	if !c.valid || c.win.Empty() {
		c.shown.Clear()
		c.drawnVer = c.ver
		return
	}
	c.objects = append(c.objects, c.bg)
	if c.lang != "" && c.win.Reaches(0, c.Lay.top) {
		c.objects = append(c.objects, c.langText)
	}
	if c.win.Reaches(0, c.Lay.top) {
		c.objects = append(c.objects, c.copy)
	}
	l := &c.Lay
	first := max(int((c.win.Top-l.top)/l.Cell.Height), 0)
	last := min(int((c.win.Bottom-l.top)/l.Cell.Height)+1, len(l.Lines))
	if c.win == kit.Everything {
		first, last = 0, len(l.Lines)
	}
	c.shown.Sync(first, max(last, first), c)
	c.drawnVer = c.ver
	c.objects = c.selectionRects(c.objects, first, max(last, first))
	c.objects = c.shown.AppendTo(c.objects)
	if c.More {
		b := c.ShowAllButton()
		kit.SetMiniLabel(b, "Show all ("+l.leftOver()+")")
		bs := b.MinSize()
		y := l.top + float32(len(l.Lines))*l.Cell.Height + l.Pad/2
		b.Move(fyne.NewPos(l.Pad-4, y))
		b.Resize(bs)
		if c.win.Reaches(y, bs.Height) {
			c.objects = append(c.objects, b)
		}
	}
}

// LineSig implements lineSource.
func (c *CodeBlock) LineSig(i int) uint64 {
	h := kit.NewSigHash().F32(c.Lay.Cell.Height)
	for _, r := range c.Lay.runsOf(i) {
		h = h.Str(r.text).Num(uint64(r.col)).Flag(r.italic).Num(colorBits(r.color))
	}
	return uint64(h)
}

// LineTop implements lineSource.
func (c *CodeBlock) LineTop(i int) float32 { return c.Lay.top + float32(i)*c.Lay.Cell.Height }

// BuildLine implements lineSource.
func (c *CodeBlock) BuildLine(i int) []fyne.CanvasObject {
	l := &c.Lay
	y := c.LineTop(i)
	var objs []fyne.CanvasObject
	for _, r := range l.runsOf(i) {
		t := &canvas.Text{Text: r.text, Color: r.color, TextSize: l.textSize,
			TextStyle: fyne.TextStyle{Monospace: true, Italic: r.italic}}
		t.Move(fyne.NewPos(l.Pad+float32(r.col)*l.Cell.Width, y))
		t.Resize(fyne.NewSize(float32(r.n)*l.Cell.Width, l.Cell.Height))
		objs = append(objs, t)
	}
	return objs
}

func colorBits(c color.Color) uint64 {
	if c == nil {
		return 0
	}
	r, g, b, a := c.RGBA()
	return uint64(r>>8)<<24 | uint64(g>>8)<<16 | uint64(b>>8)<<8 | uint64(a>>8)
}

func (c *CodeBlock) Invalidate() { c.valid = false }

func (c *CodeBlock) DrawnObjects() []fyne.CanvasObject {
	return c.objects
}
