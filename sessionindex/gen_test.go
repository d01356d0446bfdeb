package sessionindex

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// A generator of session files in pi's format, shaped like real ones: a
// header, model and thinking changes, then turns of a prompt, thinking, a
// reply with code, tool calls (bash, read, edit) and their results, which
// make most of a file's bytes; now and then a compaction, a !command, a
// name. Words follow a Zipf law over a vocabulary of English, code
// identifiers and paths, with some accented and Chinese text.

var genWords = strings.Fields(`the a to of and in is it that for you this be on with as are
can not we have if will or but at by from so use file code function test error value
type return new add fix change make run build check need should would could now then
when what which there their they them one all also just like more some only into other
than first last after before because while where why how each any both same different
config server client request response handler context timeout retry cache index query
session message window widget layout render stream parse decode encode buffer line
token model agent tool result output input command shell path folder directory module
package import export struct interface method field variable constant slice map channel
goroutine mutex lock race deadlock panic recover defer close open read write flush sync
branch commit merge rebase diff patch review issue bug feature release version update
database table column row schema migration transaction insert select delete update join
memory leak profile benchmark latency throughput allocation garbage collector heap stack
user prompt reply thinking summary compaction history scroll search browser snippet rank
résumé naïve café über façade jalapeño déjà coöperate
数据库 会话 搜索 索引 配置 错误 测试 文件 窗口 消息 模型 工具`)

var genPaths = []string{"src/main.go", "app/session.go", "rpcconn/conn.go", "widgets/chat.go",
	"internal/config/config.go", "cmd/server/main.go", "pkg/cache/lru.go", "docs/README.md",
	"scripts/test.sh", "web/src/App.tsx", "lib/parser.rs", "tests/test_api.py"}

type sessionGen struct {
	r     *rand.Rand
	zipf  *rand.Zipf
	start time.Time
	// Needles, when set, are written into the prompts of the turn it names.
	needle     string
	needleTurn int
}

func newSessionGen(seed uint64) *sessionGen {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	return &sessionGen{r: r, zipf: rand.NewZipf(r, 1.1, 2, uint64(len(genWords)-1)),
		start: time.Date(2025, 6, 1, 9, 0, 0, 0, time.UTC)}
}

func (g *sessionGen) word() string {
	if g.r.IntN(12) == 0 {
		// An identifier: camelCase of two or three words.
		a, b := genWords[g.zipf.Uint64()], genWords[g.zipf.Uint64()]
		if r, n := utf8.DecodeRuneInString(b); n > 0 {
			b = string(unicode.ToUpper(r)) + b[n:]
		}
		return a + b
	}
	if g.r.IntN(40) == 0 {
		return genPaths[g.r.IntN(len(genPaths))]
	}
	return genWords[g.zipf.Uint64()]
}

func (g *sessionGen) words(n int) string {
	var sb strings.Builder
	for i := range n {
		if i > 0 {
			if i%14 == 0 {
				sb.WriteString(".\n")
			} else {
				sb.WriteByte(' ')
			}
		}
		sb.WriteString(g.word())
	}
	return sb.String()
}

func (g *sessionGen) code(lines int) string {
	var sb strings.Builder
	for i := range lines {
		fmt.Fprintf(&sb, "\tif %s := %s(%s, %d); err != nil { // %s\n", g.word(), g.word(), g.word(), i, g.words(4))
	}
	return sb.String()
}

type genEntry map[string]any

// write writes one session of about size bytes to path and returns its
// number of message entries.
func (g *sessionGen) write(path string, size int64, cwd string, at time.Time) (int, error) {
	f, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	w := bufio.NewWriterSize(f, 1<<20)
	var written int64
	id, parent, messages := 0, "", 0
	ts := at
	put := func(e genEntry) {
		id++
		e["id"] = fmt.Sprintf("%08x", id)
		if parent == "" {
			e["parentId"] = nil
		} else {
			e["parentId"] = parent
		}
		ts = ts.Add(time.Duration(1+g.r.IntN(20)) * time.Second)
		e["timestamp"] = ts.Format("2006-01-02T15:04:05.000Z")
		parent = e["id"].(string)
		if e["type"] == "message" {
			messages++
		}
		b, _ := json.Marshal(e)
		w.Write(b)
		w.WriteByte('\n')
		written += int64(len(b) + 1)
	}
	hdr, _ := json.Marshal(genEntry{"type": "session", "version": 3,
		"id":        fmt.Sprintf("%08x-0000-7000-8000-%012x", g.r.Uint32(), g.r.Uint64()&0xffffffffffff),
		"timestamp": at.Format("2006-01-02T15:04:05.000Z"), "cwd": cwd})
	w.Write(hdr)
	w.WriteByte('\n')
	put(genEntry{"type": "model_change", "provider": "anthropic", "modelId": "claude-sonnet-4-5"})
	put(genEntry{"type": "thinking_level_change", "thinkingLevel": "medium"})
	for turn := 0; written < size; turn++ {
		prompt := g.words(8 + g.r.IntN(60))
		if g.r.IntN(6) == 0 {
			prompt += "\n```go\n" + g.code(3+g.r.IntN(15)) + "```"
		}
		if g.needle != "" && turn == g.needleTurn {
			prompt += " " + g.needle
		}
		put(genEntry{"type": "message", "message": genEntry{"role": "user",
			"content": []genEntry{{"type": "text", "text": prompt}}, "timestamp": ts.UnixMilli()}})
		for step := range 1 + g.r.IntN(4) {
			content := []genEntry{{"type": "thinking", "thinking": g.words(30 + g.r.IntN(200))}}
			if step == 0 || g.r.IntN(3) == 0 {
				content = append(content, genEntry{"type": "text", "text": g.words(20+g.r.IntN(150)) + "\n```go\n" + g.code(2+g.r.IntN(20)) + "```"})
			}
			var call genEntry
			switch g.r.IntN(3) {
			case 0:
				call = genEntry{"type": "toolCall", "id": "call_" + fmt.Sprint(id), "name": "bash",
					"arguments": genEntry{"command": "go test ./" + filepath.Dir(genPaths[g.r.IntN(len(genPaths))]) + " -run Test" + g.word()}}
			case 1:
				call = genEntry{"type": "toolCall", "id": "call_" + fmt.Sprint(id), "name": "read",
					"arguments": genEntry{"path": genPaths[g.r.IntN(len(genPaths))]}}
			default:
				call = genEntry{"type": "toolCall", "id": "call_" + fmt.Sprint(id), "name": "edit",
					"arguments": genEntry{"path": genPaths[g.r.IntN(len(genPaths))], "oldText": g.code(2), "newText": g.code(3)}}
			}
			content = append(content, call)
			put(genEntry{"type": "message", "message": genEntry{"role": "assistant", "content": content,
				"api": "anthropic-messages", "provider": "anthropic", "model": "claude-sonnet-4-5",
				"usage": genEntry{"input": 1000, "output": 200, "totalTokens": 1200}, "stopReason": "toolUse", "timestamp": ts.UnixMilli()}})
			// Tool output: mostly a few KB, sometimes a whole file or log.
			out := 1 + g.r.IntN(40)
			if g.r.IntN(8) == 0 {
				out = 200 + g.r.IntN(1500)
			}
			put(genEntry{"type": "message", "message": genEntry{"role": "toolResult", "toolCallId": call["id"],
				"toolName": call["name"], "content": []genEntry{{"type": "text", "text": g.code(out)}}, "isError": g.r.IntN(10) == 0,
				"timestamp": ts.UnixMilli()}})
		}
		put(genEntry{"type": "message", "message": genEntry{"role": "assistant",
			"content": []genEntry{{"type": "text", "text": g.words(30 + g.r.IntN(300))}},
			"api":     "anthropic-messages", "provider": "anthropic", "model": "claude-sonnet-4-5", "stopReason": "stop", "timestamp": ts.UnixMilli()}})
		switch g.r.IntN(40) {
		case 0:
			put(genEntry{"type": "compaction", "summary": g.words(150), "firstKeptEntryId": parent, "tokensBefore": 90000})
		case 1:
			put(genEntry{"type": "message", "message": genEntry{"role": "bashExecution", "command": "git " + g.word(),
				"output": g.code(5), "exitCode": 0, "cancelled": false, "truncated": false, "timestamp": ts.UnixMilli()}})
		case 2:
			put(genEntry{"type": "session_info", "name": g.words(3)})
		}
	}
	if err := w.Flush(); err != nil {
		return 0, err
	}
	return messages, f.Close()
}

// genTree writes sessions totalling about total bytes into root in pi's
// layout (one folder per working folder): many small files and, from
// 100 MB on, some of 50 to 100 MB. It returns the files written.
func genTree(root string, total int64, seed uint64) ([]string, error) {
	g := newSessionGen(seed)
	var sizes []int64
	rest := total
	for rest > 0 && total >= 100<<20 && int64(len(sizes)) < total/(160<<20)+1 {
		s := int64(50<<20 + g.r.IntN(50<<20))
		sizes = append(sizes, min(s, rest))
		rest -= s
	}
	for rest > 0 {
		s := 20<<10 + int64(g.r.ExpFloat64()*(600<<10))
		sizes = append(sizes, min(s, rest))
		rest -= s
	}
	var paths []string
	for i, s := range sizes {
		cwd := fmt.Sprintf("/home/ada/proj%d", i%12)
		dir := filepath.Join(root, "--"+strings.ReplaceAll(cwd[1:], "/", "-")+"--")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
		at := g.start.Add(time.Duration(i) * 37 * time.Minute)
		path := filepath.Join(dir, fmt.Sprintf("%s_%04d.jsonl", at.Format("2006-01-02T15-04-05-000Z"), i))
		if _, err := g.write(path, s, cwd, at); err != nil {
			return nil, err
		}
		os.Chtimes(path, at.Add(time.Hour), at.Add(time.Hour))
		paths = append(paths, path)
	}
	return paths, nil
}
