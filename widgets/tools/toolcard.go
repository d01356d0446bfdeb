package tools

import (
	"fmt"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/widgets/kit"
)

// toolCardView draws one cardState. The sidebar's list binds it to whichever
// card scrolls into its place.
type toolCardView struct {
	widget.BaseWidget

	side  *ToolSidebar
	st    *cardState
	drawn uint64 // st.version last drawn
	draws int    // times update ran; tests check unchanged cards are skipped
	icons cardIcons
	m     cardMetrics
	// linesVer is the output version the monoView last showed; cmdVer the
	// command's.
	linesVer, cmdVer uint64

	nameFit, argsFit, noteFit kit.FittedText
	// diffNoteText is the caption's note before it is fitted.
	diffNoteText string

	turn     *canvas.Text
	turnRule *canvas.Rectangle
	box      *canvas.Rectangle
	chevron  *widget.Icon
	status   *widget.Icon
	name     *canvas.Text
	args     *canvas.Text
	elapsed  *canvas.Text
	copyBtn  *kit.MiniButton
	notice   *canvas.Text
	showAll  *kit.MiniButton
	outBox   *canvas.Rectangle
	mono     *MonoView
	scroll   *SyncScroll
	// The open header: the whole command and its copy button.
	cmdMono   *MonoView
	cmdScroll *SyncScroll
	cmdCopy   *kit.MiniButton
	// The diff's caption: "+3 −1 · note", and Copy diff.
	diffAdd, diffDel, diffNote *canvas.Text
	copyDiff                   *kit.MiniButton
	objects                    []fyne.CanvasObject
}

var _ fyne.Tappable = (*toolCardView)(nil)

func newToolCardView(side *ToolSidebar) *toolCardView {
	v := &toolCardView{side: side}
	v.ExtendBaseWidget(v)
	return v
}

// bind shows st, redrawing only if it is another card or it changed.
func (v *toolCardView) bind(st *cardState) {
	restyle := v.mono != nil && v.m != v.side.metrics()
	if v.st == st && v.drawn == st.version && !restyle {
		return
	}
	v.st = st
	if restyle {
		v.Restyle() // a recycled view may have missed a theme change
	}
	if v.mono != nil {
		v.update()
	}
}

// Tapped toggles the card when its header is tapped.
func (v *toolCardView) Tapped(ev *fyne.PointEvent) {
	if v.st == nil {
		return
	}
	top := float32(0)
	if v.st.showTurn {
		top = v.m.turnHeight()
	}
	if ev.Position.Y >= top && ev.Position.Y <= top+2*v.m.pad+v.m.header {
		v.side.toggle(v.st)
	}
}

func (v *toolCardView) MinSize() fyne.Size {
	v.ExtendBaseWidget(v)
	return v.BaseWidget.MinSize()
}

func (v *toolCardView) CreateRenderer() fyne.WidgetRenderer {
	v.turn = canvas.NewText("", nil)
	v.turn.TextStyle.Bold = true
	v.turnRule = canvas.NewRectangle(nil)
	v.box = canvas.NewRectangle(nil)
	v.chevron = widget.NewIcon(nil)
	v.status = widget.NewIcon(nil)
	v.name = canvas.NewText("", nil)
	v.name.TextStyle.Bold = true
	v.args = canvas.NewText("", nil)
	v.elapsed = canvas.NewText("", nil)
	v.elapsed.Alignment = fyne.TextAlignTrailing
	v.copyBtn = kit.NewMiniIconButton(theme.ContentCopyIcon(), func() {
		if v.st != nil {
			v.side.copyOutput(v.st.card)
		}
	})
	v.notice = canvas.NewText("", nil)
	v.showAll = kit.NewMiniLinkButton("Show all", func() {
		if v.st != nil {
			v.side.showAll(v.st.card)
		}
	})
	v.outBox = canvas.NewRectangle(nil)
	doc, cmd := NewMonoDoc(), NewMonoDoc()
	if v.st != nil {
		doc, cmd = v.st.doc, v.st.cmd
	}
	v.mono = NewMonoView(doc)
	v.scroll = NewMonoScroll(v.mono)
	v.scroll.parent = v.side.list.scroll
	v.cmdMono = NewMonoView(cmd)
	v.cmdScroll = NewMonoScroll(v.cmdMono)
	v.mono.OnSelectStart, v.cmdMono.OnSelectStart = v.side.selectionStarted, v.side.selectionStarted
	v.cmdScroll.Direction = container.ScrollVerticalOnly // wrapped to fit
	v.cmdScroll.parent = v.side.list.scroll
	v.cmdCopy = kit.NewMiniLinkButton(copyCommandLabel, func() {
		if v.st != nil {
			v.side.copyCommand(v.st.card)
			v.cmdCopy.Confirm()
		}
	})
	v.diffAdd, v.diffDel, v.diffNote = canvas.NewText("", nil), canvas.NewText("", nil), canvas.NewText("", nil)
	v.copyDiff = kit.NewMiniLinkButton("Copy diff", func() {
		if v.st != nil {
			v.side.copyDiff(v.st.card)
			v.copyDiff.Confirm()
		}
	})
	v.objects = []fyne.CanvasObject{v.turn, v.turnRule, v.box, v.chevron, v.status, v.name, v.args,
		v.elapsed, v.copyBtn, v.cmdScroll, v.cmdCopy, v.diffAdd, v.diffDel, v.diffNote, v.copyDiff,
		v.notice, v.showAll, v.outBox, v.scroll}
	r := &toolCardRenderer{v: v}
	v.Restyle()
	if v.st != nil {
		v.update()
	}
	return r
}

// Restyle applies theme colours and sizes.
func (v *toolCardView) Restyle() {
	th := v.Theme()
	vr := fyne.CurrentApp().Settings().ThemeVariant()
	v.m = newCardMetrics(th)
	v.icons = cardIcons{status: -1} // themed icons: set again
	v.turn.TextSize = v.m.capSz
	v.turn.Color = th.Color(theme.ColorNamePlaceHolder, vr)
	v.turnRule.FillColor = th.Color(theme.ColorNameSeparator, vr)
	v.box.CornerRadius = th.Size(theme.SizeNameInputRadius)
	v.box.FillColor = th.Color(theme.ColorNameInputBackground, vr)
	v.name.TextSize = v.m.textSize
	v.name.Color = th.Color(theme.ColorNameForeground, vr)
	v.args.TextSize = v.m.textSize
	v.args.Color = th.Color(theme.ColorNamePlaceHolder, vr)
	v.elapsed.TextSize = v.m.capSz
	v.notice.TextSize = v.m.capSz
	v.notice.Color = th.Color(theme.ColorNamePlaceHolder, vr)
	v.outBox.CornerRadius = th.Size(theme.SizeNameInputRadius)
	v.outBox.FillColor = th.Color(theme.ColorNameBackground, vr)
	for _, t := range []*canvas.Text{v.diffAdd, v.diffDel, v.diffNote} {
		t.TextSize = v.m.capSz
	}
	v.diffAdd.Color = th.Color(theme.ColorNameSuccess, vr)
	v.diffDel.Color = th.Color(theme.ColorNameError, vr)
	v.diffNote.Color = th.Color(theme.ColorNamePlaceHolder, vr)
	v.styleState()
}

// styleState applies the colours that depend on the card's state.
func (v *toolCardView) styleState() {
	if v.st == nil {
		return
	}
	th := v.Theme()
	vr := fyne.CurrentApp().Settings().ThemeVariant()
	v.box.StrokeWidth = 0
	v.box.StrokeColor = nil
	v.elapsed.Color = th.Color(theme.ColorNamePlaceHolder, vr)
	if v.st.card.Status == model.ToolFailed {
		v.elapsed.Color = th.Color(theme.ColorNameError, vr)
		v.box.StrokeWidth = th.Size(theme.SizeNameInputBorder)
		v.box.StrokeColor = th.Color(theme.ColorNameError, vr)
	}
	if v.st.selected {
		v.box.StrokeWidth = 2 * th.Size(theme.SizeNameInputBorder)
		v.box.StrokeColor = th.Color(theme.ColorNamePrimary, vr)
	}
}

// update redraws the card from its state.
func (v *toolCardView) update() {
	st := v.st
	c := st.card
	v.drawn = st.version
	v.draws++

	v.turn.Text = fmt.Sprintf("Turn %d", c.Turn)
	// Icons are SVG, recoloured on every SetResource: set them only when
	// they change, not on every output update.
	if icons := (cardIcons{st.expanded(), c.Status}); icons != v.icons {
		v.icons = icons
		if icons.open {
			v.chevron.SetResource(theme.MenuDropDownIcon())
		} else {
			v.chevron.SetResource(theme.MenuExpandIcon())
		}
		v.status.SetResource(statusIcon(c.Status))
	}
	v.elapsed.Text = kit.ElapsedText(c, v.side.now())
	v.notice.Text = st.noticeText()
	v.styleState()

	if st.showsDiff() && st.doc.diff != nil {
		v.diffAdd.Text, v.diffDel.Text, v.diffNoteText = diffCaption(c, st.doc.diff.marks)
	}

	if v.mono.doc != st.doc {
		v.mono.setDoc(st.doc)
		v.linesVer = st.doc.Lines.Ver
	} else if v.linesVer != st.doc.Lines.Ver {
		v.linesVer = st.doc.Lines.Ver
		v.mono.changed()
	}
	if v.cmdMono.doc != st.cmd {
		v.cmdMono.setDoc(st.cmd)
		v.cmdVer = st.cmd.Lines.Ver
	} else if v.cmdVer != st.cmd.Lines.Ver {
		v.cmdVer = st.cmd.Lines.Ver
		v.cmdScroll.Offset = fyne.Position{}
		v.cmdMono.changed()
	}

	v.Arrange(v.Size())
	for _, o := range []fyne.CanvasObject{v.turn, v.box, v.name, v.args, v.elapsed, v.notice, v.diffAdd, v.diffDel, v.diffNote} {
		o.Refresh()
	}
}

// tick refreshes the elapsed time of a running card.
func (v *toolCardView) tick(now time.Time) {
	if v.st == nil || v.elapsed == nil {
		return
	}
	if s := kit.ElapsedText(v.st.card, now); s != v.elapsed.Text {
		v.elapsed.Text = s
		v.Arrange(v.Size()) // "9s" to "10s" is wider: the arguments give way
		v.elapsed.Refresh()
		v.args.Refresh()
	}
}

// cardIcons is what the header icons show.
type cardIcons struct {
	open   bool
	status model.ToolStatus
}

func statusIcon(s model.ToolStatus) fyne.Resource {
	switch s {
	case model.ToolRunning:
		return theme.NewPrimaryThemedResource(theme.ViewRefreshIcon())
	case model.ToolDone:
		return theme.NewSuccessThemedResource(theme.ConfirmIcon())
	case model.ToolFailed:
		return theme.NewErrorThemedResource(theme.CancelIcon())
	}
	return theme.NewDisabledResource(theme.MoreHorizontalIcon())
}

func (v *toolCardView) Arrange(size fyne.Size) {
	st := v.st
	if st == nil || v.mono == nil {
		return
	}
	m := v.m
	y := float32(0)

	v.turn.Hidden = !st.showTurn || st.card.Turn <= 0
	v.turnRule.Hidden = v.turn.Hidden
	if st.showTurn {
		ts := v.turn.MinSize()
		v.turn.Move(fyne.NewPos(m.pad/2, 2*m.pad))
		v.turn.Resize(ts)
		ruleX := m.pad/2 + m.pad + ts.Width
		v.turnRule.Move(fyne.NewPos(ruleX, 2*m.pad+m.capH/2))
		v.turnRule.Resize(fyne.NewSize(max(0, size.Width-ruleX-m.pad/2), 1))
		y += m.turnHeight()
	}

	// Inset so the selection ring is not clipped by the list.
	in := m.pad / 2
	v.box.Move(fyne.NewPos(in, y))
	v.box.Resize(fyne.NewSize(size.Width-2*in, size.Height-y))

	// Header: chevron, status, name, arguments … elapsed, copy.
	hy := y + m.pad
	x := in + m.pad
	center := func(h float32) float32 { return hy + (m.header-h)/2 }
	// Nothing to open, no chevron; its place stays so names line up.
	v.chevron.Hidden = !st.openable()
	v.chevron.Move(fyne.NewPos(x, center(m.icon)))
	v.chevron.Resize(fyne.NewSquareSize(m.icon))
	x += m.icon
	v.status.Move(fyne.NewPos(x, center(m.icon)))
	v.status.Resize(fyne.NewSquareSize(m.icon))
	x += m.icon + m.pad

	right := size.Width - in - m.pad
	open := st.expanded()
	// The header's copy copies the output; a card showing a diff has
	// Copy diff instead.
	v.copyBtn.Hidden = st.card.Output == "" || (open && st.showsDiff())
	if !v.copyBtn.Hidden {
		v.copyBtn.Resize(fyne.NewSquareSize(m.icon))
		right -= m.icon
		v.copyBtn.Move(fyne.NewPos(right, center(m.icon)))
		right -= m.pad
	}
	es := fyne.MeasureText(v.elapsed.Text, m.capSz, v.elapsed.TextStyle)
	v.elapsed.Move(fyne.NewPos(right-es.Width, center(es.Height)))
	v.elapsed.Resize(es)
	if es.Width > 0 {
		right -= es.Width + m.pad
	}

	v.name.Text = v.nameFit.Fit(st.card.Name, max(0, right-x), m.textSize, v.name.TextStyle)
	ns := fyne.MeasureText(v.name.Text, m.textSize, v.name.TextStyle)
	v.name.Move(fyne.NewPos(x, center(ns.Height)))
	v.name.Resize(ns)
	x += ns.Width + m.pad
	// Open, the header shows the whole command under the name instead.
	cmd := st.showsCommand()
	v.args.Hidden = cmd
	v.args.Text = v.argsFit.Fit(st.card.ArgsSummary, max(0, right-x), m.textSize, v.args.TextStyle)
	as := fyne.MeasureText(v.args.Text, m.textSize, v.args.TextStyle)
	v.args.Move(fyne.NewPos(x, center(as.Height)))
	v.args.Resize(as)
	y = hy + m.header + m.pad

	showHide(v.cmdScroll, cmd)
	v.cmdCopy.Hidden = !cmd
	if cmd {
		cx, cw := m.commandArea(size.Width)
		h := m.commandHeight(st)
		v.cmdScroll.Move(fyne.NewPos(cx-v.cmdMono.pad, y-m.pad/2))
		v.cmdScroll.Resize(fyne.NewSize(cw, h))
		bs := v.cmdCopy.MinSize()
		v.cmdCopy.Resize(bs)
		v.cmdCopy.Move(fyne.NewPos(size.Width-in-m.pad-bs.Width, y-m.pad/2+(m.line-bs.Height)/2))
		y += h + m.pad
	}

	diff := open && st.showsDiff()
	v.diffAdd.Hidden, v.diffDel.Hidden, v.diffNote.Hidden, v.copyDiff.Hidden = !diff, !diff, !diff, !diff
	if diff {
		cx := in + m.pad
		for _, t := range []*canvas.Text{v.diffAdd, v.diffDel} {
			ts := fyne.MeasureText(t.Text, m.capSz, t.TextStyle)
			t.Move(fyne.NewPos(cx, y))
			t.Resize(ts)
			if ts.Width > 0 {
				cx += ts.Width + m.pad
			}
		}
		bs := v.copyDiff.MinSize()
		bx := size.Width - in - m.pad - bs.Width
		v.copyDiff.Move(fyne.NewPos(bx, y+(m.capH-bs.Height)/2))
		v.copyDiff.Resize(bs)
		v.diffNote.Text = v.noteFit.Fit(v.diffNoteText, max(0, bx-m.pad-cx), m.capSz, v.diffNote.TextStyle)
		v.diffNote.Move(fyne.NewPos(cx, y))
		v.diffNote.Resize(fyne.NewSize(max(0, bx-m.pad-cx), m.capH))
		y += m.capH + m.pad
	}

	hidden := open && st.hidden()
	open = open && st.doc.Lines.Count() > 0
	v.notice.Hidden = !hidden
	v.showAll.Hidden = !hidden || !v.side.canShowAll(st.card)
	if hidden {
		v.notice.Move(fyne.NewPos(in+m.pad, y))
		v.notice.Resize(fyne.NewSize(size.Width, m.capH))
		if !v.showAll.Hidden {
			bs := v.showAll.MinSize()
			v.showAll.Move(fyne.NewPos(size.Width-in-m.pad-bs.Width, y+(m.capH-bs.Height)/2))
			v.showAll.Resize(bs)
		}
		y += m.capH + m.pad
	}

	v.outBox.Hidden = !open
	showHide(v.scroll, open)
	if open {
		h := m.outputHeight(st)
		v.outBox.Move(fyne.NewPos(in+m.pad, y))
		v.outBox.Resize(fyne.NewSize(size.Width-2*(in+m.pad), h))
		v.scroll.Move(v.outBox.Position().AddXY(0, m.inner/2))
		v.scroll.Resize(v.outBox.Size().SubtractWidthHeight(0, m.inner))
	}
}

// showHide shows or hides o, only when that changes it.
func showHide(o fyne.CanvasObject, show bool) {
	if show != o.Visible() {
		if show {
			o.Show()
		} else {
			o.Hide()
		}
	}
}

type toolCardRenderer struct {
	v *toolCardView
}

func (r *toolCardRenderer) Destroy() {}

func (r *toolCardRenderer) Layout(size fyne.Size) { r.v.Arrange(size) }

func (r *toolCardRenderer) MinSize() fyne.Size {
	if r.v.st == nil {
		return fyne.Size{}
	}
	return fyne.NewSize(0, r.v.m.height(r.v.st))
}

func (r *toolCardRenderer) Objects() []fyne.CanvasObject { return r.v.objects }

func (r *toolCardRenderer) Refresh() {
	r.v.Restyle()
	if r.v.st != nil {
		r.v.update()
	}
	for _, o := range r.v.objects {
		o.Refresh()
	}
}
