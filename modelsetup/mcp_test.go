package modelsetup

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSetMCPEnabledKeepsTheFile(t *testing.T) {
	dir := t.TempDir()
	c := Config{Dir: filepath.Join(dir, "agent")}
	project := filepath.Join(dir, "work")
	os.MkdirAll(c.Dir, 0o755)
	os.MkdirAll(filepath.Join(project, ".pi"), 0o755)
	user := "{\n  // mine\n  \"mcpServers\": {\n    \"echo\": {\"command\": \"node\", \"args\": [\"echo.js\"]},\n    \"docs\": {\"url\": \"http://x/mcp\", \"enabled\": true},\n  },\n}\n"
	os.WriteFile(filepath.Join(c.Dir, "mcp.json"), []byte(user), 0o600)
	os.WriteFile(filepath.Join(project, ".pi", "mcp.json"), []byte(`{"mcpServers": {"docs": {"enabled": false}}}`), 0o644)

	if p, ok := MCPServerFile(c, project, "echo"); !ok || p != filepath.Join(c.Dir, "mcp.json") {
		t.Fatalf("echo is defined in %q %v", p, ok)
	}
	if p, ok := MCPServerFile(c, project, "docs"); !ok || p != filepath.Join(project, ".pi", "mcp.json") {
		t.Fatalf("docs: the project's entry wins, got %q %v", p, ok)
	}
	if _, ok := MCPServerFile(c, project, "nowhere"); ok {
		t.Fatal("a server no file names was found")
	}
	path := filepath.Join(c.Dir, "mcp.json")
	backup, err := SetMCPEnabled(path, "echo", false)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	out := string(data)
	for _, kept := range []string{"// mine", `"docs": {"url": "http://x/mcp", "enabled": true},`, `"args": ["echo.js"]`} {
		if !strings.Contains(out, kept) {
			t.Errorf("lost %q:\n%s", kept, out)
		}
	}
	if !strings.Contains(out, `"enabled": false`) {
		t.Errorf("echo not disabled:\n%s", out)
	}
	if b, _ := os.ReadFile(backup); string(b) != user {
		t.Error("the backup is not the file as it was")
	}
	// And back on: the same member is replaced, not added twice.
	SetMCPEnabled(path, "echo", true)
	data, _ = os.ReadFile(path)
	if strings.Count(string(data), `"enabled"`) != 2 || !strings.Contains(string(data), `"enabled": true}`) {
		t.Errorf("enabled again:\n%s", data)
	}
}
