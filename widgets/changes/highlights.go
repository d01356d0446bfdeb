package changes

import (
	"fyne.io/fyne/v2/theme"
	"knightcode.ai/desktop/widgets/kit"
	"knightcode.ai/desktop/widgets/markdown"
)

// hlChunk is how many lines are lexed together: enough for the lexer to
// see a little context, few enough that a chunk lexes in a millisecond or
// two.
const hlChunk = 64

// Chunk states.
const (
	chunkPlain uint8 = iota
	chunkLexing
	chunkDone
)

// highlights holds the coloured runs of the lines lexed so far. Lines are
// lexed a chunk at a time when they come near the view, off the UI
// goroutine; until then they are drawn plain.
type highlights struct {
	runs  [][]markdown.Run
	state []uint8
	// lexed counts chunks lexed, for tests.
	lexed int
}

func (h *highlights) reset(lines int) {
	h.runs = make([][]markdown.Run, lines)
	h.state = make([]uint8, (lines+hlChunk-1)/hlChunk)
}

func (h *highlights) ready(i int) bool { return h.state[i/hlChunk] == chunkDone }

func (h *highlights) runsOf(i int) []markdown.Run {
	if !h.ready(i) {
		return nil
	}
	return h.runs[i]
}

// lexAround starts lexing the chunks of the lines of rows [first, last)
// not lexed yet.
func (b *diffBody) lexAround(first, last int) {
	if first >= last {
		return
	}
	lo, hi := b.v.linesOfRows(first, last)
	for c := lo / hlChunk; c*hlChunk <= hi; c++ {
		if b.hl.state[c] == chunkPlain {
			b.lexChunk(c)
		}
	}
}

// lexChunk colours chunk c's lines. The old side (context and removed
// lines) and the new side (context and added lines) are lexed as two
// texts, so each reads as the file it comes from; context lines take the
// new side's colours.
func (b *diffBody) lexChunk(c int) {
	b.hl.state[c] = chunkLexing
	lines := b.v.lines[c*hlChunk : min((c+1)*hlChunk, len(b.v.lines))]
	var oldText, newText []string
	var oldAt, newAt []int // the chunk's line of each text line
	for k, l := range lines {
		l.Text = b.v.shown.text(c*hlChunk + k)
		switch l.Kind {
		case ' ':
			oldText, oldAt = append(oldText, l.Text), append(oldAt, -1)
			newText, newAt = append(newText, l.Text), append(newAt, k)
		case '-':
			oldText, oldAt = append(oldText, l.Text), append(oldAt, k)
		case '+':
			newText, newAt = append(newText, l.Text), append(newAt, k)
		}
	}
	th := b.v.Theme()
	fg := kit.ResolveColor(th, theme.ColorNameForeground)
	dark := isDark(kit.ResolveColor(th, theme.ColorNameBackground))
	path, gen := b.v.diff.Path, b.gen
	var oldRuns, newRuns [][]markdown.Run
	kit.InBackground(func() {
		oldRuns = markdown.HighlightLines(path, oldText, fg, dark)
		newRuns = markdown.HighlightLines(path, newText, fg, dark)
	}, func() {
		if b.gen != gen {
			return // other lines or another look by now
		}
		for j, k := range oldAt {
			if k >= 0 {
				b.hl.runs[c*hlChunk+k] = oldRuns[j]
			}
		}
		for j, k := range newAt {
			b.hl.runs[c*hlChunk+k] = newRuns[j]
		}
		b.hl.state[c] = chunkDone
		b.hl.lexed++
		b.draw() // nothing when called from draw: the Sync that follows uses them
	})
}
