package kit

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// CopyAction is a small, quiet "Copy" action. widget.Button is sized for
// forms; dozens of these sit in a transcript and should not shout.
type CopyAction struct {
	widget.BaseWidget
	// text is read at tap time, so a streaming message copies what it
	// holds now, not what it held when the button was made.
	text    func() string
	copied  bool
	hovered bool
	// onTap, label and icon make it another quiet action of the same look
	// (Edit), which does not copy.
	onTap func()
	label string
	icon  fyne.ThemeIconName
}

// NewQuietAction is an action that looks like Copy.
func NewQuietAction(icon fyne.ThemeIconName, label string, tap func()) *CopyAction {
	b := &CopyAction{onTap: tap, label: label, icon: icon}
	b.ExtendBaseWidget(b)
	return b
}

// NewCopyAction puts text() on the clipboard when tapped and says
// "Copied" until the pointer leaves.
func NewCopyAction(text func() string) *CopyAction {
	b := &CopyAction{text: text}
	b.ExtendBaseWidget(b)
	return b
}

func (b *CopyAction) Tapped(*fyne.PointEvent) {
	if b.onTap != nil {
		b.onTap()
		return
	}
	if a := fyne.CurrentApp(); a != nil && b.text != nil {
		a.Clipboard().SetContent(b.text())
	}
	b.copied = true
	b.Refresh()
}

func (b *CopyAction) Cursor() desktop.Cursor { return desktop.PointerCursor }

func (b *CopyAction) MouseIn(*desktop.MouseEvent) {
	b.hovered = true
	b.Refresh()
}

func (b *CopyAction) MouseMoved(*desktop.MouseEvent) {}

// MouseOut also clears "Copied": the confirmation lasts while the pointer
// stays, with no timer to run.
func (b *CopyAction) MouseOut() {
	b.hovered, b.copied = false, false
	b.Refresh()
}

func (b *CopyAction) CreateRenderer() fyne.WidgetRenderer {
	r := &copyActionRenderer{b: b, bg: canvas.NewRectangle(color.Transparent), label: &canvas.Text{}, icon: &canvas.Image{}}
	r.Refresh()
	return r
}

type copyActionRenderer struct {
	b     *CopyAction
	bg    *canvas.Rectangle
	icon  *canvas.Image
	label *canvas.Text

	iconName fyne.ThemeIconName
	stamp    LookStamp
}

func (r *copyActionRenderer) metrics() (pad, icon float32) {
	th := r.b.Theme()
	return th.Size(theme.SizeNamePadding), th.Size(theme.SizeNameCaptionText) + 2
}

func (r *copyActionRenderer) Layout(size fyne.Size) {
	pad, icon := r.metrics()
	r.bg.Resize(size)
	r.icon.Resize(fyne.NewSquareSize(icon))
	r.icon.Move(fyne.NewPos(pad*1.5, (size.Height-icon)/2))
	ts := r.label.MinSize()
	r.label.Resize(ts)
	r.label.Move(fyne.NewPos(pad*1.5+icon+pad, (size.Height-ts.Height)/2))
}

func (r *copyActionRenderer) MinSize() fyne.Size {
	pad, icon := r.metrics()
	ts := r.label.MinSize()
	return fyne.NewSize(pad*3+icon+pad+ts.Width, max(ts.Height, icon)+pad*1.5)
}

func (r *copyActionRenderer) Refresh() {
	th := r.b.Theme()
	r.label.Text = "Copy"
	iconName := theme.IconNameContentCopy
	if r.b.onTap != nil {
		r.label.Text, iconName = r.b.label, r.b.icon
	}
	if r.b.copied {
		r.label.Text = "Copied"
		iconName = theme.IconNameConfirm
	}
	r.label.TextSize = th.Size(theme.SizeNameCaptionText)
	r.label.Color = ResolveColor(th, theme.ColorNamePlaceHolder)
	// Loading an image parses its SVG: do it only when the icon changes.
	if st := LookStampOf(th); r.icon.Resource == nil || iconName != r.iconName || st != r.stamp {
		first := r.icon.Resource == nil
		r.iconName, r.stamp = iconName, st
		r.icon.Resource = theme.NewColoredResource(th.Icon(iconName), theme.ColorNamePlaceHolder)
		if !first {
			r.icon.Refresh()
		}
	}
	r.bg.CornerRadius = th.Size(theme.SizeNameSelectionRadius)
	r.bg.FillColor = color.Transparent
	if r.b.hovered {
		r.bg.FillColor = ResolveColor(th, theme.ColorNameHover)
	}
	r.Layout(r.b.Size())
	canvas.Refresh(r.b)
}

func (r *copyActionRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.bg, r.icon, r.label}
}

func (r *copyActionRenderer) Destroy() {}
