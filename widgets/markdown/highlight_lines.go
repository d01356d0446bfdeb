package markdown

import (
	"image/color"
	"strings"
	"sync"

	"github.com/alecthomas/chroma/v2/lexers"
)

// Run is text of one colour on one line, as HighlightLines gives it.
type Run struct {
	Text   string
	Color  color.Color // nil for spaces, which need no object of their own
	Italic bool
}

// HighlightLines colours lines of a file (tabs already expanded) the way
// the chat colours its code blocks, choosing the lexer by the file's name.
// A file no lexer knows comes back as plain lines in fg. The lines are
// lexed in pieces of at most highlightLimit bytes, so any number of lines
// is coloured; a construct that spans two pieces (a long comment) may be
// coloured wrongly where the second starts. It is slow (chroma lexes at
// about 0.3 MB/s): callers lex only the lines they show, off the UI
// goroutine.
func HighlightLines(filename string, lines []string, fg color.Color, dark bool) [][]Run {
	lang := lexerFor(baseName(filename))
	out := make([][]Run, 0, len(lines))
	for start := 0; start < len(lines); {
		end, size := start, 0
		for end < len(lines) && (end == start || size+len(lines[end])+1 <= highlightLimit) {
			size += len(lines[end]) + 1
			end++
		}
		piece := lang
		if size > highlightLimit {
			piece = "" // one line longer than the limit: shown plain
		}
		for _, line := range highlightCode(piece, strings.Join(lines[start:end], "\n"), fg, dark) {
			runs := make([]Run, len(line))
			for i, r := range line {
				runs[i] = Run{Text: r.text, Color: r.color, Italic: r.italic}
			}
			out = append(out, runs)
		}
		// A lexer that lost a line would shift every line after it.
		for len(out) < end {
			out = append(out, []Run{{Text: lines[len(out)], Color: fg}})
		}
		out = out[:end]
		start = end
	}
	return out
}

// baseName is the last element of a slash-separated path: lexers match
// file names by glob, and a directory in the path would defeat "*.go".
func baseName(path string) string {
	return path[strings.LastIndexByte(path, '/')+1:]
}

// lexerNames remembers the lexer chosen for a file name: lexers.Match
// tries every lexer's globs, ~2 ms, more than lexing a screen of lines.
// Lines are lexed on background goroutines, hence the sync.Map.
var lexerNames sync.Map // file name → lexer name, "" for none

func lexerFor(name string) string {
	if lang, ok := lexerNames.Load(name); ok {
		return lang.(string)
	}
	lang := ""
	if l := lexers.Match(name); l != nil {
		lang = l.Config().Name
	}
	lexerNames.Store(name, lang)
	return lang
}
