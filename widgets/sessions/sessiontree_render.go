package sessions

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"knightcode.ai/desktop/widgets/kit"
)

// sessionTreeRenderer puts the list above a bar with the hint and the
// Fork button.
type sessionTreeRenderer struct {
	t *SessionTree
}

func (t *SessionTree) CreateRenderer() fyne.WidgetRenderer {
	r := &sessionTreeRenderer{t: t}
	r.Refresh()
	return r
}

func (r *sessionTreeRenderer) Destroy() {}

func (r *sessionTreeRenderer) Objects() []fyne.CanvasObject {
	t := r.t
	return []fyne.CanvasObject{t.filter, t.mine, t.list, t.empty, t.hint, t.fork}
}

func (r *sessionTreeRenderer) MinSize() fyne.Size {
	t := r.t
	pad := t.Theme().Size(theme.SizeNamePadding)
	fm := t.fork.MinSize()
	return fyne.NewSize(max(fm.Width+2*pad+t.hint.MinSize().Width/3, t.mine.MinSize().Width*2), 5*fm.Height+2*pad)
}

func (r *sessionTreeRenderer) Layout(size fyne.Size) {
	t := r.t
	pad := t.Theme().Size(theme.SizeNamePadding)
	fm := t.fork.MinSize()
	top := max(t.filter.MinSize().Height, t.mine.MinSize().Height)
	mw := t.mine.MinSize().Width
	t.filter.Move(fyne.NewPos(0, 0))
	t.filter.Resize(fyne.NewSize(max(0, size.Width-mw-pad), top))
	t.mine.Move(fyne.NewPos(size.Width-mw, 0))
	t.mine.Resize(fyne.NewSize(mw, top))
	listY := top + pad
	listH := max(0, size.Height-fm.Height-2*pad-top)
	t.list.Move(fyne.NewPos(0, listY))
	t.list.Resize(fyne.NewSize(size.Width, listH))
	eh := t.empty.MinSize().Height
	t.empty.Move(fyne.NewPos(0, listY+min(listH/3, max(0, listH-eh))))
	t.empty.Resize(fyne.NewSize(size.Width, eh))

	y := size.Height - fm.Height
	t.fork.Move(fyne.NewPos(size.Width-fm.Width, y))
	t.fork.Resize(fm)
	t.fitHint()
	hs := t.hint.MinSize()
	t.hint.Move(fyne.NewPos(pad, y+(fm.Height-hs.Height)/2))
	t.hint.Resize(fyne.NewSize(max(0, size.Width-fm.Width-2*pad), hs.Height))
}

func (r *sessionTreeRenderer) Refresh() {
	t := r.t
	th := t.Theme()
	t.hint.TextSize = th.Size(theme.SizeNameCaptionText)
	t.hint.Color = kit.ResolveColor(th, theme.ColorNamePlaceHolder)
	t.hint.TextSize = th.Size(theme.SizeNameCaptionText)
	r.Layout(t.Size())
	for _, o := range r.Objects() {
		o.Refresh()
	}
}
