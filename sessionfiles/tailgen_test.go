package sessionfiles

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
)

// GenSession writes a random tree-shaped session to path: branches, new
// roots, compactions, branch summaries, tool results longer than a read
// window, empty turns; with CRLF line endings, blank lines, a cut-off last
// line or the id-less entries of a version 1 file as opt says. It returns
// the file's size. Exported for the package's external tests.
func GenSession(t testing.TB, path string, seed uint64, entries int, opt GenOptions) int64 {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	eol := "\n"
	if opt.CRLF {
		eol = "\r\n"
	}
	var size int64
	put := func(v map[string]any) {
		b, err := piOrder(v, opt.SortedKeys)
		if err != nil {
			t.Fatal(err)
		}
		n, err := f.WriteString(string(b) + eol)
		if err != nil {
			t.Fatal(err)
		}
		size += int64(n)
		if opt.Blank && r.IntN(10) == 0 {
			n, _ := f.WriteString("  " + eol)
			size += int64(n)
		}
	}
	version := 3
	if opt.V1 {
		version = 1
	}
	put(map[string]any{"type": "session", "version": version, "id": fmt.Sprint("s", seed), "timestamp": "2025-01-01T00:00:00.000Z", "cwd": "/p"})
	var ids, branch []string
	for i := range entries {
		id := fmt.Sprintf("%08x", r.Uint32())
		e := map[string]any{"id": id, "timestamp": fmt.Sprintf("2025-01-01T00:%02d:%02d.000Z", i/60%60, i%60)}
		if opt.V1 {
			delete(e, "id")
		} else {
			var parent any
			switch p := r.IntN(100); {
			case len(ids) == 0 || p < 2:
				branch = nil // a new root
			case p < 15:
				// A branch from an earlier entry of the current branch.
				branch = branch[:r.IntN(len(branch))+1]
				parent = branch[len(branch)-1]
			default:
				parent = ids[len(ids)-1]
				if len(branch) > 0 {
					parent = branch[len(branch)-1]
				}
			}
			e["parentId"] = parent
		}
		ts := int64(1735689600000 + i*1000)
		text := func() string {
			switch r.IntN(12) {
			case 0:
				return ""
			case 1:
				return strings.Repeat("long line ", (lineHead+r.IntN(3*lineHead))/10)
			}
			return fmt.Sprintf("# turn %d\n**said** `%d` %s", i, r.IntN(1000), strings.Repeat("word ", r.IntN(30)))
		}
		switch k := r.IntN(100); {
		case k < 35:
			e["type"] = "message"
			e["message"] = map[string]any{"role": "user", "content": []map[string]any{{"type": "text", "text": text()}}, "timestamp": ts}
		case k < 65:
			e["type"] = "message"
			e["message"] = map[string]any{"role": "assistant", "content": []map[string]any{{"type": "text", "text": text()}}, "model": "m", "provider": "p", "timestamp": ts}
		case k < 85:
			e["type"] = "message"
			e["message"] = map[string]any{"role": "toolResult", "toolCallId": "c", "toolName": "bash",
				"content": []map[string]any{{"type": "text", "text": strings.Repeat("output ", r.IntN(2*lineHead)/7)}}, "timestamp": ts}
		case k < 89 && len(branch) > 0:
			e["type"] = "compaction"
			e["summary"] = "summary " + strings.Repeat("s", r.IntN(100))
			switch r.IntN(4) {
			case 0:
				e["firstKeptEntryId"] = "" // nothing kept
			case 1:
				e["firstKeptEntryId"] = "nowhere"
			default:
				e["firstKeptEntryId"] = branch[r.IntN(len(branch))]
			}
			e["tokensBefore"] = 1000
		case k < 92:
			e["type"] = "branch_summary"
			e["summary"] = "branch summary"
		case k < 95:
			e["type"] = "message"
			e["message"] = map[string]any{"role": "hookMessage", "customType": "x", "content": "from a hook", "display": true, "timestamp": ts}
		default:
			e["type"] = "model_change"
			e["provider"], e["modelId"] = "p", "m"
		}
		put(e)
		ids = append(ids, id)
		branch = append(branch, id)
	}
	if opt.Cut {
		n, _ := f.WriteString(`{"type":"message","id":"cut","parentId":"` + ids[len(ids)-1] + `","message":{"role":"user","content":"cut o`)
		size += int64(n)
	}
	return size
}

// GenOptions shape a generated session. SortedKeys writes the keys in
// alphabetical order, the message before the type and the parent id,
// where pi writes type, id, parentId and timestamp first.
type GenOptions struct {
	CRLF, Blank, Cut, V1, SortedKeys bool
}

func piOrder(v map[string]any, sorted bool) ([]byte, error) {
	if sorted {
		return json.Marshal(v)
	}
	var out []byte
	rest := map[string]any{}
	for k, x := range v {
		rest[k] = x
	}
	for _, k := range []string{"type", "id", "parentId", "timestamp"} {
		x, ok := v[k]
		if !ok {
			continue
		}
		delete(rest, k)
		b, err := json.Marshal(x)
		if err != nil {
			return nil, err
		}
		out = append(out, fmt.Sprintf("%q:%s,", k, b)...)
	}
	b, err := json.Marshal(rest)
	if err != nil {
		return nil, err
	}
	if len(rest) == 0 {
		return append(append([]byte("{"), out[:len(out)-1]...), '}'), nil
	}
	return append(append([]byte("{"), out...), b[1:]...), nil
}
