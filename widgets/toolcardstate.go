package widgets

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// cardOutputRows is how many output lines an expanded card shows before its
// output scrolls.
const cardOutputRows = 12

// cardState is what the sidebar knows about one tool call, whether or not a
// view shows it. Views are recycled as the list scrolls; the state stays.
type cardState struct {
	card ToolCard
	doc  *monoDoc
	// version changes whenever anything a view draws changes, so a view
	// bound to this state redraws only when it differs from what it drew.
	version uint64

	newest    bool // the top card: expanded by default
	showTurn  bool // the first card of its turn: draws the turn label
	selected  bool
	userSet   bool // the user expanded or collapsed it: that wins
	userOpen  bool
	height    float32
	heightFor uint64 // version height was computed for
	placed    uint64 // the list's last place pass that found it visible
}

func newCardState() *cardState {
	return &cardState{doc: newMonoDoc()}
}

// apply takes a new revision of the card.
func (st *cardState) apply(c ToolCard) {
	st.card = c
	st.touch()
}

// touch records that something drawn changed. An open card's lines follow
// its output, processing only what is new; a closed one drops them, since
// a long session has hundreds of finished cards and the app keeps their
// output anyway: opening one splits it again.
func (st *cardState) touch() {
	st.version++
	if st.expanded() {
		st.doc.lines.set(st.card.Output, st.card.OutputDropped)
	} else if st.doc.lines.fed {
		st.doc.lines.reset()
	}
}

func (st *cardState) expanded() bool {
	if st.userSet {
		return st.userOpen
	}
	return st.newest || st.card.Status == ToolRunning || st.card.Status == ToolPending
}

// hidden says whether some output is not in the card: cut by the producer
// or by the widget's own line cap, or kept whole only in the tool's file
// (the tool shortened what it returned).
func (st *cardState) hidden() bool {
	return st.card.OutputDropped > 0 || st.doc.lines.first() > 0 || st.card.FullOutputPath != ""
}

func (st *cardState) noticeText() string {
	lines, bytes := st.doc.lines.first(), st.card.OutputDropped
	switch {
	case lines > 0 && bytes > 0:
		return fmt.Sprintf("… %s earlier lines and %s not shown", groupedInt(lines), byteSize(bytes))
	case lines == 1:
		return "… 1 earlier line not shown"
	case lines > 0:
		return fmt.Sprintf("… %s earlier lines not shown", groupedInt(lines))
	case bytes > 0:
		return fmt.Sprintf("… %s of earlier output not shown", byteSize(bytes))
	case st.card.FullOutputPath != "":
		return "… the tool saved its full output to a file"
	}
	return ""
}

// cardMetrics are the theme-derived sizes both the list (for row heights,
// without a view) and the view (for layout) use, so they agree.
type cardMetrics struct {
	pad, inner      float32
	textSize, capSz float32
	textH, capH     float32
	icon            float32
	header          float32
	line            float32 // one output line
}

func newCardMetrics(th fyne.Theme) cardMetrics {
	m := cardMetrics{
		pad:      th.Size(theme.SizeNamePadding),
		inner:    th.Size(theme.SizeNameInnerPadding),
		textSize: th.Size(theme.SizeNameText),
		capSz:    th.Size(theme.SizeNameCaptionText),
		icon:     th.Size(theme.SizeNameInlineIcon),
	}
	m.textH = fyne.MeasureText("Mg", m.textSize, fyne.TextStyle{Bold: true}).Height
	m.capH = fyne.MeasureText("Mg", m.capSz, fyne.TextStyle{}).Height
	m.header = max(m.textH, m.icon)
	m.line = monoLineHeight(th, theme.SizeNameCaptionText) // as monoView measures its rows
	return m
}

// turnHeight is the turn label's band: more space above than below, so the
// label groups with the cards under it.
func (m cardMetrics) turnHeight() float32 { return 2*m.pad + m.capH + m.pad/2 }

func (m cardMetrics) outputHeight(st *cardState) float32 {
	rows := min(max(st.doc.lines.count(), 1), cardOutputRows)
	return float32(rows)*m.line + m.inner // padded above and below by inner/2
}

// height is the row height of st in the list.
func (m cardMetrics) height(st *cardState) float32 {
	h := 2*m.pad + m.header
	if st.showTurn {
		h += m.turnHeight()
	}
	if st.expanded() {
		if st.hidden() {
			h += m.capH + m.pad
		}
		if st.doc.lines.count() > 0 {
			h += m.outputHeight(st) + m.pad
		}
	}
	return h
}
