package widgets

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"
)

// chatRowEstimate is the height the list assumes for an entry it has not
// measured yet; only entries that reach the screen are ever measured.
const chatRowEstimate = 96

// chatRow is the list's recycled row: it shows whichever entry's view it
// is bound to.
//
// It takes taps and hover itself, doing nothing with them: widget.List
// would otherwise select and highlight a transcript entry on click, which
// means nothing in a chat. Buttons inside the row still get their events,
// being deeper in the tree.
type chatRow struct {
	widget.BaseWidget
	view  itemView
	index int
}

func newChatRow() *chatRow {
	r := &chatRow{index: -1}
	r.ExtendBaseWidget(r)
	return r
}

// show puts v in the row, taking it out of any other row first.
func (r *chatRow) show(v itemView) {
	if r.view == v {
		return
	}
	r.view = v
	if v != nil {
		v.Resize(r.Size())
	}
	r.Refresh()
}

func (r *chatRow) Tapped(*fyne.PointEvent) {}

func (r *chatRow) MouseIn(*desktop.MouseEvent) {}

func (r *chatRow) MouseMoved(*desktop.MouseEvent) {}

func (r *chatRow) MouseOut() {}

func (r *chatRow) CreateRenderer() fyne.WidgetRenderer { return &chatRowRenderer{r: r} }

type chatRowRenderer struct {
	r *chatRow
}

func (rr *chatRowRenderer) Layout(size fyne.Size) {
	if rr.r.view != nil {
		rr.r.view.Resize(size)
	}
}

func (rr *chatRowRenderer) MinSize() fyne.Size {
	if rr.r.view == nil {
		return fyne.NewSize(0, chatRowEstimate)
	}
	return fyne.NewSize(0, rr.r.view.heightAt(rr.r.Size().Width))
}

func (rr *chatRowRenderer) Refresh() {
	rr.Layout(rr.r.Size())
	canvas.Refresh(rr.r)
}

func (rr *chatRowRenderer) Objects() []fyne.CanvasObject {
	if rr.r.view == nil {
		return nil
	}
	return []fyne.CanvasObject{rr.r.view}
}

func (rr *chatRowRenderer) Destroy() {}
