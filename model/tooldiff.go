package model

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"

	"knightcode.ai/desktop/internal/nth"
	"knightcode.ai/desktop/rpcconn"
)

// The diff and command of a tool card: what an edit or a write changes, and
// the whole call, from the call's arguments and the tool's result.

// cardDiffMaxRows bounds the rows of a diff or a file's content kept for
// the sidebar; the rest is counted (the sidebar keeps this many lines).
const cardDiffMaxRows = 2000

// Notes under which the sidebar shows a diff that is not the agent's own.
const (
	NoteComputedDiff = "from the arguments, lines counted per edit"
	noteWriteContent = "the file's new content"
)

// callArgs decodes a call's arguments: whole, or (partial) as far as they
// have streamed. Nil when they are not an object.
func callArgs(raw []byte, partial bool) map[string]any {
	if len(raw) == 0 {
		return nil
	}
	var v any
	if partial {
		v, _ = partialJSON(string(raw))
	} else if json.Unmarshal(raw, &v) != nil {
		v, _ = partialJSON(string(raw))
	}
	m, _ := v.(map[string]any)
	return m
}

// editPair is one replacement of an edit call.
type editPair struct{ oldText, newText string }

// editPairs reads an edit call's replacements as the agent does
// (prepareEditArguments in pi's edit.js): edits, an array or, from some
// models, a JSON string holding one; then the older form's top-level
// oldText and newText. While the call streams, a replacement may lack its
// newText yet.
func editPairs(args map[string]any) []editPair {
	var out []editPair
	edits := args["edits"]
	if s, ok := edits.(string); ok {
		edits, _ = partialJSON(s)
	}
	if list, ok := edits.([]any); ok {
		for _, e := range list {
			m, _ := e.(map[string]any)
			o, hasOld := m["oldText"].(string)
			n, hasNew := m["newText"].(string)
			if hasOld || hasNew {
				out = append(out, editPair{o, n})
			}
		}
	}
	if o, ok := args["oldText"].(string); ok {
		n, _ := args["newText"].(string)
		out = append(out, editPair{o, n})
	}
	return out
}

// editsDiff is the diff of an edit call's replacements, computed from its
// arguments: each replacement on its own, since the file is not at hand.
// Line numbers therefore count within each replacement's text, not the
// file's; the card says so. Replacements are separated by a skipped-lines
// row.
func editsDiff(pairs []editPair) string {
	var b strings.Builder
	for _, p := range pairs {
		d := lineDiff(p.oldText, p.newText)
		if d == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteString("\n   ...\n")
		}
		b.WriteString(d)
	}
	return b.String()
}

// contentRows shows a file's content as context rows of a diff: every line
// numbered, none marked; lines past cardDiffMaxRows are counted, not kept.
func contentRows(content string) (rows string, dropped int) {
	content = strings.TrimSuffix(normalizeLF(content), "\n")
	if content == "" {
		return "", 0
	}
	n := strings.Count(content, "\n") + 1
	width := len(strconv.Itoa(n))
	var b strings.Builder
	for i := 0; i < min(n, cardDiffMaxRows); i++ {
		line, rest, _ := strings.Cut(content, "\n")
		content = rest
		if i > 0 {
			b.WriteByte('\n')
		}
		num := strconv.Itoa(i + 1)
		b.WriteByte(' ')
		b.WriteString(strings.Repeat(" ", width-len(num)))
		b.WriteString(num)
		b.WriteByte(' ')
		b.WriteString(line)
	}
	return b.String(), max(0, n-cardDiffMaxRows)
}

// capDiff keeps the first rows of a diff within the sidebar's bounds and
// counts those left out.
func capDiff(d string) (kept string, dropped int) {
	cut := len(d)
	if cut > toolOutputCap {
		cut = strings.LastIndexByte(d[:toolOutputCap], '\n')
		if cut < 0 {
			cut = 0
		}
	}
	if i := nth.IndexByte(d[:cut], '\n', cardDiffMaxRows); i >= 0 {
		cut = i
	}
	if cut == len(d) {
		return d, 0
	}
	return strings.TrimRight(d[:cut], "\n"), strings.Count(d[cut:], "\n")
}

// resultDiff is details.diff of a tool result, if it has one.
func resultDiff(res rpcconn.ToolResult) (string, bool) {
	if len(res.Details) == 0 || !bytes.Contains(res.Details, []byte(`"diff"`)) {
		return "", false
	}
	var d struct {
		Diff *string `json:"diff"`
	}
	if json.Unmarshal(res.Details, &d) != nil || d.Diff == nil {
		return "", false
	}
	return *d.Diff, true
}

// cardDiff fills the diff of an edit or write card: the agent's
// details.diff when the result carries one, else what the arguments say.
// A failed call shows its error instead.
func cardDiff(c *ToolCard, tool string, args map[string]any, res rpcconn.ToolResult, failed bool) {
	if failed {
		return
	}
	var d string
	more := 0
	switch tool {
	case "edit":
		if rd, ok := resultDiff(res); ok {
			d = rd
		} else if d = editsDiff(editPairs(args)); d != "" {
			c.DiffNote = NoteComputedDiff
		}
	case "write":
		// A write that replaced a file may say what changed; else its
		// content is all there is to show.
		if rd, ok := resultDiff(res); ok && rd != "" {
			d = rd
		} else if content, ok := args["content"].(string); ok {
			d, more = contentRows(content)
			c.DiffContent, c.DiffNote = true, noteWriteContent
		}
	default:
		return
	}
	if d == "" {
		c.DiffNote, c.DiffContent = "", false
		return
	}
	c.Diff, c.DiffDropped = capDiff(d)
	c.DiffDropped += more
}

// bulkArgs are the arguments a card shows as its diff rather than in its
// command.
var bulkArgs = map[string][]string{
	"edit":  {"edits", "oldText", "newText"},
	"write": {"content"},
}

// callCommand is the whole of a call as the card's expanded header shows
// it: a bash command as it is, a file tool's path, else the arguments as
// JSON (without what the card shows as a diff).
func callCommand(tool string, raw []byte, args map[string]any) string {
	if args == nil {
		return strings.TrimSpace(string(raw))
	}
	if c, ok := args["command"].(string); ok && c != "" {
		return c
	}
	rest := make(map[string]any, len(args))
	for k, v := range args {
		rest[k] = v
	}
	for _, k := range bulkArgs[tool] {
		delete(rest, k)
	}
	if len(rest) == 1 {
		for _, key := range []string{"path", "file_path", "pattern", "query", "url"} {
			if v, ok := rest[key].(string); ok {
				return v
			}
		}
	}
	if len(rest) == 0 {
		return ""
	}
	if len(rest) == len(args) && json.Valid(raw) {
		// As the agent sent it, keys in its order.
		var b bytes.Buffer
		if json.Compact(&b, raw) == nil {
			return b.String()
		}
	}
	b, err := json.Marshal(rest)
	if err != nil {
		return ""
	}
	return string(b)
}
