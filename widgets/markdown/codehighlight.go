package markdown

import (
	"image/color"
	"strings"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
)

// highlightLimit is the largest code block that is highlighted. chroma
// lexes at roughly 0.3 MB/s, on the UI thread, so this bounds the pause
// when a big block's closing fence arrives (~50 ms); past it a block is
// shown plain.
const highlightLimit = 16 * 1024

// codeHighlighting can be switched off by benchmarks, to tell the cost of
// lexing from the cost of everything else.
var codeHighlighting = true

// codeRun is text of one colour on one line of code.
type codeRun struct {
	text   string
	color  color.Color
	italic bool
}

// highlightCode splits code (tabs already expanded) into lines of coloured
// runs, using chroma's GitHub styles to suit a light or dark background.
// Unknown languages and large blocks come back as plain lines in fg.
func highlightCode(lang, code string, fg color.Color, dark bool) [][]codeRun {
	var lexer chroma.Lexer
	if codeHighlighting && lang != "" && len(code) <= highlightLimit {
		lexer = lexers.Get(lang)
	}
	if lexer == nil {
		lines := strings.Split(code, "\n")
		out := make([][]codeRun, len(lines))
		for i, l := range lines {
			if l != "" {
				out[i] = []codeRun{{text: l, color: fg}}
			}
		}
		return out
	}
	style := styles.Get("github")
	if dark {
		style = styles.Get("github-dark")
	}
	it, err := chroma.Coalesce(lexer).Tokenise(nil, code)
	if err != nil {
		return highlightCode("", code, fg, dark)
	}
	// Plain text keeps the theme's colour; only what the style Marks
	// differently is coloured.
	plain := style.Get(chroma.Text).Colour
	out := [][]codeRun{nil}
	for tok := it(); tok != chroma.EOF; tok = it() {
		entry := style.Get(tok.Type)
		col := fg
		if entry.Colour.IsSet() && entry.Colour != plain {
			col = color.NRGBA{R: entry.Colour.Red(), G: entry.Colour.Green(), B: entry.Colour.Blue(), A: 0xff}
		}
		for i, part := range strings.Split(tok.Value, "\n") {
			if i > 0 {
				out = append(out, nil)
			}
			if part != "" {
				line := &out[len(out)-1]
				run := codeRun{text: part, color: col, italic: entry.Italic == chroma.Yes}
				if strings.TrimSpace(part) == "" {
					run.color = nil // spaces need no object of their own
				}
				*line = appendCodeRun(*line, run)
			}
		}
	}
	// Lexers end the text with a newline of their own.
	if n := strings.Count(code, "\n") + 1; len(out) > n {
		out = out[:n]
	}
	return out
}

// isDark says whether a background colour is dark.
func isDark(bg color.Color) bool {
	r, g, b, _ := bg.RGBA()
	return 0.299*float64(r)+0.587*float64(g)+0.114*float64(b) < 0x8000
}

// appendCodeRun adds run to a line, joining it to the run before when they
// look the same (tokens of different kinds often share a colour), and
// spaces between two such runs too: fewer objects for the same pixels.
func appendCodeRun(line []codeRun, run codeRun) []codeRun {
	n := len(line)
	switch {
	case n > 0 && run.color != nil && sameLook(line[n-1], run):
		line[n-1].text += run.text
		return line
	case n > 1 && run.color != nil && line[n-1].color == nil && sameLook(line[n-2], run):
		line[n-2].text += line[n-1].text + run.text
		return line[:n-1]
	}
	return append(line, run)
}

func sameLook(a, b codeRun) bool {
	return a.color != nil && a.italic == b.italic && colorBits(a.color) == colorBits(b.color)
}
