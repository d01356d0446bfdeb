package model

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"knightcode.ai/desktop/rpcconn/rpctest/pienv"
)

// diffCase is an old and a new text, and what pi 0.73.1's
// generateDiffString makes of them (taken from it with node).
type diffCase struct {
	name     string
	old, new string
	want     string
}

var diffCases = []diffCase{
	{"insertion", "a\nb\nc\n", "a\nb\nNEW\nc\n",
		" 1 a\n 2 b\n+3 NEW\n 3 c"},
	{"deletion", "a\nb\nc\nd\n", "a\nd\n",
		" 1 a\n-2 b\n-3 c\n 4 d"},
	{"replacement", "func f() {\n\treturn 1\n}\n", "func f() {\n\treturn 2\n}\n",
		" 1 func f() {\n-2 \treturn 1\n+2 \treturn 2\n 3 }"},
	{"context is four lines, the rest skipped", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "1\n2\n3\n4\n5\n6\nsix\n8\n9\n10\n11\n12\n",
		"    ...\n  3 3\n  4 4\n  5 5\n  6 6\n- 7 7\n+ 7 six\n  8 8\n  9 9\n 10 10\n 11 11\n    ..."},
	{"two changes far apart", "a\n1\n2\n3\n4\n5\n6\n7\n8\n9\nz\n", "A\n1\n2\n3\n4\n5\n6\n7\n8\n9\nZ\n",
		"- 1 a\n+ 1 A\n  2 1\n  3 2\n  4 3\n  5 4\n    ...\n  7 6\n  8 7\n  9 8\n 10 9\n-11 z\n+11 Z"},
	{"no trailing newline", "a\nb", "a\nc",
		" 1 a\n-2 b\n+2 c"},
	{"appending after a last line without newline", "a\nb", "a\nb\nc",
		" 1 a\n-2 b\n+2 b\n+3 c"},
	{"identical", "same\ntext\n", "same\ntext\n", ""},
	{"from nothing", "", "new\nfile\n", "+1 new\n+2 file"},
	{"to nothing", "gone\n", "", "-1 gone"},
	{"blank lines", "a\n\n\nb\n", "a\n\nb\n",
		" 1 a\n 2 \n-3 \n 4 b"},
	{"CRLF is normalised", "a\r\nb\r\nc\r\n", "a\r\nB\r\nc\r\n",
		" 1 a\n-2 b\n+2 B\n 3 c"},
	{"repeated lines", "x\nx\ny\nx\n", "x\ny\nx\nx\n",
		" 1 x\n-2 x\n 3 y\n 4 x\n+4 x"},
}

func TestLineDiffMatchesAgent(t *testing.T) {
	for _, c := range diffCases {
		if got := lineDiff(c.old, c.new); got != c.want {
			t.Errorf("%s:\ngot\n%s\nwant\n%s", c.name, got, c.want)
		}
	}
}

// hugeDiffCases are two unrelated texts of thousands of lines, and the same
// over the line bound.
func hugeDiffCases() []struct{ name, old, new string } {
	var a, b strings.Builder
	for i := 0; i < 8000; i++ {
		fmt.Fprintf(&a, "old line %d\n", i)
		fmt.Fprintf(&b, "new line %d\n", i)
	}
	return []struct{ name, old, new string }{
		{"unrelated", a.String(), b.String()},
		{"over the line bound", strings.Repeat(a.String(), 2), strings.Repeat(b.String(), 2)},
	}
}

// TestLineDiffHugeInputsStayBounded: a diff between two unrelated texts of
// thousands of lines stops searching within its work bound and shows the
// old text removed and the new added; one over the line bound is not
// searched at all. How fast: BenchmarkLineDiffHugeInputs.
func TestLineDiffHugeInputsStayBounded(t *testing.T) {
	for _, c := range hugeDiffCases() {
		d := lineDiff("same start\n"+c.old+"same end\n", "same start\n"+c.new+"same end\n")
		lines := strings.Split(d, "\n")
		n := strings.Count(c.old, "\n")
		row := func(i int) string {
			return strings.TrimSpace(lines[i][:1] + " " + strings.Join(strings.Fields(lines[i][1:]), " "))
		}
		if len(lines) != 2*n+2 || row(0) != "1 same start" || row(1) != "- 2 old line 0" || row(n) != fmt.Sprintf("- %d old line %d", n+1, (n-1)%8000) ||
			row(n+1) != "+ 2 new line 0" || row(len(lines)-1) != fmt.Sprintf("%d same end", n+2) {
			t.Errorf("%s: %d lines: %q %q %q %q %q", c.name, len(lines), row(0), row(1), row(n), row(n+1), row(len(lines)-1))
		}
	}
}

// BenchmarkLineDiffHugeInputs is the worst case the bounds allow, which a
// card's diff must keep near 10 ms a frame on the UI goroutine.
func BenchmarkLineDiffHugeInputs(b *testing.B) {
	for _, c := range hugeDiffCases() {
		old, new := "same start\n"+c.old+"same end\n", "same start\n"+c.new+"same end\n"
		b.Run(c.name, func(b *testing.B) {
			for range b.N {
				lineDiff(old, new)
			}
		})
	}
}

// TestLineDiffAgainstAgentScript compares lineDiff with pi's own
// generateDiffString on many generated texts, when node and pi are here
// ($KNIGHTCODE_PI, or the copy scripts/install-pi.sh caches).
func TestLineDiffAgainstAgentScript(t *testing.T) {
	module, node := piEditDiffModule(t)
	rng := rand.New(rand.NewSource(12))
	words := []string{"a", "b", "c", "", "x y", "\tindented", "}"}
	size := 14
	gen := func() string {
		var sb strings.Builder
		n := rng.Intn(size)
		for i := 0; i < n; i++ {
			sb.WriteString(words[rng.Intn(len(words))])
			if i < n-1 || rng.Intn(3) > 0 {
				sb.WriteByte('\n')
			}
		}
		return sb.String()
	}
	type pair struct{ Old, New string }
	var pairs []pair
	for _, c := range diffCases {
		pairs = append(pairs, pair{normalizeLF(c.old), normalizeLF(c.new)})
	}
	for i := 0; i < 500; i++ {
		if i == 400 {
			size = 80 // longer texts: more ties between shortest diffs
		}
		old := gen()
		// Mostly small changes of old, sometimes a text of its own.
		nw := gen()
		if rng.Intn(4) > 0 {
			lines := strings.SplitAfter(old, "\n")
			for k := rng.Intn(3) + 1; k > 0 && len(lines) > 0; k-- {
				j := rng.Intn(len(lines))
				switch rng.Intn(3) {
				case 0:
					lines = append(lines[:j], lines[j+1:]...)
				case 1:
					lines = append(lines[:j], append([]string{words[rng.Intn(len(words))] + "\n"}, lines[j:]...)...)
				default:
					lines[j] = "changed\n"
				}
			}
			nw = strings.Join(lines, "")
		}
		pairs = append(pairs, pair{old, nw})
	}
	in, _ := json.Marshal(pairs)
	script := `import { generateDiffString } from ` + jsString("file://"+module) + `;
let data = ""; process.stdin.on("data", d => data += d).on("end", () => {
  const out = JSON.parse(data).map(p => generateDiffString(p.Old, p.New).diff);
  process.stdout.write(JSON.stringify(out));
});`
	cmd := exec.Command(node, "--input-type=module", "-e", script)
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, stderr.String())
	}
	var want []string
	if err := json.Unmarshal(out, &want); err != nil {
		t.Fatal(err)
	}
	for i, p := range pairs {
		if got := lineDiff(p.Old, p.New); got != want[i] {
			t.Errorf("case %d: old %q new %q\ngot\n%s\npi\n%s", i, p.Old, p.New, got, want[i])
		}
	}
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// piEditDiffModule finds pi's edit-diff.js and the Node that runs it
// ($KNIGHTCODE_PI's pi, 0.73.1 or 1.6.0, or the copy scripts/install-pi.sh
// caches), or skips; with KNIGHTCODE_E2E=1 a missing pi fails.
func piEditDiffModule(t *testing.T) (module, node string) {
	t.Helper()
	lack := func(format string, args ...any) {
		t.Helper()
		if os.Getenv("KNIGHTCODE_E2E") == "1" {
			t.Fatalf(format, args...)
		}
		t.Skipf(format, args...)
	}
	bin := os.Getenv(pienv.BinaryEnv)
	if bin == "" {
		if wd, err := os.Getwd(); err == nil {
			if root, err := pienv.RepoRoot(wd); err == nil {
				bin = filepath.Join(root, filepath.FromSlash(pienv.CacheDir), "node_modules", ".bin", "pi")
			}
		}
	}
	pkg, node, err := pienv.Module(bin)
	if err != nil {
		lack("pi is not here (%v); set $%s or run scripts/install-pi.sh", err, pienv.BinaryEnv)
	}
	if _, err := exec.LookPath(node); err != nil {
		lack("%s is not there to run pi's module: %v", node, err)
	}
	module = filepath.Join(pkg, "dist", "core", "tools", "edit-diff.js")
	if _, err := os.Stat(module); err != nil {
		lack("pi's edit-diff.js is not here (%s); set $%s or run scripts/install-pi.sh", module, pienv.BinaryEnv)
	}
	return module, node
}
