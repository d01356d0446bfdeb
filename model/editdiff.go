package model

import (
	"strconv"
	"strings"
)

// The agent's edit tool reports what it changed in details.diff, a text made
// by generateDiffString in pi's core/tools/edit-diff.js: one line per row,
//
//	"+N text"  added, N its line number in the new file
//	"-N text"  removed, N its line number in the old file
//	" N text"  context, N its line number in the old file
//	"   ..."   unchanged lines skipped
//
// with N padded to a common width, and 4 lines of context around changes.
// When the result carries no diff (the call still streams, the tool runs,
// or an agent that does not report one), lineDiff makes the same text from
// the call's oldText and newText, so one renderer draws both.

// diffContext is how many unchanged lines are kept around a change, as the
// agent does.
const diffContext = 4

// Bounds for computing a diff ourselves, so that a huge edit (or one
// arriving a few bytes a frame) costs a bounded amount of work per frame.
const (
	// diffMaxLines: inputs with more lines than this together are not
	// diffed line by line; every old line is shown removed and every new
	// one added (after their common start and end).
	diffMaxLines = 20000
	// diffMaxWork bounds the steps of the diff search; past it, the same
	// fallback. A card's diff is computed on the UI goroutine, once a frame
	// while the call streams: this keeps the worst case near 10 ms (two
	// thousand lines, every tenth changed, take a few ms).
	diffMaxWork = 100_000
)

// normalizeLF turns CRLF and lone CR into LF, as the agent does before
// matching and diffing.
func normalizeLF(s string) string {
	if !strings.ContainsRune(s, '\r') {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

// lineDiff returns the agent's diff text for changing oldText into newText
// (both taken as LF-normalised), "" when they are the same.
func lineDiff(oldText, newText string) string {
	oldText, newText = normalizeLF(oldText), normalizeLF(newText)
	return formatDiff(diffParts(splitLineTokens(oldText), splitLineTokens(newText)),
		strings.Count(oldText, "\n")+1, strings.Count(newText, "\n")+1)
}

// diffPart is a run of tokens (lines with their newline) that are common
// to both texts, removed from the old one or added in the new one.
type diffPart struct {
	added, removed bool
	lines          []string
}

// splitLineTokens cuts s into lines, each keeping its "\n"; the last one has
// none when s does not end in a newline. As jsdiff's diffLines tokenises:
// "b" at the end of a text and "b\n" are different lines.
func splitLineTokens(s string) []string {
	if s == "" {
		return nil
	}
	out := make([]string, 0, strings.Count(s, "\n")+1)
	for len(s) > 0 {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

// diffComponent is one step of a path through the edit graph: count
// tokens kept, added or removed. Paths share their beginnings.
type diffComponent struct {
	count          int
	added, removed bool
	prev           *diffComponent
}

type diffPath struct {
	oldPos int
	last   *diffComponent
}

// diffParts is jsdiff's Myers diff (diff 8.0.4, base.js), ported step for
// step so that where several shortest diffs exist it picks the agent's. It
// falls back to one removal and one addition past the bounds.
func diffParts(oldT, newT []string) []diffPart {
	if len(oldT)+len(newT) > diffMaxLines {
		return fallbackParts(oldT, newT)
	}
	// Tokens compared as numbers: equal lines, equal ids.
	ids := make(map[string]int, len(oldT)+len(newT))
	id := func(toks []string) []int {
		out := make([]int, len(toks))
		for i, t := range toks {
			n, ok := ids[t]
			if !ok {
				n = len(ids)
				ids[t] = n
			}
			out[i] = n
		}
		return out
	}
	o, n := id(oldT), id(newT)
	oldLen, newLen := len(o), len(n)
	work := 0

	// Components come from slabs: one allocation per thousand steps
	// rather than one per step.
	var slab []diffComponent
	comp := func(c diffComponent) *diffComponent {
		if len(slab) == cap(slab) {
			slab = make([]diffComponent, 0, 1024)
		}
		slab = append(slab, c)
		return &slab[len(slab)-1]
	}
	addTo := func(p diffPath, added, removed bool, oldInc int) diffPath {
		last := p.last
		if last != nil && last.added == added && last.removed == removed {
			return diffPath{oldPos: p.oldPos + oldInc, last: comp(diffComponent{count: last.count + 1, added: added, removed: removed, prev: last.prev})}
		}
		return diffPath{oldPos: p.oldPos + oldInc, last: comp(diffComponent{count: 1, added: added, removed: removed, prev: last})}
	}
	extractCommon := func(p *diffPath, diagonal int) int {
		oldPos := p.oldPos
		newPos := oldPos - diagonal
		common := 0
		for newPos+1 < newLen && oldPos+1 < oldLen && o[oldPos+1] == n[newPos+1] {
			newPos++
			oldPos++
			common++
		}
		work += common + 1
		if common > 0 {
			p.last = comp(diffComponent{count: common, prev: p.last})
		}
		p.oldPos = oldPos
		return newPos
	}

	maxEdit := oldLen + newLen
	// best[d+maxEdit] is the furthest path on diagonal d; ok says it is set.
	best := make([]diffPath, 2*maxEdit+3)
	ok := make([]bool, 2*maxEdit+3)
	at := func(d int) int { return d + maxEdit + 1 }

	start := diffPath{oldPos: -1}
	newPos := extractCommon(&start, 0)
	if start.oldPos+1 >= oldLen && newPos+1 >= newLen {
		return buildParts(start.last, oldT, newT)
	}
	best[at(0)], ok[at(0)] = start, true
	minDiag, maxDiag := -maxEdit-1, maxEdit+1
	for edit := 1; edit <= maxEdit; edit++ {
		for d := max(minDiag, -edit); d <= min(maxDiag, edit); d += 2 {
			if work > diffMaxWork {
				return fallbackParts(oldT, newT)
			}
			remove, hasRemove := best[at(d-1)], ok[at(d-1)]
			add, hasAdd := best[at(d+1)], ok[at(d+1)]
			if hasRemove {
				ok[at(d-1)] = false
			}
			canAdd := false
			if hasAdd {
				addNewPos := add.oldPos - d
				canAdd = addNewPos >= 0 && addNewPos < newLen
			}
			canRemove := hasRemove && remove.oldPos+1 < oldLen
			if !canAdd && !canRemove {
				ok[at(d)] = false
				continue
			}
			var p diffPath
			if !canRemove || (canAdd && remove.oldPos < add.oldPos) {
				p = addTo(add, true, false, 0)
			} else {
				p = addTo(remove, false, true, 1)
			}
			newPos = extractCommon(&p, d)
			if p.oldPos+1 >= oldLen && newPos+1 >= newLen {
				return buildParts(p.last, oldT, newT)
			}
			best[at(d)], ok[at(d)] = p, true
			if p.oldPos+1 >= oldLen {
				maxDiag = min(maxDiag, d-1)
			}
			if newPos+1 >= newLen {
				minDiag = max(minDiag, d+1)
			}
		}
	}
	return fallbackParts(oldT, newT) // not reached: maxEdit edits always do
}

// buildParts turns a path into parts in order. Common parts take the new
// text's lines, as jsdiff's do.
func buildParts(last *diffComponent, oldT, newT []string) []diffPart {
	var comps []*diffComponent
	for c := last; c != nil; c = c.prev {
		comps = append(comps, c)
	}
	parts := make([]diffPart, 0, len(comps))
	oldPos, newPos := 0, 0
	for i := len(comps) - 1; i >= 0; i-- {
		c := comps[i]
		p := diffPart{added: c.added, removed: c.removed}
		if c.removed {
			p.lines = oldT[oldPos : oldPos+c.count]
			oldPos += c.count
		} else {
			p.lines = newT[newPos : newPos+c.count]
			newPos += c.count
			if !c.added {
				oldPos += c.count
			}
		}
		parts = append(parts, p)
	}
	return parts
}

// fallbackParts is the diff of inputs too big to search: their common first
// and last lines kept, everything between removed and added.
func fallbackParts(oldT, newT []string) []diffPart {
	pre := 0
	for pre < len(oldT) && pre < len(newT) && oldT[pre] == newT[pre] {
		pre++
	}
	suf := 0
	for suf < len(oldT)-pre && suf < len(newT)-pre && oldT[len(oldT)-1-suf] == newT[len(newT)-1-suf] {
		suf++
	}
	var parts []diffPart
	if pre > 0 {
		parts = append(parts, diffPart{lines: newT[:pre]})
	}
	if k := len(oldT) - suf; k > pre {
		parts = append(parts, diffPart{removed: true, lines: oldT[pre:k]})
	}
	if k := len(newT) - suf; k > pre {
		parts = append(parts, diffPart{added: true, lines: newT[pre:k]})
	}
	if suf > 0 {
		parts = append(parts, diffPart{lines: newT[len(newT)-suf:]})
	}
	return parts
}

// formatDiff is generateDiffString's loop: oldCount and newCount are the
// texts' line counts as split("\n") counts them, which set the width of
// the line numbers.
func formatDiff(parts []diffPart, oldCount, newCount int) string {
	width := len(strconv.Itoa(max(oldCount, newCount)))
	var b strings.Builder
	row := func(sign byte, num int, text string) {
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteByte(sign)
		s := strconv.Itoa(num)
		for i := len(s); i < width; i++ {
			b.WriteByte(' ')
		}
		b.WriteString(s)
		b.WriteByte(' ')
		b.WriteString(strings.TrimSuffix(text, "\n"))
	}
	skip := func() {
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteByte(' ')
		b.WriteString(strings.Repeat(" ", width))
		b.WriteString(" ...")
	}
	oldNum, newNum := 1, 1
	lastWasChange := false
	context := func(lines []string) {
		for _, l := range lines {
			row(' ', oldNum, l)
			oldNum++
			newNum++
		}
	}
	for i, p := range parts {
		raw := p.lines
		if p.added || p.removed {
			for _, l := range raw {
				if p.added {
					row('+', newNum, l)
					newNum++
				} else {
					row('-', oldNum, l)
					oldNum++
				}
			}
			lastWasChange = true
			continue
		}
		nextIsChange := i < len(parts)-1 && (parts[i+1].added || parts[i+1].removed)
		switch {
		case lastWasChange && nextIsChange:
			if len(raw) <= 2*diffContext {
				context(raw)
			} else {
				context(raw[:diffContext])
				skip()
				skipped := len(raw) - 2*diffContext
				oldNum += skipped
				newNum += skipped
				context(raw[len(raw)-diffContext:])
			}
		case lastWasChange:
			shown := raw[:min(diffContext, len(raw))]
			context(shown)
			if skipped := len(raw) - len(shown); skipped > 0 {
				skip()
				oldNum += skipped
				newNum += skipped
			}
		case nextIsChange:
			skipped := max(0, len(raw)-diffContext)
			if skipped > 0 {
				skip()
				oldNum += skipped
				newNum += skipped
			}
			context(raw[skipped:])
		default:
			oldNum += len(raw)
			newNum += len(raw)
		}
		lastWasChange = false
	}
	return b.String()
}
