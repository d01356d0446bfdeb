package agentfiles

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, root string, files ...string) {
	t.Helper()
	for _, f := range files {
		p := filepath.Join(root, filepath.FromSlash(f))
		if strings.HasSuffix(f, "/") {
			os.MkdirAll(p, 0o755)
			continue
		}
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestScanFindsWhatAFolderKeepsForItsAgent(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, ".pi/prompts/review.md", ".pi/prompts/fix-tests.md", ".pi/prompts/.hidden.md",
		".pi/extensions/guard.ts", ".pi/skills/search/SKILL.md", ".pi/SYSTEM.md", ".pi/mcp.json", ".pi/settings.json",
		".knightcode/agent/prompts/deploy.md", "README.md", "src/")
	found, err := Scan(dir, LocalLister)
	if err != nil {
		t.Fatal(err)
	}
	if len(found) != 2 || found[0].Root != ".pi" || found[1].Root != ".knightcode/agent" {
		t.Fatalf("found %+v", found)
	}
	pi := found[0]
	if strings.Join(pi.Prompts, ",") != "fix-tests,review" || strings.Join(pi.Extensions, ",") != "guard.ts" ||
		strings.Join(pi.Skills, ",") != "search" || strings.Join(pi.SystemFiles, ",") != "SYSTEM.md" || !pi.MCP || !pi.Settings {
		t.Errorf(".pi: %+v", pi)
	}
	lines := strings.Join(pi.Lines(), "\n")
	for _, want := range []string{"Prompt templates: fix-tests, review — become / commands", "Extensions: guard.ts — programs that run on this computer", "MCP servers (mcp.json)"} {
		if !strings.Contains(lines, want) {
			t.Errorf("lines lack %q:\n%s", want, lines)
		}
	}
	if strings.Join(found[1].Prompts, ",") != "deploy" {
		t.Errorf(".knightcode/agent: %+v", found[1])
	}
}

func TestScanOfAFolderWithoutAgentFiles(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, ".pi/", ".pi/prompts/", "main.go")
	found, err := Scan(dir, LocalLister)
	if err != nil || len(found) != 0 {
		t.Fatalf("found %+v, %v", found, err)
	}
}

func TestSupportsApprove(t *testing.T) {
	pi16 := "Options:\n  --no-context-files, -nc         Disable AGENTS.md\n  --approve, -a                  Trust project-local files for this run\n  --no-approve, -na              Ignore project-local files for this run\n"
	pi073 := "Options:\n  --no-context-files, -nc         Disable AGENTS.md\n  --verbose  Force verbose startup\n"
	if !SupportsApprove(pi16) || SupportsApprove(pi073) || SupportsApprove("see the --approve flag of another tool") {
		t.Error("SupportsApprove reads --help wrong")
	}
	if !SupportsApprove("  -a, --approve   trust") {
		t.Error("the short form first")
	}
}

func TestListCountsTheRest(t *testing.T) {
	if got := list([]string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"}, 6); got != "a, b, c, d, e, f and 6 more" {
		t.Errorf("list = %q", got)
	}
}
