package prompt

import (
	"fmt"
	"image/color"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"knightcode.ai/desktop/widgets/kit"
)

// extBlockMaxRows bounds a block, the "… N more lines" row included: an
// extension must not be able to push the editor off the window.
const extBlockMaxRows = 10

// ExtensionBlocks shows the text blocks extensions place beside the editor,
// one tinted panel per key, in key order so that they do not swap places as
// extensions update them. Lines are plain monospace text. It hides itself
// when no extension has a block.
type ExtensionBlocks struct {
	widget.BaseWidget

	blocks map[string][]string
	keys   []string // sorted

	panels  []*canvas.Rectangle
	texts   []*canvas.Text // pooled; full holds each one's unfitted text
	full    []string
	objects []fyne.CanvasObject
}

// NewExtensionBlocks returns an empty, hidden set of blocks.
func NewExtensionBlocks() *ExtensionBlocks {
	b := &ExtensionBlocks{blocks: map[string][]string{}}
	b.ExtendBaseWidget(b)
	b.Hide()
	return b
}

// Set shows lines as the block of key, replacing what key showed before;
// no lines remove the block. Lines holding newlines are split.
func (b *ExtensionBlocks) Set(key string, lines []string) {
	var clean []string
	for _, l := range lines {
		for _, s := range strings.Split(l, "\n") {
			clean = append(clean, kit.CleanMonoLine(strings.TrimSuffix(s, "\r")))
		}
	}
	old, had := b.blocks[key]
	if len(clean) == 0 {
		if !had {
			return
		}
		delete(b.blocks, key)
		b.keys = slices.DeleteFunc(b.keys, func(k string) bool { return k == key })
	} else {
		if had && slices.Equal(old, clean) {
			return
		}
		b.blocks[key] = clean
		if !had {
			i, _ := slices.BinarySearch(b.keys, key)
			b.keys = slices.Insert(b.keys, i, key)
		}
	}
	if len(b.keys) == 0 {
		b.Hide()
		return
	}
	if b.Visible() {
		b.Refresh()
	} else {
		b.Show()
	}
}

// Keys returns the keys shown, in display order.
func (b *ExtensionBlocks) Keys() []string { return slices.Clone(b.keys) }

func (b *ExtensionBlocks) CreateRenderer() fyne.WidgetRenderer {
	r := &extBlocksRenderer{b: b}
	r.Refresh()
	return r
}

type extBlocksRenderer struct {
	b *ExtensionBlocks
}

func (r *extBlocksRenderer) Destroy() {}

func (r *extBlocksRenderer) Objects() []fyne.CanvasObject { return r.b.objects }

func (r *extBlocksRenderer) metrics() (pad, inner, lineH float32) {
	th := r.b.Theme()
	return th.Size(theme.SizeNamePadding), th.Size(theme.SizeNameInnerPadding), kit.MonoLineHeight(th, theme.SizeNameText)
}

// shownRows is how many rows a block of n lines takes: its lines, or the
// first lines and a count of the rest.
func shownRows(n int) int { return min(n, extBlockMaxRows) }

func (r *extBlocksRenderer) MinSize() fyne.Size {
	pad, inner, lineH := r.metrics()
	h := float32(0)
	for _, k := range r.b.keys {
		h += float32(shownRows(len(r.b.blocks[k])))*lineH + inner + pad
	}
	return fyne.NewSize(0, h)
}

func (r *extBlocksRenderer) Layout(size fyne.Size) {
	b := r.b
	pad, inner, lineH := r.metrics()
	textSize := b.Theme().Size(theme.SizeNameText)
	y, t := pad/2, 0
	for i, k := range b.keys {
		rows := shownRows(len(b.blocks[k]))
		h := float32(rows)*lineH + inner
		b.panels[i].Move(fyne.NewPos(0, y))
		b.panels[i].Resize(fyne.NewSize(size.Width, h))
		for row := 0; row < rows; row++ {
			txt := b.texts[t]
			txt.Text = kit.FitText(b.full[t], size.Width-2*inner, textSize, txt.TextStyle)
			txt.Move(fyne.NewPos(inner, y+inner/2+float32(row)*lineH))
			txt.Resize(fyne.NewSize(size.Width-2*inner, lineH))
			txt.Refresh()
			t++
		}
		y += h + pad
	}
}

// Refresh rebuilds the panels; extensions update blocks now and then, not
// every frame.
func (r *extBlocksRenderer) Refresh() {
	b := r.b
	th := b.Theme()
	textSize := th.Size(theme.SizeNameText)
	fg, muted := kit.ResolveColor(th, theme.ColorNameForeground), kit.ResolveColor(th, theme.ColorNamePlaceHolder)
	b.objects, b.full = b.objects[:0], b.full[:0]
	for len(b.panels) < len(b.keys) {
		b.panels = append(b.panels, canvas.NewRectangle(nil))
	}
	b.panels = b.panels[:len(b.keys)]
	t := 0
	for i, k := range b.keys {
		p := b.panels[i]
		p.FillColor = kit.WithAlpha(kit.ResolveColor(th, theme.ColorNamePrimary), 0x14)
		p.StrokeColor = kit.WithAlpha(kit.ResolveColor(th, theme.ColorNamePrimary), 0x40)
		p.StrokeWidth = 1
		p.CornerRadius = th.Size(theme.SizeNameInputRadius)
		b.objects = append(b.objects, p)
		lines := b.blocks[k]
		more := 0
		if len(lines) > extBlockMaxRows {
			more = len(lines) - (extBlockMaxRows - 1)
			lines = lines[:extBlockMaxRows-1]
		}
		for _, l := range lines {
			b.full = append(b.full, l)
			b.objects = append(b.objects, r.text(t, fg, textSize, true))
			t++
		}
		if more > 0 {
			b.full = append(b.full, fmt.Sprintf("… %d more lines", more))
			b.objects = append(b.objects, r.text(t, muted, textSize, false))
			t++
		}
	}
	b.texts = b.texts[:t]
	r.Layout(b.Size())
	canvas.Refresh(b)
}

// text readies pooled text object t.
func (r *extBlocksRenderer) text(t int, col color.Color, size float32, mono bool) *canvas.Text {
	b := r.b
	if t == len(b.texts) && t < cap(b.texts) {
		b.texts = b.texts[:t+1] // a text left past the end, or nil
	} else if t == len(b.texts) {
		b.texts = append(b.texts, nil)
	}
	if b.texts[t] == nil {
		b.texts[t] = canvas.NewText("", nil)
	}
	txt := b.texts[t]
	txt.Color, txt.TextSize = col, size
	txt.TextStyle = fyne.TextStyle{Monospace: mono, Italic: !mono}
	return txt
}
