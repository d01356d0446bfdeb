// Command gensession writes a session file in the agent's JSONL format (the
// one the fake agent loads with --session FILE): a header, a model and a
// thinking-level change, then N message entries of realistic size, chained
// by parentId. The conversation repeats a pattern of turns: a user prompt;
// the assistant thinking, saying a line and calling a tool (bash, read,
// grep or edit); the tool's result (test output, a source file, search
// hits); sometimes a second call; and a reply of about 4 KB of markdown
// with headings, lists, a table now and then and code blocks.
//
//	gensession [-entries 12000] [-o FILE] [-seed 1] [-cwd DIR]
//
// 12,000 entries make about 50 MB. The output is the same for the same
// flags.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strings"
	"time"
)

func main() {
	n := flag.Int("entries", 12000, "message entries to write")
	out := flag.String("o", "", "the file to write (default: stdout)")
	seed := flag.Uint64("seed", 1, "seed of the pseudo-random content")
	cwd := flag.String("cwd", "/home/dev/projects/knightcode", "the session's working folder")
	flag.Parse()
	if *n < 0 {
		fmt.Fprintln(os.Stderr, "gensession: -entries must not be negative")
		os.Exit(2)
	}
	var w io.Writer = os.Stdout
	var f *os.File
	if *out != "" {
		var err error
		f, err = os.Create(*out)
		if err != nil {
			fmt.Fprintln(os.Stderr, "gensession:", err)
			os.Exit(1)
		}
		w = f
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	g := newGen(*seed, *cwd)
	size, err := g.write(bw, *n)
	if err == nil {
		err = bw.Flush()
	}
	if f != nil {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gensession:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "gensession: %d message entries, %d bytes (%.1f KB an entry)\n",
		*n, size, float64(size)/1000/float64(max(*n, 1)))
}

type gen struct {
	r     *rand.Rand
	cwd   string
	clock time.Time
	seq   uint32
	calls int
}

func newGen(seed uint64, cwd string) *gen {
	return &gen{r: rand.New(rand.NewPCG(seed, 0x6b6e69676874)), cwd: cwd,
		clock: time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)}
}

// id is 8 hex digits, unique: multiplying by an odd constant is a bijection
// on 32-bit numbers.
func (g *gen) id() string {
	g.seq++
	return fmt.Sprintf("%08x", g.seq*2654435761)
}

func (g *gen) tick(min, max int) time.Time {
	g.clock = g.clock.Add(time.Duration(min+g.r.IntN(max-min+1)) * time.Millisecond)
	return g.clock
}

func iso(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

type entry struct {
	Type          string `json:"type"`
	ID            string `json:"id"`
	ParentID      any    `json:"parentId"`
	Timestamp     string `json:"timestamp"`
	Provider      string `json:"provider,omitempty"`
	ModelID       string `json:"modelId,omitempty"`
	ThinkingLevel string `json:"thinkingLevel,omitempty"`
	Message       any    `json:"message,omitempty"`
}

type text struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

type thinking struct {
	Type     string `json:"type"`
	Thinking string `json:"thinking"`
}

type toolCall struct {
	Type      string         `json:"type"`
	ID        string         `json:"id"`
	Name      string         `json:"name"`
	Arguments map[string]any `json:"arguments"`
}

type cost struct {
	Input      float64 `json:"input"`
	Output     float64 `json:"output"`
	CacheRead  float64 `json:"cacheRead"`
	CacheWrite float64 `json:"cacheWrite"`
	Total      float64 `json:"total"`
}

type usage struct {
	Input       int  `json:"input"`
	Output      int  `json:"output"`
	CacheRead   int  `json:"cacheRead"`
	CacheWrite  int  `json:"cacheWrite"`
	TotalTokens int  `json:"totalTokens"`
	Cost        cost `json:"cost"`
}

type userMsg struct {
	Role      string `json:"role"`
	Content   []any  `json:"content"`
	Timestamp int64  `json:"timestamp"`
}

type assistantMsg struct {
	Role       string `json:"role"`
	Content    []any  `json:"content"`
	API        string `json:"api"`
	Provider   string `json:"provider"`
	Model      string `json:"model"`
	Usage      usage  `json:"usage"`
	StopReason string `json:"stopReason"`
	Timestamp  int64  `json:"timestamp"`
}

type toolResultMsg struct {
	Role       string         `json:"role"`
	ToolCallID string         `json:"toolCallId"`
	ToolName   string         `json:"toolName"`
	Content    []any          `json:"content"`
	Details    map[string]any `json:"details"`
	IsError    bool           `json:"isError"`
	Timestamp  int64          `json:"timestamp"`
}

// write writes the header, the setup entries and n message entries, and
// returns the bytes written.
func (g *gen) write(w io.Writer, n int) (int64, error) {
	var size int64
	parent := any(nil)
	put := func(v any) error {
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		b = append(b, '\n')
		size += int64(len(b))
		_, err = w.Write(b)
		return err
	}
	sessionID := fmt.Sprintf("%08x-%04x-7%03x-8%03x-%012x", g.r.Uint32(), g.r.IntN(1<<16), g.r.IntN(1<<12), g.r.IntN(1<<12), g.r.Int64N(1<<48))
	if err := put(map[string]any{"type": "session", "version": 3, "id": sessionID, "timestamp": iso(g.clock), "cwd": g.cwd}); err != nil {
		return size, err
	}
	for _, e := range []entry{
		{Type: "model_change", Provider: "anthropic", ModelID: "claude-sonnet-4-5"},
		{Type: "thinking_level_change", ThinkingLevel: "medium"},
	} {
		e.ID, e.ParentID, e.Timestamp = g.id(), parent, iso(g.tick(5, 20))
		if err := put(e); err != nil {
			return size, err
		}
		parent = e.ID
	}
	written := 0
	for written < n {
		for _, msg := range g.turn() {
			if written == n {
				break
			}
			e := entry{Type: "message", ID: g.id(), ParentID: parent, Timestamp: iso(msgTime(msg)), Message: msg}
			if err := put(e); err != nil {
				return size, err
			}
			parent = e.ID
			written++
		}
	}
	return size, nil
}

// msgTime is when a message was made: its entry is written then too.
func msgTime(m any) time.Time {
	switch m := m.(type) {
	case userMsg:
		return time.UnixMilli(m.Timestamp)
	case assistantMsg:
		return time.UnixMilli(m.Timestamp)
	case toolResultMsg:
		return time.UnixMilli(m.Timestamp)
	}
	return time.Time{}
}

// turn is one exchange: a prompt, one or two tool calls with their results
// and the final reply.
func (g *gen) turn() []any {
	msgs := []any{userMsg{Role: "user", Content: []any{text{"text", g.prompt()}}, Timestamp: g.tick(20000, 90000).UnixMilli()}}
	calls := 1 + g.r.IntN(2)
	for range calls {
		call := g.toolCall()
		intro := g.sentences(1 + g.r.IntN(2))
		msgs = append(msgs, g.assistant([]any{thinking{"thinking", g.sentences(10 + g.r.IntN(12))}, text{"text", intro}, call}, "toolUse"))
		msgs = append(msgs, g.toolResult(call))
	}
	msgs = append(msgs, g.assistant([]any{text{"text", g.reply()}}, "stop"))
	return msgs
}

func (g *gen) assistant(content []any, stop string) assistantMsg {
	out := 0
	for _, c := range content {
		b, _ := json.Marshal(c)
		out += len(b) / 4
	}
	in := 8000 + g.r.IntN(60000)
	read := in - in%1000
	u := usage{Input: in - read, Output: out, CacheRead: read, TotalTokens: in + out}
	u.Cost = cost{Input: float64(u.Input) * 3e-6, Output: float64(out) * 15e-6, CacheRead: float64(read) * 0.3e-6}
	u.Cost.Total = u.Cost.Input + u.Cost.Output + u.Cost.CacheRead
	return assistantMsg{Role: "assistant", Content: content, API: "anthropic-messages", Provider: "anthropic",
		Model: "claude-sonnet-4-5", Usage: u, StopReason: stop, Timestamp: g.tick(2000, 30000).UnixMilli()}
}

func (g *gen) pick(list []string) string { return list[g.r.IntN(len(list))] }

var (
	nouns = []string{"session", "controller", "widget", "transcript", "editor", "decoder", "buffer", "event",
		"response", "command", "reader", "writer", "layout", "theme", "sidebar", "cache", "frame", "queue",
		"parser", "renderer", "handler", "request", "timeout", "context", "channel", "goroutine", "test", "fixture"}
	verbs = []string{"handles", "returns", "reads", "writes", "decodes", "wraps", "caches", "renders", "checks",
		"updates", "measures", "drops", "coalesces", "streams", "parses", "validates", "retries", "closes"}
	adjs = []string{"empty", "stale", "long", "partial", "nested", "cached", "pending", "broken", "wrapped",
		"visible", "current", "previous", "unbounded", "slow", "missing", "duplicate", "final", "first"}
	files = []string{"app/controller.go", "app/session.go", "widgets/chatview.go", "widgets/markdown.go",
		"rpcconn/conn.go", "rpcconn/decode.go", "widgets/toolcard.go", "app/history.go", "widgets/prompteditor.go",
		"rpcconn/commands.go", "app/window.go", "widgets/statusbar.go", "app/settings.go", "widgets/codeblock.go"}
	funcs = []string{"handleEvent", "applyDelta", "loadHistory", "drawFrame", "decodeLine", "flushQueue",
		"measureRow", "wrapText", "parseBlock", "startAgent", "sendCommand", "resizeRows", "cacheHeight"}
	asks = []string{"Can you look at why %s %s the %s %s?", "Please fix the %s %s: it %s a %s value.",
		"Why does %s fail when the %s %s an %s message?", "Refactor %s so the %s %s the %s one.",
		"Add a test for %s where the %s %s a %s frame.", "The %s %s too much: make it %s the %s list."}
)

func (g *gen) sentence() string {
	s := fmt.Sprintf("The %s %s %s %s %s when the %s is %s",
		g.pick(adjs), g.pick(nouns), g.pick(verbs), "the", g.pick(nouns), g.pick(nouns), g.pick(adjs))
	switch g.r.IntN(4) {
	case 0:
		s += fmt.Sprintf(", so `%s` in `%s` must %s it first", g.pick(funcs), g.pick(files), strings.TrimSuffix(g.pick(verbs), "s"))
	case 1:
		s += fmt.Sprintf(" and the **%s** path %s a %s %s", g.pick(adjs), g.pick(verbs), g.pick(adjs), g.pick(nouns))
	}
	return s + "."
}

func (g *gen) sentences(n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = g.sentence()
	}
	return strings.Join(parts, " ")
}

func (g *gen) prompt() string {
	p := fmt.Sprintf(g.pick(asks), g.pick(funcs), g.pick(verbs), g.pick(adjs), g.pick(nouns))
	if g.r.IntN(3) == 0 {
		p += " " + g.sentences(1+g.r.IntN(3))
	}
	if g.r.IntN(5) == 0 {
		p += "\n\nThis is what I see:\n\n```\n" + g.logLines(3+g.r.IntN(6)) + "```"
	}
	return p
}

func (g *gen) logLines(n int) string {
	var b strings.Builder
	for range n {
		fmt.Fprintf(&b, "%s %s: %s %s %s (%d ms)\n", g.tick(1, 900).Format("15:04:05.000"), g.pick(files),
			g.pick(funcs), g.pick(verbs), g.pick(nouns), g.r.IntN(2000))
	}
	return b.String()
}

func (g *gen) toolCall() toolCall {
	g.calls++
	id := fmt.Sprintf("toolu_%016x", uint64(g.calls)*0x9e3779b97f4a7c15)
	switch g.r.IntN(4) {
	case 0:
		return toolCall{"toolCall", id, "read", map[string]any{"path": g.pick(files)}}
	case 1:
		return toolCall{"toolCall", id, "grep", map[string]any{"pattern": g.pick(funcs), "path": "."}}
	case 2:
		return toolCall{"toolCall", id, "edit", map[string]any{"path": g.pick(files),
			"oldText": g.goFunc(4), "newText": g.goFunc(6)}}
	}
	cmds := []string{"go test ./...", "go vet ./...", "go test -run Test" + strings.ToUpper(g.pick(funcs)[:1]) + g.pick(funcs)[1:] + " ./app/", "git diff --stat", "ls -la widgets"}
	return toolCall{"toolCall", id, "bash", map[string]any{"command": g.pick(cmds)}}
}

func (g *gen) toolResult(c toolCall) toolResultMsg {
	var out string
	switch c.Name {
	case "read":
		var b strings.Builder
		fmt.Fprintf(&b, "package %s\n\nimport (\n\t\"fmt\"\n\t\"strings\"\n)\n\n", strings.Split(c.Arguments["path"].(string), "/")[0])
		for b.Len() < 6000+g.r.IntN(10000) {
			b.WriteString(g.goFunc(6 + g.r.IntN(10)))
			b.WriteString("\n")
		}
		out = b.String()
	case "grep":
		var b strings.Builder
		for range 50 + g.r.IntN(120) {
			fmt.Fprintf(&b, "%s:%d:\t%s := %s(%s, %q)\n", g.pick(files), 1+g.r.IntN(900), g.pick(nouns), c.Arguments["pattern"], g.pick(nouns), g.pick(adjs))
		}
		out = b.String()
	case "edit":
		out = fmt.Sprintf("Successfully replaced text in %s.", c.Arguments["path"])
		var d strings.Builder
		fmt.Fprintf(&d, "--- %s\n+++ %s\n", c.Arguments["path"], c.Arguments["path"])
		for d.Len() < 2000+g.r.IntN(4000) {
			fmt.Fprintf(&d, "@@ -%d,7 +%d,9 @@\n", g.r.IntN(500), g.r.IntN(500))
			for _, l := range strings.Split(g.goFunc(3), "\n") {
				d.WriteString(g.pick([]string{" ", " ", "-", "+"}) + l + "\n")
			}
		}
		return toolResultMsg{Role: "toolResult", ToolCallID: c.ID, ToolName: c.Name, Content: []any{text{"text", out}},
			Details: map[string]any{"diff": d.String(), "firstChangedLine": 1 + g.r.IntN(400)}, Timestamp: g.tick(50, 400).UnixMilli()}
	default:
		var b strings.Builder
		for range 60 + g.r.IntN(160) {
			switch g.r.IntN(5) {
			case 0:
				fmt.Fprintf(&b, "--- FAIL: Test%s (0.%02ds)\n    %s_test.go:%d: %s %s, want %s\n", strings.ToUpper(g.pick(funcs)[:1])+g.pick(funcs)[1:],
					g.r.IntN(99), g.pick(nouns), 10+g.r.IntN(400), g.pick(nouns), g.pick(adjs), g.pick(adjs))
			default:
				fmt.Fprintf(&b, "ok  \tknightcode.ai/desktop/%s\t%d.%03ds\n", strings.Split(g.pick(files), "/")[0], g.r.IntN(9), g.r.IntN(1000))
			}
		}
		out = b.String()
	}
	return toolResultMsg{Role: "toolResult", ToolCallID: c.ID, ToolName: c.Name, Content: []any{text{"text", out}},
		Details: map[string]any{"truncation": nil, "fullOutputPath": nil}, IsError: false, Timestamp: g.tick(50, 4000).UnixMilli()}
}

func (g *gen) goFunc(lines int) string {
	var b strings.Builder
	name := g.pick(funcs)
	fmt.Fprintf(&b, "// %s %s the %s %s.\nfunc (c *%s) %s(ctx context.Context, %s []byte) (int, error) {\n",
		name, g.pick(verbs), g.pick(adjs), g.pick(nouns), g.pick(nouns), name, g.pick(nouns))
	for i := range lines {
		switch i % 4 {
		case 0:
			fmt.Fprintf(&b, "\tif len(%s) == 0 {\n\t\treturn 0, fmt.Errorf(\"%s: %s %s\")\n\t}\n", g.pick(nouns), name, g.pick(adjs), g.pick(nouns))
		case 1:
			fmt.Fprintf(&b, "\tn := strings.Count(string(%s), \"\\n\") + %d\n", g.pick(nouns), g.r.IntN(10))
		case 2:
			fmt.Fprintf(&b, "\tfor i := range n {\n\t\tc.%s[i] = c.%s(i)\n\t}\n", g.pick(nouns), g.pick(funcs))
		default:
			fmt.Fprintf(&b, "\tc.%s.%s(ctx)\n", g.pick(nouns), strings.ToUpper(g.pick(verbs)[:1])+g.pick(verbs)[1:])
		}
	}
	b.WriteString("\treturn n, nil\n}\n")
	return b.String()
}

// reply is about 4 KB of markdown.
func (g *gen) reply() string {
	var b strings.Builder
	target := 3200 + g.r.IntN(1800)
	fmt.Fprintf(&b, "## %s %s\n\n", strings.ToUpper(g.pick(adjs)[:1])+g.pick(adjs)[1:], g.pick(nouns))
	b.WriteString(g.sentences(2+g.r.IntN(3)) + "\n\n")
	for b.Len() < target {
		switch g.r.IntN(6) {
		case 0, 1:
			b.WriteString(g.sentences(2+g.r.IntN(4)) + "\n\n")
		case 2:
			for range 3 + g.r.IntN(4) {
				fmt.Fprintf(&b, "- `%s` %s the %s %s\n", g.pick(funcs), g.pick(verbs), g.pick(adjs), g.pick(nouns))
			}
			b.WriteString("\n")
		case 3:
			b.WriteString("```go\n" + g.goFunc(4+g.r.IntN(8)) + "```\n\n")
		case 4:
			fmt.Fprintf(&b, "```bash\ngo test -run %s ./%s\n```\n\n", g.pick(funcs), strings.Split(g.pick(files), "/")[0])
		default:
			b.WriteString("| file | change | lines |\n|---|---|---|\n")
			for range 2 + g.r.IntN(4) {
				fmt.Fprintf(&b, "| `%s` | %s %s | %d |\n", g.pick(files), g.pick(adjs), g.pick(nouns), g.r.IntN(300))
			}
			b.WriteString("\n")
		}
	}
	fmt.Fprintf(&b, "### Next\n\n1. %s\n2. %s\n", g.sentence(), g.sentence())
	return b.String()
}
