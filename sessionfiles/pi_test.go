package sessionfiles

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"knightcode.ai/desktop/rpcconn"
	"knightcode.ai/desktop/rpcconn/rpctest/llmserver"
	"knightcode.ai/desktop/rpcconn/rpctest/pienv"
)

// The two prompts and the name the real-agent run gives its session.
const (
	piFirstPrompt  = "Say hello to the session browser"
	piSecondPrompt = "And once more, please"
	piSessionName  = "browser fixture"
)

// needPi decides whether the real-agent tests run. Without pi they skip,
// except under KNIGHTCODE_E2E=1, where a missing agent must fail the run:
// an end-to-end job that quietly skips proves nothing.
func needPi(t *testing.T) {
	t.Helper()
	if os.Getenv(pienv.BinaryEnv) != "" {
		return // pienv.Binary reports a wrong path itself
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	root, err := pienv.RepoRoot(wd)
	if err != nil {
		t.Fatal(err)
	}
	name := "pi"
	if runtime.GOOS == "windows" {
		name = "pi.cmd"
	}
	bin := filepath.Join(root, filepath.FromSlash(pienv.CacheDir), "node_modules", ".bin", name)
	if _, err := os.Stat(bin); err == nil {
		return
	}
	if os.Getenv("KNIGHTCODE_E2E") == "1" {
		t.Fatalf("KNIGHTCODE_E2E=1 but pi is missing: set $%s or run scripts/install-pi.sh (looked for %s)", pienv.BinaryEnv, bin)
	}
	t.Skipf("pi is not installed (%s); set $%s or KNIGHTCODE_E2E=1 to run", bin, pienv.BinaryEnv)
}

// runPiSession runs the real pi once in RPC mode, with an isolated HOME and
// --session-dir, through two prompts and set_session_name, then closes its
// stdin so it exits. It returns pi's environment: SessionDir holds the file.
func runPiSession(t *testing.T) *pienv.Env {
	t.Helper()
	needPi(t)
	srv := llmserver.Start(t)
	env := pienv.Setup(t, srv.URL(), pienv.WithSessionDir(""))

	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	cmd := env.Command(ctx, "--mode", "rpc")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting pi: %v", err)
	}
	// fail stops pi before reading its stderr, which pi writes until then.
	fail := func(format string, args ...any) {
		t.Helper()
		cancel()
		_ = cmd.Wait()
		t.Fatalf(format+"\npi's stderr:\n%s", append(args, stderr.String())...)
	}
	out := &piReader{r: bufio.NewReader(stdout)}
	send := func(v map[string]any) {
		t.Helper()
		b, _ := json.Marshal(v)
		if _, err := stdin.Write(append(b, '\n')); err != nil {
			fail("writing to pi: %v", err)
		}
	}
	for i, text := range []string{piFirstPrompt, piSecondPrompt} {
		send(map[string]any{"id": fmt.Sprint("prompt-", i), "type": "prompt", "message": text})
		if err := out.until(func(ev piEvent) bool { return ev.Type == "agent_end" }); err != nil {
			fail("prompt %d: %v", i+1, err)
		}
	}
	send(map[string]any{"id": "name", "type": "set_session_name", "name": piSessionName})
	if err := out.until(func(ev piEvent) bool { return ev.Type == "response" && ev.ID == "name" }); err != nil {
		fail("set_session_name: %v", err)
	}
	stdin.Close()
	_, _ = io.Copy(io.Discard, stdout)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("pi exited with %v\npi's stderr:\n%s", err, stderr.String())
	}
	return env
}

type piEvent struct {
	Type    string `json:"type"`
	ID      string `json:"id"`
	Success bool   `json:"success"`
}

// piReader reads pi's stdout records; a failed command ends the wait early.
type piReader struct {
	r *bufio.Reader
}

func (p *piReader) until(done func(piEvent) bool) error {
	for {
		line, err := p.r.ReadBytes('\n')
		if err != nil {
			return fmt.Errorf("reading pi's output: %w", err)
		}
		var ev piEvent
		if json.Unmarshal(line, &ev) != nil {
			continue
		}
		if ev.Type == "response" && !ev.Success {
			return fmt.Errorf("pi refused a command: %s", line)
		}
		if done(ev) {
			return nil
		}
	}
}

// sessionFilesIn lists the .jsonl files pi wrote under dir.
func sessionFilesIn(t *testing.T, dir string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".jsonl") {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// realFixture is a session file pi wrote, kept for the fast tests. Set
// KNIGHTCODE_WRITE_FIXTURES=1 to replace it with a new run's file.
const realFixture = "testdata/sessions/pi-0.73.1.jsonl"

// TestListSessionsRealPi checks the reader against the files the real agent
// writes, so the fixtures cannot drift from the format.
func TestListSessionsRealPi(t *testing.T) {
	env := runPiSession(t)
	files := sessionFilesIn(t, env.SessionDir)
	if len(files) != 1 {
		t.Fatalf("pi wrote %d session files, want 1: %v", len(files), files)
	}
	if os.Getenv("KNIGHTCODE_WRITE_FIXTURES") == "1" {
		data, err := os.ReadFile(files[0])
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(realFixture, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	roots := Roots(env.Args, env.Home)
	if len(roots) != 1 || roots[0] != env.SessionDir {
		t.Fatalf("SessionRoots(%q) = %q, want [%s]", env.Args, roots, env.SessionDir)
	}
	infos, skipped, err := List(t.Context(), roots, env.WorkDir, false)
	if err != nil || len(skipped) != 0 || len(infos) != 1 {
		t.Fatalf("ListSessions = %+v, skipped %+v, %v", infos, skipped, err)
	}
	info := infos[0]
	checkRealSession(t, info, env.WorkDir)
	// pi names the file <timestamp>_<id>.jsonl and writes it as it goes.
	if info.Path != files[0] || !strings.HasSuffix(info.Path, "_"+info.ID+".jsonl") ||
		!timeFromFileName(filepath.Base(info.Path), time.Time{}).Equal(info.Created) || info.Modified.Before(info.Created) {
		t.Errorf("Path %s, ID %s, Created %v, Modified %v", info.Path, info.ID, info.Created, info.Modified)
	}
	if other, _, _ := List(t.Context(), roots, env.Home, false); len(other) != 0 {
		t.Errorf("another folder lists %+v", other)
	}

	tree, leaf, err := ReadTree(files[0])
	if err != nil {
		t.Fatal(err)
	}
	checkRealTree(t, tree, leaf, pienv.Selected().IsCurrent())
}

// checkRealSession holds what pi records for runPiSession's run, 0.73.1
// and 1.6.0 alike: 1.6.0's system prompt entry is not a message a person
// reads, and is not counted.
func checkRealSession(t *testing.T, info Info, cwd string) {
	t.Helper()
	want := Info{
		Cwd: cwd, Name: piSessionName, FirstPrompt: piFirstPrompt,
		MessageCount: 4, Model: pienv.Provider + "/" + pienv.ReasonerModel,
	}
	if info.Cwd != want.Cwd || info.Name != want.Name || info.FirstPrompt != want.FirstPrompt ||
		info.MessageCount != want.MessageCount || info.Model != want.Model || len(info.Problems) != 0 {
		t.Errorf("session = %+v\nwant %+v", info, want)
	}
	if info.ID == "" || info.Created.IsZero() || info.ParentSession != "" {
		t.Errorf("ID %q, Created %v, ParentSession %q", info.ID, info.Created, info.ParentSession)
	}
}

// checkRealTree: pi records the model and thinking level first, then the
// turns, then the name, as one chain.
func checkRealTree(t *testing.T, tree []rpcconn.TreeNode, leaf string, systemPrompt bool) {
	t.Helper()
	var kinds []string
	var last string
	for n := tree; len(n) > 0; n = n[0].Children {
		if len(tree) != 1 || len(n) != 1 && len(n[0].Children) != 0 {
			t.Fatalf("the tree is not one chain: %d roots", len(tree))
		}
		e := n[0].Entry
		kind := e.Type
		if e.Message != nil {
			kind += ":" + e.Message.Role
		}
		kinds = append(kinds, kind)
		last = e.ID
	}
	want := []string{"model_change", "thinking_level_change", "message:user", "message:assistant",
		"message:user", "message:assistant", "session_info"}
	if systemPrompt {
		// pi 1.6 records its system prompt before the first turn.
		want = slices.Insert(want, 2, "message:system")
	}
	if !slices.Equal(kinds, want) {
		t.Errorf("chain = %v\nwant %v", kinds, want)
	}
	if leaf == "" || leaf != last {
		t.Errorf("leaf = %q, want the last entry %q", leaf, last)
	}
}
