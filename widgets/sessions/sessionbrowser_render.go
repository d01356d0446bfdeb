package sessions

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"knightcode.ai/desktop/widgets/kit"
)

// browserMinSearch is the narrowest the search box gets beside the scope.
const browserMinSearch = 200

// browserMinPreview is the narrowest browser that shows a preview beside
// the list.
const browserMinPreview = 640

// sessionBrowserRenderer stacks the search row, the list and the button
// row. Its objects are in keyboard order: Tab goes search box, scope,
// list, Refresh, New session, Close.
type sessionBrowserRenderer struct {
	b *SessionBrowser
}

func (b *SessionBrowser) CreateRenderer() fyne.WidgetRenderer {
	r := &sessionBrowserRenderer{b: b}
	r.Refresh()
	return r
}

func (r *sessionBrowserRenderer) Destroy() {}

func (r *sessionBrowserRenderer) Objects() []fyne.CanvasObject {
	b := r.b
	objs := []fyne.CanvasObject{b.search, b.scope, b.list, b.empty, b.count, b.refresh, b.create, b.closeButton}
	if b.OnPreview != nil {
		objs = append(objs, b.preview.scroll)
	}
	return objs
}

func (r *sessionBrowserRenderer) bars() (pad, top, bottom float32) {
	b := r.b
	pad = b.Theme().Size(theme.SizeNamePadding)
	top = max(b.search.MinSize().Height, b.scope.MinSize().Height)
	bottom = max(b.refresh.MinSize().Height, b.create.MinSize().Height, b.closeButton.MinSize().Height)
	return
}

func (r *sessionBrowserRenderer) MinSize() fyne.Size {
	b := r.b
	pad, top, bottom := r.bars()
	w := max(b.search.MinSize().Width, b.scope.MinSize().Width,
		b.count.MinSize().Width+3*pad+b.refresh.MinSize().Width+b.create.MinSize().Width+b.closeButton.MinSize().Width)
	list := 3 * (b.list.RowHeight + pad)
	if b.list.RowHeight == 0 {
		list = 3 * b.list.MinSize().Height
	}
	return fyne.NewSize(w, top+bottom+2*pad+list)
}

func (r *sessionBrowserRenderer) Layout(size fyne.Size) {
	b := r.b
	pad, top, bottom := r.bars()

	sw := b.scope.MinSize().Width
	listY := top + pad
	b.search.Move(fyne.NewPos(0, 0))
	if size.Width-sw-pad >= browserMinSearch {
		b.search.Resize(fyne.NewSize(size.Width-sw-pad, top))
		b.scope.Move(fyne.NewPos(size.Width-sw, 0))
	} else {
		// Too narrow for both on one line: the scope goes under the search.
		b.search.Resize(fyne.NewSize(size.Width, top))
		b.scope.Move(fyne.NewPos(0, listY))
		listY += top + pad
	}
	b.scope.Resize(fyne.NewSize(sw, top))

	listH := max(0, size.Height-listY-bottom-pad)
	listW := size.Width
	if b.OnPreview != nil && size.Width >= browserMinPreview {
		// The preview takes the right part, the list keeps room for its
		// titles.
		listW = size.Width * 0.56
		b.preview.scroll.Show()
		b.preview.scroll.Move(fyne.NewPos(listW+pad, listY))
		b.preview.scroll.Resize(fyne.NewSize(size.Width-listW-pad, listH))
	} else {
		b.preview.scroll.Hide()
	}
	b.list.Move(fyne.NewPos(0, listY))
	b.list.Resize(fyne.NewSize(listW, listH))
	eh := b.empty.MinSize().Height
	b.empty.Move(fyne.NewPos(0, listY+min(listH/3, max(0, listH-eh))))
	b.empty.Resize(fyne.NewSize(listW, eh))

	y := size.Height - bottom
	x := size.Width
	for _, btn := range []fyne.CanvasObject{b.closeButton, b.create, b.refresh} {
		m := btn.MinSize()
		x -= m.Width
		btn.Move(fyne.NewPos(x, y))
		btn.Resize(fyne.NewSize(m.Width, bottom))
		x -= pad
	}
	cs := b.count.MinSize()
	b.count.Move(fyne.NewPos(pad, y+(bottom-cs.Height)/2))
	b.count.Resize(cs)
}

func (r *sessionBrowserRenderer) Refresh() {
	b := r.b
	th := b.Theme()
	b.count.TextSize = th.Size(theme.SizeNameCaptionText)
	b.count.Color = kit.ResolveColor(th, theme.ColorNamePlaceHolder)
	b.count.Refresh()
	r.Layout(b.Size())
	for _, o := range r.Objects() {
		o.Refresh()
	}
}
