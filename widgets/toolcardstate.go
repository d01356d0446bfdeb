package widgets

import (
	"fmt"
	"math"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"knightcode.ai/desktop/model"
)

// cardOutputRows is how many output lines an expanded card shows before its
// output scrolls; a diff gets cardDiffRows, a command cardCommandRows.
const (
	cardOutputRows  = 12
	cardDiffRows    = 16
	cardCommandRows = 6
	// cardCommandMaxRows bounds the rows a wrapped command is cut into.
	cardCommandMaxRows = 500
)

// cardState is what the sidebar knows about one tool call, whether or not a
// view shows it. Views are recycled as the list scrolls; the state stays.
type cardState struct {
	card model.ToolCard
	doc  *monoDoc
	// diffShown is the Diff doc holds, if it holds one.
	diffShown string
	// cmd is the command of an open card, wrapped to cmdCols columns.
	cmd     *monoDoc
	cmdText string
	cmdCols int
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
	widthFor  float32
}

func newCardState() *cardState {
	cmd := newMonoDoc()
	cmd.follow = false // a command reads from its start
	return &cardState{doc: newMonoDoc(), cmd: cmd}
}

// apply takes a new revision of the card.
func (st *cardState) apply(c model.ToolCard) {
	st.card = c
	st.touch()
}

// touch records that something drawn changed. An open card's lines follow
// its output, processing only what is new; a closed one drops them, since
// a long session has hundreds of finished cards and the app keeps their
// output anyway: opening one splits it again.
func (st *cardState) touch() {
	st.version++
	switch {
	case !st.expanded():
		st.doc.setPlain()
		if st.doc.lines.fed {
			st.doc.lines.reset()
		}
		st.diffShown = ""
		if st.cmd.lines.fed {
			st.cmd.lines.reset()
			st.cmdText, st.cmdCols = "", 0
		}
	case st.showsDiff():
		if st.doc.diff == nil || st.diffShown != st.card.Diff {
			st.doc.setDiff(st.card.Diff)
			st.diffShown = st.card.Diff
			// A diff the model is still writing follows its end; a
			// finished one reads from the top.
			if st.card.Status != model.ToolPending {
				st.doc.follow, st.doc.toTop = false, true
			}
		}
	default:
		st.doc.setPlain()
		st.diffShown = ""
		st.doc.lines.set(st.card.Output, st.card.OutputDropped)
	}
}

// showsDiff says the open card shows its diff rather than its output.
func (st *cardState) showsDiff() bool { return st.card.Diff != "" }

// showsCommand says the open card's header shows the whole command.
func (st *cardState) showsCommand() bool { return st.expanded() && st.card.Command != "" }

// wrapCommand cuts the command into rows of cols cells, once per command
// and width.
func (st *cardState) wrapCommand(cols int) {
	if !st.showsCommand() {
		return
	}
	if st.cmdText == st.card.Command && st.cmdCols == cols && st.cmd.lines.fed {
		return
	}
	st.cmdText, st.cmdCols = st.card.Command, cols
	st.cmd.offset = fyne.Position{}
	st.cmd.lines.setText(strings.Join(wrapCommand(st.card.Command, cols, cardCommandMaxRows), "\n") + "\n")
}

// openable says the card has something to show when open.
func (st *cardState) openable() bool {
	return st.card.Output != "" || st.card.Diff != "" || st.card.Command != "" || st.hidden()
}

func (st *cardState) expanded() bool {
	if st.userSet {
		return st.userOpen
	}
	return st.newest || st.card.Status == model.ToolRunning || st.card.Status == model.ToolPending
}

// hidden says whether some output is not in the card: cut by the producer
// or by the widget's own line cap, or kept whole only in the tool's file
// (the tool shortened what it returned).
func (st *cardState) hidden() bool {
	if st.showsDiff() {
		return false // the diff caption counts what it leaves out
	}
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
	cell            float32 // the width of one monospace character
	copyLink        float32 // the width of the command's "Copy" link
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
	m.cell = float32(math.Ceil(float64(fyne.MeasureText("M", m.capSz, fyne.TextStyle{Monospace: true}).Width)))
	m.copyLink = fyne.MeasureText(copyCommandLabel, m.capSz, fyne.TextStyle{}).Width + 2*m.pad // as miniButton sizes it
	return m
}

// copyCommandLabel is the caption of the command's copy link.
const copyCommandLabel = "Copy"

// commandArea is where an open card's command goes in a card width wide:
// its left edge and width, under the tool's name, short of the copy
// link.
func (m cardMetrics) commandArea(width float32) (x, w float32) {
	in := m.pad / 2
	x = in + m.pad + 2*m.icon + m.pad
	right := width - in - m.pad - m.copyLink - m.pad
	return x, max(0, right-x)
}

// commandCols is how many characters of the command fit a row.
func (m cardMetrics) commandCols(width float32) int {
	_, w := m.commandArea(width)
	return max(8, int((w-m.inner)/m.cell)) // monoView pads inner/2 each side
}

func (m cardMetrics) commandHeight(st *cardState) float32 {
	return float32(min(max(st.cmd.lines.count(), 1), cardCommandRows)) * m.line
}

// turnHeight is the turn label's band: more space above than below, so the
// label groups with the cards under it.
func (m cardMetrics) turnHeight() float32 { return 2*m.pad + m.capH + m.pad/2 }

func (m cardMetrics) outputHeight(st *cardState) float32 {
	most := cardOutputRows
	if st.showsDiff() {
		most = cardDiffRows
	}
	rows := min(max(st.doc.lines.count(), 1), most)
	return float32(rows)*m.line + m.inner // padded above and below by inner/2
}

// height is the row height of st in the list.
func (m cardMetrics) height(st *cardState) float32 {
	h := 2*m.pad + m.header
	if st.showTurn {
		h += m.turnHeight()
	}
	if st.expanded() {
		if st.showsCommand() {
			h += m.commandHeight(st) + m.pad
		}
		if st.hidden() || st.showsDiff() {
			h += m.capH + m.pad // the notice, or the diff's caption
		}
		if st.doc.lines.count() > 0 {
			h += m.outputHeight(st) + m.pad
		}
	}
	return h
}
