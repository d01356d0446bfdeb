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
	return []fyne.CanvasObject{t.list, t.empty, t.hint, t.fork}
}

func (r *sessionTreeRenderer) MinSize() fyne.Size {
	t := r.t
	pad := t.Theme().Size(theme.SizeNamePadding)
	fm := t.fork.MinSize()
	return fyne.NewSize(fm.Width+2*pad+t.hint.MinSize().Width/3, 4*fm.Height+pad)
}

func (r *sessionTreeRenderer) Layout(size fyne.Size) {
	t := r.t
	pad := t.Theme().Size(theme.SizeNamePadding)
	fm := t.fork.MinSize()
	listH := max(0, size.Height-fm.Height-pad)
	t.list.Move(fyne.NewPos(0, 0))
	t.list.Resize(fyne.NewSize(size.Width, listH))
	eh := t.empty.MinSize().Height
	t.empty.Move(fyne.NewPos(0, min(listH/3, max(0, listH-eh))))
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
