package tools

import (
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/widgets/kit"
)

// ToolSidebar lists the tool calls of the session, newest first, each under
// the label of its turn. The running card and the newest are expanded;
// the others collapse to a one-line summary the user can open.
type ToolSidebar struct {
	widget.BaseWidget

	// OnShowAll opens the full output of a card whose tool saved it to a
	// file (FullOutputPath). Such cards always offer "Show all": the tool
	// may have shortened what it returned.
	OnShowAll func(path string)
	// OnShowOutput shows all output of a card that has no file but whose
	// output is cut (OutputDropped > 0, or more lines than the sidebar
	// keeps). Without it such cards offer no "Show all".
	OnShowOutput func(card model.ToolCard)
	// OnCopy copies a card's output; when nil, card.Output goes to the
	// clipboard.
	OnCopy func(card model.ToolCard)
	// OnCopyText puts the text of Copy diff and of a card's copy-command
	// button on the clipboard; when nil, Fyne's clipboard takes it.
	OnCopyText func(text string)
	// OnSelectStart is called when text starts being selected in a card,
	// for the window to drop a selection elsewhere.
	OnSelectStart func()

	states  map[string]*cardState
	order   []*cardState // display order, newest first
	spare   []*cardState
	list    *cardList
	empty   *canvas.Text
	m       cardMetrics
	haveM   bool
	running bool
	// selDoc is the document holding the selection, if any.
	selDoc *MonoDoc

	now         func() time.Time
	startTicker func(tick func()) (stop func())
	stopTicker  func()
	// stopped says the sidebar's tab has ended (Stop): no ticker starts.
	stopped bool
}

// NewToolSidebar returns an empty sidebar.
func NewToolSidebar() *ToolSidebar {
	s := &ToolSidebar{
		states:      map[string]*cardState{},
		now:         time.Now,
		startTicker: startSecondTicker,
	}
	s.list = newCardList(s)
	s.ExtendBaseWidget(s)
	return s
}

// SetCards shows cards, given oldest first as the session has them. It is
// meant to be called at most once a frame with every card; cards whose
// Revision did not change cost a comparison.
func (s *ToolSidebar) SetCards(cards []model.ToolCard) {
	changed := len(cards) != len(s.order)
	order := s.spare[:0] // the two orders swap, so a frame allocates nothing
	running := false
	for i := len(cards) - 1; i >= 0; i-- {
		c := cards[i]
		st := s.states[c.ID]
		fresh := st == nil
		if fresh {
			st = newCardState()
			s.states[c.ID] = st
		}
		k := len(order)
		if k < len(s.order) && s.order[k] != st {
			changed = true
		}
		s.setFlags(st, k == 0, c.Turn > 0 && (k == 0 || order[k-1].card.Turn != c.Turn))
		if fresh || st.card.Revision != c.Revision {
			st.Apply(c)
			changed = true
		}
		running = running || c.Status == model.ToolRunning
		order = append(order, st)
	}
	if len(s.states) != len(order) {
		keep := make(map[string]*cardState, len(order))
		for _, st := range order {
			keep[st.card.ID] = st
		}
		s.states = keep
	}
	s.setRunning(running)
	if !changed {
		s.spare = order
		return
	}
	s.order, s.spare = order, s.order
	if s.empty != nil && s.empty.Visible() != (len(order) == 0) {
		if len(order) == 0 {
			s.empty.Show()
		} else {
			s.empty.Hide()
		}
	}
	s.list.setRows(order, s.rowMetrics(order))
}

// rowMetrics is metrics() when there are cards to measure, and the zero
// value when there are none: measuring no card needs none, and metrics()
// measures monospace text, for which Fyne parses a font face of its own,
// with its own copy of the 4 MB emoji font, that an empty sidebar never
// shows.
func (s *ToolSidebar) rowMetrics(rows []*cardState) cardMetrics {
	if len(rows) == 0 {
		return cardMetrics{}
	}
	return s.metrics()
}

func (s *ToolSidebar) setFlags(st *cardState, newest, showTurn bool) {
	if st.newest != newest || st.showTurn != showTurn {
		st.newest, st.showTurn = newest, showTurn
		st.touch()
	}
}

// Select scrolls to the card with id, opens it and highlights it until
// another is selected. Tapping a tool chip in the chat lands here.
func (s *ToolSidebar) Select(id string) {
	st := s.states[id]
	if st == nil {
		return
	}
	for _, o := range s.order {
		if o.selected && o != st {
			o.selected = false
			o.touch()
		}
	}
	st.selected, st.userSet, st.userOpen = true, true, true
	st.touch()
	s.list.setRows(s.order, s.metrics())
	for i, o := range s.order {
		if o == st {
			s.list.scrollTo(i)
			break
		}
	}
}

// toggle opens or closes a card at the user's request.
func (s *ToolSidebar) toggle(st *cardState) {
	open := st.expanded()
	st.userSet, st.userOpen = true, !open
	st.touch()
	s.list.setRows(s.order, s.metrics())
}

func (s *ToolSidebar) canShowAll(c model.ToolCard) bool {
	if c.FullOutputPath != "" {
		return s.OnShowAll != nil
	}
	return s.OnShowOutput != nil
}

func (s *ToolSidebar) showAll(c model.ToolCard) {
	if c.FullOutputPath != "" {
		if s.OnShowAll != nil {
			s.OnShowAll(c.FullOutputPath)
		}
		return
	}
	if s.OnShowOutput != nil {
		s.OnShowOutput(c)
	}
}

func (s *ToolSidebar) copyOutput(c model.ToolCard) {
	if s.OnCopy != nil {
		s.OnCopy(c)
		return
	}
	if a := fyne.CurrentApp(); a != nil {
		a.Clipboard().SetContent(c.Output)
	}
}

// copyDiff copies what a card's diff shows: the diff as the agent wrote
// it, or a file's content without line numbers.
func (s *ToolSidebar) copyDiff(c model.ToolCard) { s.copyText(diffCopyText(c)) }

// copyCommand copies a card's whole command.
func (s *ToolSidebar) copyCommand(c model.ToolCard) { s.copyText(c.Command) }

func (s *ToolSidebar) copyText(text string) {
	if s.OnCopyText != nil {
		s.OnCopyText(text)
		return
	}
	if a := fyne.CurrentApp(); a != nil {
		a.Clipboard().SetContent(text)
	}
}

// setRunning starts the elapsed-time ticker while a card runs and stops it
// when none does: an idle window wakes for nothing.
func (s *ToolSidebar) setRunning(running bool) {
	if running == s.running {
		return
	}
	s.running = running
	if running && !s.stopped {
		s.stopTicker = s.startTicker(s.tick)
		return
	}
	if s.stopTicker != nil {
		s.stopTicker()
		s.stopTicker = nil
	}
}

// Stop ends the elapsed-time ticker for good, with the tab the sidebar is
// in: its goroutine is the tab's, and a tab closed while a tool ran would
// otherwise leave it ticking.
func (s *ToolSidebar) Stop() {
	s.stopped = true
	if s.stopTicker != nil {
		s.stopTicker()
		s.stopTicker = nil
	}
}

func (s *ToolSidebar) tick() {
	if !s.running {
		return // a tick queued before the ticker stopped
	}
	s.list.tick(s.now())
}

// startSecondTicker calls tick on the UI goroutine once a second until
// stopped, with kit's ticker.
func startSecondTicker(tick func()) (stop func()) { return kit.Tick(nil, time.Second, tick) }

func (s *ToolSidebar) metrics() cardMetrics {
	if !s.haveM {
		s.m, s.haveM = newCardMetrics(s.Theme()), true
	}
	return s.m
}

func (s *ToolSidebar) CreateRenderer() fyne.WidgetRenderer {
	s.empty = canvas.NewText("No tool calls yet", nil)
	s.empty.Alignment = fyne.TextAlignCenter
	s.empty.Hidden = len(s.order) > 0
	r := &toolSidebarRenderer{s: s}
	r.Refresh()
	return r
}

type toolSidebarRenderer struct {
	s *ToolSidebar
}

func (r *toolSidebarRenderer) Destroy() {
	if r.s.stopTicker != nil {
		r.s.stopTicker()
		r.s.stopTicker, r.s.running = nil, false
	}
}

func (r *toolSidebarRenderer) Layout(size fyne.Size) {
	r.s.list.scroll.Resize(size)
	e := r.s.empty
	es := e.MinSize()
	e.Move(fyne.NewPos(0, r.s.Theme().Size(theme.SizeNameInnerPadding)))
	e.Resize(fyne.NewSize(size.Width, es.Height))
}

func (r *toolSidebarRenderer) MinSize() fyne.Size {
	return r.s.list.scroll.MinSize().Max(r.s.empty.MinSize())
}

func (r *toolSidebarRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.s.list.scroll, r.s.empty}
}

// Refresh follows a theme change: sizes are measured again and every
// visible card restyled.
func (r *toolSidebarRenderer) Refresh() {
	s := r.s
	th := s.Theme()
	s.empty.Color = th.Color(theme.ColorNamePlaceHolder, fyne.CurrentApp().Settings().ThemeVariant())
	s.empty.TextSize = th.Size(theme.SizeNameText)
	s.empty.Refresh()
	s.haveM = false
	for _, st := range s.order {
		st.version++
	}
	s.list.setRows(s.order, s.rowMetrics(s.order))
}
