package markdown

import (
	"fmt"
	"image/color"
	"strings"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"knightcode.ai/desktop/widgets/kit"
)

// codeLayout wraps code into display lines of cols cells: numbers and
// substrings, no objects. It goes through the code line by line and can
// stop after stopAt display lines and go on later.
type codeLayout struct {
	code     string
	hl       [][]codeRun // nil: plain
	cols     int
	Cell     fyne.Size
	Pad, top float32
	fg       color.Color
	textSize float32

	stopAt int
	pos    int // byte offset of the next source line (plain)
	hlLine int // index of the next highlighted line
	Lines  []codeLine
	runs   []codePiece
	// textPos is where the next source line starts in the code as shown
	// (tabs expanded): what a selection counts in.
	textPos int
}

// codeLine is a display line: its runs, and the bytes of the code as shown
// that it holds, from off.
type codeLine struct {
	r0, r1  int32
	Off, Nb int
}

// codePiece is a run of one colour on one display line, starting at cell col.
type codePiece struct {
	text   string
	col, n int
	color  color.Color
	italic bool
}

func (l *codeLayout) runsOf(i int) []codePiece {
	cl := l.Lines[i]
	return l.runs[cl.r0:cl.r1]
}

// run lays out until the code ends or stopAt lines are done, reporting
// whether it ended.
func (l *codeLayout) run() bool {
	for l.stopAt <= 0 || len(l.Lines) < l.stopAt {
		if l.hl != nil {
			if l.hlLine >= len(l.hl) {
				return true
			}
			l.wrap(l.hl[l.hlLine])
			l.hlLine++
			continue
		}
		if l.pos > len(l.code) {
			return true
		}
		line := l.code[l.pos:]
		if i := strings.IndexByte(line, '\n'); i >= 0 {
			line = line[:i]
		}
		l.pos += len(line) + 1
		var runs [1]codeRun
		text := runs[:0]
		if line != "" {
			text = append(text, codeRun{text: expandCodeTabs(line, 4), color: l.fg})
		}
		l.wrap(text)
	}
	if l.hl != nil {
		return l.hlLine >= len(l.hl)
	}
	return l.pos > len(l.code)
}

// leftOver says how much of the code a collapsed layout does not show.
func (l *codeLayout) leftOver() string {
	if l.hl != nil {
		return fmt.Sprintf("%d more lines", len(l.hl)-l.hlLine)
	}
	return kit.ByteSize(len(l.code)-min(l.pos, len(l.code))) + " more"
}

// wrap adds the display lines of one source line.
func (l *codeLayout) wrap(line []codeRun) {
	r0 := int32(len(l.runs))
	col := 0
	off, at := l.textPos, l.textPos
	for _, run := range line {
		text := run.text
		for text != "" {
			n := utf8.RuneCountInString(text)
			part := text
			if l.cols > 0 && col+n > l.cols {
				if col == l.cols {
					l.Lines = append(l.Lines, codeLine{r0: r0, r1: int32(len(l.runs)), Off: off, Nb: at - off})
					r0, col, off = int32(len(l.runs)), 0, at
					continue
				}
				part = text[:runeOffset(text, l.cols-col)]
				n = l.cols - col
			}
			if run.color != nil {
				l.runs = append(l.runs, codePiece{text: part, col: col, n: n, color: run.color, italic: run.italic})
			}
			col += n
			at += len(part)
			text = text[len(part):]
		}
	}
	l.Lines = append(l.Lines, codeLine{r0: r0, r1: int32(len(l.runs)), Off: off, Nb: at - off})
	l.textPos = at + 1
}
