package changes

import (
	"strconv"
	"strings"
)

// Line is one row of a unified diff.
type Line struct {
	// Kind is ' ' for context, '+' added, '-' removed, '@' a hunk's header
	// row, '\\' git's "No newline at end of file".
	Kind byte
	// Old and New are the line's numbers in the old and new file, 0 where
	// it has none (an added line has no old number).
	Old, New int
	// Text is the line without its first character; a header row's is
	// the whole "@@ -a,b +c,d @@ …" line.
	Text string
	// Hunk is the index of the hunk the line belongs to.
	Hunk int
}

// Diff is what a DiffView shows.
type Diff struct {
	// Path chooses the syntax lexer by the file's name.
	Path  string
	Lines []Line
	// Note is shown instead of the lines when set ("Binary file",
	// "git said: …").
	Note string
}

// Text is the diff as unified-diff text: what "Copy" puts on the
// clipboard, and the note when there are no lines.
func (d Diff) Text() string {
	if len(d.Lines) == 0 {
		return d.Note
	}
	var b strings.Builder
	for _, l := range d.Lines {
		switch l.Kind {
		case '@':
			b.WriteString(l.Text)
		case '\\':
			b.WriteString("\\ ")
			b.WriteString(strings.TrimPrefix(l.Text, " "))
		default:
			b.WriteByte(l.Kind)
			b.WriteString(l.Text)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// HunkLines turns one hunk of a unified diff into Lines: its header row,
// then body (each line with its first character ' ', '+', '-' or '\\',
// as git prints them) numbered from oldStart and newStart. It is the
// conversion app/ needs from a parsed git diff.
func HunkLines(hunk int, header string, oldStart, newStart int, body []string) []Line {
	out := make([]Line, 0, len(body)+1)
	out = append(out, Line{Kind: '@', Text: header, Hunk: hunk})
	o, n := oldStart, newStart
	for _, s := range body {
		if s == "" {
			s = " " // an empty context line some tools strip to nothing
		}
		l := Line{Kind: s[0], Text: s[1:], Hunk: hunk}
		switch l.Kind {
		case '+':
			l.New = n
			n++
		case '-':
			l.Old = o
			o++
		case '\\':
			l.Text = strings.TrimPrefix(l.Text, " ")
		default:
			l.Kind = ' '
			l.Old, l.New = o, n
			o++
			n++
		}
		out = append(out, l)
	}
	return out
}

// ParseUnified reads a unified diff of one file (git diff's output) into
// Lines: the lines before the first hunk are skipped. For demos and tests;
// app/ has its own parsed diff.
func ParseUnified(text string) []Line {
	var out []Line
	hunk := -1
	var header string
	var oldStart, newStart int
	var body []string
	flush := func() {
		if hunk >= 0 {
			out = append(out, HunkLines(hunk, header, oldStart, newStart, body)...)
		}
	}
	for _, s := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		if strings.HasPrefix(s, "@@ ") {
			flush()
			hunk++
			header, body = s, nil
			oldStart, newStart = hunkStarts(s)
			continue
		}
		if hunk >= 0 && strings.HasPrefix(s, "diff --git ") {
			flush() // the next file's diff: its hunks are not this file's
			return out
		}
		if hunk >= 0 {
			body = append(body, s)
		}
	}
	flush()
	return out
}

// hunkStarts reads a and c from "@@ -a,b +c,d @@".
func hunkStarts(header string) (oldStart, newStart int) {
	f := strings.Fields(header)
	if len(f) < 3 {
		return 0, 0
	}
	num := func(s string) int {
		s = s[1:]
		if i := strings.IndexByte(s, ','); i >= 0 {
			s = s[:i]
		}
		n, _ := strconv.Atoi(s)
		return n
	}
	return num(f[1]), num(f[2])
}
