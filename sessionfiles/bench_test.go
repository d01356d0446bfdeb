package sessionfiles

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkListSessions lists 100 sessions of 400 entries with a 100 KB tool
// result every tenth entry (about 4 MB each), the shape a long coding
// session has.
func BenchmarkListSessions(b *testing.B) {
	root := b.TempDir()
	dir := filepath.Join(root, FolderName("/p"))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	output := strings.Repeat("output line\\n", 100<<10/13)
	for f := range 100 {
		var s strings.Builder
		fmt.Fprintf(&s, `{"type":"session","version":3,"id":"%d","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/p"}`+"\n", f)
		for i := range 400 {
			switch {
			case i%10 == 9:
				fmt.Fprintf(&s, `{"type":"message","id":"%d","parentId":"%d","timestamp":"2025-01-01T00:00:01.000Z","message":{"role":"toolResult","toolCallId":"c","toolName":"bash","content":[{"type":"text","text":"%s"}],"isError":false}}`+"\n", i, i-1, output)
			case i%2 == 0:
				fmt.Fprintf(&s, `{"type":"message","id":"%d","parentId":"%d","timestamp":"2025-01-01T00:00:01.000Z","message":{"role":"user","content":[{"type":"text","text":"prompt %d"}]}}`+"\n", i, i-1, i)
			default:
				fmt.Fprintf(&s, `{"type":"message","id":"%d","parentId":"%d","timestamp":"2025-01-01T00:00:01.000Z","message":{"role":"assistant","content":[{"type":"text","text":"%s"}],"provider":"p","model":"m"}}`+"\n", i, i-1, strings.Repeat("reply ", 200))
			}
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprint(f, ".jsonl")), []byte(s.String()), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for b.Loop() {
		infos, _, err := List(context.Background(), []string{root}, "/p", false)
		if err != nil || len(infos) != 100 || infos[0].MessageCount != 400 {
			b.Fatalf("%d sessions, %v", len(infos), err)
		}
	}
}
