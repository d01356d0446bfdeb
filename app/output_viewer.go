package app

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/widgets/kit"
)

// viewerTabWidth is where the viewer's tab stops are, in cells.
const viewerTabWidth = 8

// viewerLines splits text into the lines the viewer draws: tabs expanded,
// lines longer than cols cells continued on the next row.
func viewerLines(text string, cols int) []string {
	text = strings.TrimSuffix(text, "\n")
	var out []string
	var row strings.Builder
	for line := range strings.SplitSeq(text, "\n") {
		row.Reset()
		n := 0
		for _, r := range line {
			if n == cols {
				out = append(out, row.String())
				row.Reset()
				n = 0
			}
			if r == '\t' {
				spaces := min(viewerTabWidth-n%viewerTabWidth, cols-n)
				row.WriteString(strings.Repeat(" ", spaces))
				n += spaces
				continue
			}
			row.WriteRune(r)
			n++
		}
		out = append(out, row.String())
	}
	return out
}

// outputLines is the viewer's list of lines. Focused, the arrows and Page
// Up/Down move through it; Esc and Enter go to the dialog.
type outputLines struct {
	widget.List
	keys *kit.DialogKeys
}

func newOutputLines(lines []string, rowHeight float32, style fyne.TextStyle, size float32, keys *kit.DialogKeys) *outputLines {
	l := &outputLines{keys: keys}
	l.HideSeparators = true
	l.Length = func() int { return len(lines) }
	l.CreateItem = func() fyne.CanvasObject {
		t := canvas.NewText("", theme.Color(theme.ColorNameForeground))
		t.TextStyle, t.TextSize = style, size
		return container.New(fixedHeight{rowHeight}, t)
	}
	l.UpdateItem = func(id widget.ListItemID, o fyne.CanvasObject) {
		t := o.(*fyne.Container).Objects[0].(*canvas.Text)
		if id < len(lines) && t.Text != lines[id] {
			t.Text = lines[id]
			t.Refresh()
		}
	}
	l.ExtendBaseWidget(l)
	return l
}

// TypedKey gives Esc and Enter to the dialog; the list moves on the rest.
func (l *outputLines) TypedKey(ev *fyne.KeyEvent) {
	if l.keys.Key(ev) {
		return
	}
	switch ev.Name {
	case fyne.KeyPageDown, fyne.KeyPageUp:
		l.page(ev.Name == fyne.KeyPageDown)
	case fyne.KeyHome:
		l.ScrollToTop()
	case fyne.KeyEnd:
		l.ScrollToBottom()
	default:
		l.List.TypedKey(ev)
	}
}

// page scrolls by a screenful.
func (l *outputLines) page(down bool) {
	step := l.Size().Height * 0.9
	if !down {
		step = -step
	}
	l.ScrollToOffset(max(l.GetScrollOffset()+step, 0))
}

// fixedHeight lays out one row at the text's line height: a list row of
// a Label would be three times as tall as the line.
type fixedHeight struct{ height float32 }

func (f fixedHeight) MinSize([]fyne.CanvasObject) fyne.Size {
	return fyne.NewSize(0, f.height)
}

func (f fixedHeight) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		// Inset as far as the labels above, the path and the note.
		inset := theme.InnerPadding()
		o.Move(fyne.NewPos(inset, 0))
		o.Resize(fyne.NewSize(max(size.Width-inset, 0), size.Height))
	}
}

// showOutputViewer shows a tool's output file as text, read-only. The text
// is drawn as a list of lines, of which only those on screen exist: a
// multi-line Entry holding 1 MB took minutes to open. Its buttons copy the
// text or the path; Esc and Close close it.
func (f *agentFiles) showOutputViewer(out shownOutput) *keyDialog {
	k := newKeyDialog(f.win, f.modals)
	size := fyne.NewSize(880, 620)
	if c := f.win.Canvas().Size(); c.Width > 0 && c.Height > 0 {
		size = size.Min(fyne.NewSize(c.Width-40, c.Height-40))
	}
	style := fyne.TextStyle{Monospace: true}
	textSize := theme.TextSize()
	cell := fyne.MeasureText("M", textSize, style)
	// The lines wrap at the list's width (less its padding and scroll bar)
	// rather than scroll sideways.
	cols := max(int((size.Width-4*theme.Padding()-theme.InnerPadding()-40)/cell.Width), 20)
	lines := viewerLines(out.text, cols)

	list := newOutputLines(lines, cell.Height, style, textSize, k.Keys())
	head := widget.NewLabel(out.path)
	head.Truncation = fyne.TextTruncateEllipsis
	top := container.NewVBox(head)
	if note := out.cutNote(); note != "" {
		cut := widget.NewLabel(note)
		cut.Importance = widget.WarningImportance
		top.Add(cut)
	}
	k.build(out.name, container.NewBorder(top, nil, nil, nil, list),
		dialogAction{label: "Copy text", icon: theme.ContentCopyIcon(), keepOpen: true, run: func() {
			f.app.Clipboard().SetContent(out.text)
			f.toasts.Show("Text copied", model.NoticeInfo)
		}},
		dialogAction{label: "Copy path", icon: theme.ContentCopyIcon(), keepOpen: true, run: func() {
			f.app.Clipboard().SetContent(out.path)
			f.toasts.Show("Path copied", model.NoticeInfo)
		}},
		dialogAction{label: "Close", isDefault: true, isCancel: true})
	k.focus = list
	k.Resize(size)
	k.Show()
	return k
}
