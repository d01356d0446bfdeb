package widgets

import (
	"fmt"
	"strings"

	"knightcode.ai/desktop/model"
)

// diffKind is what a row of a diff shows.
type diffKind uint8

const (
	diffContext diffKind = iota // an unchanged line, or a row not in the format
	diffAdded
	diffRemoved
	diffSkip // "...": unchanged lines left out
)

// diffMark is a diff row's kind and line number ("" for none); its text
// is in the monoDoc's lines.
type diffMark struct {
	kind diffKind
	num  string
}

// parseDiffRow reads one row of the agent's diff format: a sign ('+', '-'
// or ' '), the line number padded with spaces, one space, the text (as
// pi's renderer reads it: /^([+-\s])(\s*\d*)\s(.*)$/). A row not in the
// format is unchanged text without a number.
func parseDiffRow(row string) (diffMark, string) {
	if row == "" {
		return diffMark{}, ""
	}
	var kind diffKind
	switch row[0] {
	case '+':
		kind = diffAdded
	case '-':
		kind = diffRemoved
	case ' ', '\t':
	default:
		return diffMark{}, row
	}
	rest := row[1:]
	j := 0
	for j < len(rest) && (rest[j] == ' ' || rest[j] == '\t') {
		j++
	}
	k := j
	for k < len(rest) && rest[k] >= '0' && rest[k] <= '9' {
		k++
	}
	switch {
	case k > j && k < len(rest) && rest[k] == ' ':
		return diffMark{kind: kind, num: rest[j:k]}, rest[k+1:]
	case k > j && k == len(rest):
		return diffMark{kind: kind, num: rest[j:k]}, "" // "+12" with an empty line
	case k == j && j > 0:
		// No number: the padding stands for it.
		text := rest[j:]
		if kind == diffContext && strings.TrimSpace(text) == "..." {
			return diffMark{kind: diffSkip}, "..."
		}
		return diffMark{kind: kind}, text
	}
	if kind == diffContext {
		return diffMark{}, row
	}
	return diffMark{kind: kind}, rest
}

// diffRows splits a diff into its rows' marks and texts.
func diffRows(diff string) ([]diffMark, []string) {
	rows := strings.Split(diff, "\n")
	marks := make([]diffMark, len(rows))
	texts := make([]string, len(rows))
	for i, r := range rows {
		marks[i], texts[i] = parseDiffRow(strings.TrimSuffix(r, "\r"))
	}
	return marks, texts
}

// diffStats counts a diff's added and removed rows.
func diffStats(marks []diffMark) (added, removed int) {
	for _, m := range marks {
		switch m.kind {
		case diffAdded:
			added++
		case diffRemoved:
			removed++
		}
	}
	return added, removed
}

// diffCaption is the line above a card's diff: what changed ("+3 −1") or
// how long a file's content is, and where the diff comes from.
func diffCaption(c model.ToolCard, marks []diffMark) (added, removed, note string) {
	var parts []string
	if c.DiffContent {
		n := len(marks) + c.DiffDropped
		if n == 1 {
			parts = append(parts, "1 line")
		} else {
			parts = append(parts, groupedInt(n)+" lines")
		}
	} else {
		a, r := diffStats(marks)
		added, removed = "+"+groupedInt(a), "−"+groupedInt(r)
	}
	if c.DiffNote != "" {
		parts = append(parts, c.DiffNote)
	}
	if c.DiffDropped > 0 {
		parts = append(parts, fmt.Sprintf("%s more lines not shown", groupedInt(c.DiffDropped)))
	}
	return added, removed, strings.Join(parts, " · ")
}

// diffCopyText is what Copy diff puts on the clipboard: the diff as the
// agent wrote it, or for a file's content the text without line numbers.
func diffCopyText(c model.ToolCard) string {
	if !c.DiffContent {
		return c.Diff
	}
	_, texts := diffRows(c.Diff)
	return strings.Join(texts, "\n") + "\n"
}
