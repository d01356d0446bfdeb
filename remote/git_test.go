package remote_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"knightcode.ai/desktop/gitwork"
	"knightcode.ai/desktop/internal/testsupport"
	"knightcode.ai/desktop/remote"
	"knightcode.ai/desktop/remote/sshtest"
)

// hostRepo is a git repository made on the "host" (the fixture runs on
// this machine, so its files are written here directly) and worked on
// through ssh.
type hostRepo struct {
	t    *testing.T
	dir  string
	repo *gitwork.Repo
}

// localGit runs git here, in dir, for setting up and checking: the host's
// files are this machine's.
func localGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, "GIT_") })
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %q: %v\n%s", args, err, out)
	}
	return string(out)
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, name)
		mkdir(t, filepath.Dir(p))
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func readFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	got := map[string]string{}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if !d.IsDir() {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			rel, _ := filepath.Rel(dir, p)
			got[rel] = string(b)
		}
		return nil
	})
	return got
}

func sameFiles(t *testing.T, what string, got, want map[string]string) {
	t.Helper()
	var diffs []string
	for name, body := range want {
		if g, ok := got[name]; !ok {
			diffs = append(diffs, "missing "+strings.ReplaceAll(name, "\n", `\n`))
		} else if g != body {
			diffs = append(diffs, "differs "+name+": "+g)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			diffs = append(diffs, "extra "+strings.ReplaceAll(name, "\n", `\n`))
		}
	}
	if len(diffs) > 0 {
		sort.Strings(diffs)
		t.Fatalf("%s:\n%s", what, strings.Join(diffs, "\n"))
	}
}

// odd names: a space, quotes, a newline, a leading dash, non-ASCII, a
// backslash and a shell's special characters.
var (
	spaced    = "name with space.txt"
	quoted    = `it's "quoted" $x;*.txt`
	newline   = "new\nline.txt"
	dashed    = "-dash.txt"
	nonASCII  = "ünïcödé ✓.txt"
	backslash = `back\slash\n.txt`
)

func twoHunks(first, last string) string {
	var b strings.Builder
	b.WriteString(first + "\n")
	for i := 0; i < 30; i++ {
		b.WriteString("middle\n")
	}
	b.WriteString(last + "\n")
	return b.String()
}

func newHostRepo(t *testing.T, srv *sshtest.Server, name string, files map[string]string) *hostRepo {
	t.Helper()
	return newHostRepoWith(t, srv, srv.Host().GitRunner(), name, files)
}

func newHostRepoWith(t *testing.T, srv *sshtest.Server, run gitwork.Runner, name string, files map[string]string) *hostRepo {
	t.Helper()
	dir := filepath.Join(srv.Home, name)
	mkdir(t, dir)
	localGit(t, dir, "init", "-q", "-b", "main")
	localGit(t, dir, "config", "user.name", "Test")
	localGit(t, dir, "config", "user.email", "test@example.invalid")
	localGit(t, dir, "config", "commit.gpgsign", "false")
	writeFiles(t, dir, files)
	localGit(t, dir, "add", "-A")
	localGit(t, dir, "commit", "-q", "-m", "start")
	repo, err := gitwork.Open(testContext(t), run, dir, gitwork.Options{OwnDirs: filepath.Join(srv.Dir, "own")})
	if err != nil {
		t.Fatalf("Open over ssh: %v", err)
	}
	if repo.Root != dir || repo.Own {
		t.Fatalf("Open: root %q own %v, want %q", repo.Root, repo.Own, dir)
	}
	return &hostRepo{t: t, dir: dir, repo: repo}
}

func TestGitCheckpointsChangesAndRestore(t *testing.T) {
	t.Parallel()
	srv := sshtest.Start(t, sshtest.Options{})
	ctx := testContext(t)
	start := map[string]string{
		spaced: twoHunks("first", "last"), quoted: "q\n", dashed: "d\n", nonASCII: "ü\n", backslash: "b\n",
	}
	f := newHostRepo(t, srv, "work 'tree' ü", start)

	cp, err := f.repo.Take(ctx, "session 1", gitwork.BeforePrompt, 1)
	if err != nil {
		t.Fatal(err)
	}
	edited := twoHunks("FIRST", "LAST")
	writeFiles(t, f.dir, map[string]string{spaced: edited, newline: "n\n", nonASCII: "Ü\n"})
	if err := os.Remove(filepath.Join(f.dir, dashed)); err != nil {
		t.Fatal(err)
	}

	present, files, err := f.repo.Changes(ctx, cp.Commit)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]gitwork.Status{}
	for _, c := range files {
		got[c.Path] = c.Status
	}
	want := map[string]gitwork.Status{spaced: gitwork.Modified, newline: gitwork.Added, nonASCII: gitwork.Modified, dashed: gitwork.Deleted}
	if len(got) != len(want) {
		t.Fatalf("changes: %+v", files)
	}
	for name, status := range want {
		if got[name] != status {
			t.Fatalf("%q: %c, want %c (all: %+v)", name, got[name], status, files)
		}
	}

	d, err := f.repo.Diff(ctx, cp.Commit, present, spaced, "")
	if err != nil || len(d.Hunks) != 2 {
		t.Fatalf("diff of %q: %+v %v", spaced, d, err)
	}
	undo, err := f.repo.RevertHunk(ctx, "session 1", d, 1, spaced)
	if err != nil {
		t.Fatal(err)
	}
	if got := readFiles(t, f.dir)[spaced]; got != twoHunks("FIRST", "last") {
		t.Fatalf("after reverting the second hunk:\n%s", got)
	}
	if err := f.repo.UndoRevert(ctx, "session 1", undo); err != nil {
		t.Fatal(err)
	}
	if got := readFiles(t, f.dir)[spaced]; got != edited {
		t.Fatalf("after the undo:\n%s", got)
	}

	before, err := f.repo.Restore(ctx, cp)
	if err != nil {
		t.Fatal(err)
	}
	sameFiles(t, "after restoring the checkpoint", readFiles(t, f.dir), start)
	if _, err := f.repo.Restore(ctx, before); err != nil {
		t.Fatal(err)
	}
	changed := map[string]string{spaced: edited, quoted: "q\n", newline: "n\n", nonASCII: "Ü\n", backslash: "b\n"}
	sameFiles(t, "after undoing the restore", readFiles(t, f.dir), changed)

	list, err := f.repo.Checkpoints(ctx, "session 1")
	if err != nil || len(list) < 3 || list[0].Commit != cp.Commit {
		t.Fatalf("checkpoints: %+v %v", list, err)
	}
	// The temporary indexes the snapshots used were removed on the host.
	gitDir := filepath.Join(f.dir, ".git")
	entries, _ := os.ReadDir(gitDir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "knightcode-index-") {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}

func TestGitStageAndCommitWithHook(t *testing.T) {
	t.Parallel()
	srv := sshtest.Start(t, sshtest.Options{})
	ctx := testContext(t)
	f := newHostRepo(t, srv, "repo", map[string]string{dashed: "d\n", quoted: "q\n"})
	writeFiles(t, f.dir, map[string]string{dashed: "D\n", newline: "n\n", quoted: "Q\n"})

	if err := f.repo.StageFile(ctx, dashed, newline); err != nil {
		t.Fatal(err)
	}
	staged, err := f.repo.Staged(ctx)
	var names []string
	for _, c := range staged {
		names = append(names, c.Path)
	}
	slices.Sort(names)
	if err != nil || !slices.Equal(names, []string{dashed, newline}) {
		t.Fatalf("staged: %q %v", names, err)
	}

	hook := filepath.Join(f.dir, ".git", "hooks", "pre-commit")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\necho 'no commits on Sunday' >&2\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err = f.repo.Commit(ctx, "refused")
	var ge *gitwork.GitError
	if !errors.As(err, &ge) || ge.Err != nil || ge.Exit != 1 || strings.TrimSpace(ge.Words()) != "no commits on Sunday" {
		t.Fatalf("refused commit: %#v", err)
	}
	if err := os.Remove(hook); err != nil {
		t.Fatal(err)
	}
	message := "stage odd names\n\nwith a body: it's \"quoted\", \\back\\slash, ü\n"
	commit, err := f.repo.Commit(ctx, message)
	if err != nil || commit == "" {
		t.Fatalf("commit: %q %v", commit, err)
	}
	if got := localGit(t, f.dir, "log", "-1", "--format=%B"); strings.TrimSpace(got) != strings.TrimSpace(message) {
		t.Fatalf("message: %q", got)
	}
	if got := localGit(t, f.dir, "show", "--name-only", "-z", "--format=", "HEAD"); got != dashed+"\x00"+newline+"\x00" {
		t.Fatalf("committed: %q", got)
	}
}

func TestGitRunnerPassesBytesAndWords(t *testing.T) {
	t.Parallel()
	srv := sshtest.Start(t, sshtest.Options{})
	ctx := testContext(t)
	run := srv.Host().GitRunner()
	f := newHostRepo(t, srv, "bytes", map[string]string{"a.txt": "a\n"})

	// stdin and stdout carry every byte value.
	var data []byte
	for i := 0; i < 3*256; i++ {
		data = append(data, byte(i), byte(i*7))
	}
	data = append(data, "\r\n\x00\n"...)
	id, err := run.Git(ctx, f.dir, nil, data, "hash-object", "-w", "--stdin")
	if err != nil {
		t.Fatal(err)
	}
	back, err := run.Git(ctx, f.dir, nil, nil, "cat-file", "blob", strings.TrimSpace(string(id)))
	if err != nil || !bytes.Equal(back, data) {
		t.Fatalf("blob back: %d bytes of %d, %v", len(back), len(data), err)
	}

	// Arguments and variables arrive as they were given, newlines and
	// backslashes included; "~/…" is the home folder.
	odd := []string{newline, backslash, quoted, dashed, nonASCII, "trailing\n", "\n", `\n`, "%b %s \\0101", ""}
	args := append([]string{"rev-parse", "--sq-quote"}, odd...)
	out, err := run.Git(ctx, "~/bytes", []string{"GIT_EDITOR=x\ny \\n"}, nil, args...)
	if err != nil {
		t.Fatal(err)
	}
	if want := localGit(t, f.dir, append([]string{"rev-parse", "--sq-quote"}, odd...)...); string(out) != want {
		t.Fatalf("arguments arrived as\n%q\nwant\n%q", out, want)
	}
	editor, err := run.Git(ctx, "~/bytes", []string{"GIT_EDITOR=x\ny \\n"}, nil, "var", "GIT_EDITOR")
	if err != nil || string(editor) != "x\ny \\n\n" {
		t.Fatalf("a variable with a newline: %q %v", editor, err)
	}

	// Remove: a name with a newline, and one already gone.
	victim := filepath.Join(f.dir, ".git", "knightcode-index-\nodd")
	if err := os.WriteFile(victim, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := run.Remove(ctx, victim); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(victim); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("Remove left %q: %v", victim, err)
	}

	// git's own failure: its words and exit code, no Err.
	_, err = run.Git(ctx, f.dir, nil, nil, "rev-parse", "--verify", "no-such-branch")
	var ge *gitwork.GitError
	if !errors.As(err, &ge) || ge.Err != nil || ge.Exit != 128 || !strings.Contains(ge.Stderr, "Needed a single revision") ||
		strings.Contains(ge.Stderr, "knightcode-remote") {
		t.Fatalf("git refusing: %#v", err)
	}

	// A folder that is not there.
	_, err = run.Git(ctx, srv.Home+"/no such\nfolder", nil, nil, "status")
	var re *remote.Error
	if !errors.As(err, &ge) || !errors.As(ge.Err, &re) || re.Kind != remote.FolderMissing {
		t.Fatalf("a missing folder: %#v", err)
	}
	t.Logf("missing folder: %v", err)

	// git that is not there.
	_, err = remote.Git{Host: srv.Host(), Program: srv.Home + "/no/git"}.Git(ctx, f.dir, nil, nil, "status")
	if !errors.As(err, &ge) || !errors.As(ge.Err, &re) || !strings.Contains(re.Message, "no git program at") {
		t.Fatalf("a missing git: %#v", err)
	}
	t.Logf("missing git: %v", err)
	gitPath, err := exec.LookPath("git")
	if err != nil {
		t.Fatal(err)
	}
	out, err = remote.Git{Host: srv.Host(), Program: gitPath}.Git(ctx, f.dir, nil, nil, "rev-parse", "--show-toplevel")
	if err != nil || strings.TrimSpace(string(out)) != f.dir {
		t.Fatalf("git at a given path: %q %v", out, err)
	}
}

func TestGitFolderNotARepository(t *testing.T) {
	t.Parallel()
	srv := sshtest.Start(t, sshtest.Options{})
	ctx := testContext(t)
	dir := filepath.Join(srv.Home, "plain\nfolder ü")
	writeFiles(t, dir, map[string]string{"a.txt": "a\n", quoted: "q\n"})
	own := filepath.Join(srv.Dir, "own dirs")
	repo, err := gitwork.Open(ctx, srv.Host().GitRunner(), dir, gitwork.Options{OwnDirs: own})
	if err != nil {
		t.Fatal(err)
	}
	if !repo.Own || repo.Root != dir || !strings.HasPrefix(repo.GitDir, own+"/") {
		t.Fatalf("Open: %+v", repo)
	}
	cp, err := repo.Take(ctx, "s", gitwork.BeforePrompt, 1)
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, dir, map[string]string{"a.txt": "A\n", newline: "n\n"})
	_, files, err := repo.Changes(ctx, cp.Commit)
	if err != nil || len(files) != 2 {
		t.Fatalf("changes: %+v %v", files, err)
	}
	if _, err := repo.Restore(ctx, cp); err != nil {
		t.Fatal(err)
	}
	sameFiles(t, "after restoring", readFiles(t, dir), map[string]string{"a.txt": "a\n", quoted: "q\n"})
	if _, err := os.Stat(filepath.Join(dir, ".git")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the folder got a .git: %v", err)
	}
	if _, err := gitwork.Open(ctx, srv.Host().GitRunner(), dir, gitwork.Options{}); !errors.Is(err, gitwork.ErrNotRepository) {
		t.Fatalf("Open without OwnDirs: %v", err)
	}
}

func TestGitHostDown(t *testing.T) {
	t.Parallel()
	srv, h := downHost(t)
	_, err := gitwork.Open(testContext(t), h.GitRunner(), srv.Home, gitwork.Options{OwnDirs: srv.Dir})
	var ge *gitwork.GitError
	var re *remote.Error
	if !errors.As(err, &ge) || !errors.As(ge.Err, &re) || re.Kind != remote.Refused || !strings.Contains(err.Error(), "refused the connection") {
		t.Fatalf("a host that is down: %#v", err)
	}
	t.Logf("host down: %v", err)
	if err := h.GitRunner().Remove(testContext(t), srv.Home+"/x"); h.Classify(err) == nil || h.Classify(err).Kind != remote.Refused {
		t.Fatalf("Remove on a host that is down: %v", err)
	}
}

func TestGitSharedConnection(t *testing.T) {
	t.Parallel()
	srv := sshtest.Start(t, sshtest.Options{})
	ctx := testContext(t)
	sockets := filepath.Join(t.TempDir(), "ctl")
	h, err := srv.Host().SharedConnections(sockets, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.CloseShared(context.Background()) })
	logins := len(srv.LogLines("Accepted publickey"))
	f := newHostRepoWith(t, srv, h.GitRunner(), "shared", map[string]string{spaced: "a\n"})
	cp, err := f.repo.Take(ctx, "s", gitwork.BeforePrompt, 1)
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, f.dir, map[string]string{spaced: "b\n", newline: "n\n"})
	if _, files, err := f.repo.Changes(ctx, cp.Commit); err != nil || len(files) != 2 {
		t.Fatalf("changes: %+v %v", files, err)
	}
	if _, err := f.repo.Restore(ctx, cp); err != nil {
		t.Fatal(err)
	}
	sameFiles(t, "after restoring", readFiles(t, f.dir), map[string]string{spaced: "a\n"})
	if n := len(srv.LogLines("Accepted publickey")) - logins; n != 1 {
		t.Errorf("%d logins for every command of Open, Take, Changes and Restore, want 1", n)
	}
	if entries, _ := os.ReadDir(sockets); len(entries) != 1 {
		t.Errorf("control sockets: %v", entries)
	}

	if err := h.CloseShared(ctx); err != nil {
		t.Fatal(err)
	}
	waitGone(t, "the master connection", nil, sockets)
	if err := h.CloseShared(ctx); err != nil {
		t.Fatalf("closing again: %v", err)
	}
	// The next command makes a new master.
	if _, err := h.GitRunner().Git(ctx, f.dir, nil, nil, "rev-parse", "HEAD"); err != nil {
		t.Fatal(err)
	}
	if _, err := srv.Host().SharedConnections(strings.Repeat("x", 61), time.Minute); err == nil {
		t.Error("a socket folder too long for a socket path was taken")
	}
}

func TestGitConnectionLostWhileGitRuns(t *testing.T) {
	t.Parallel()
	srv := sshtest.Start(t, sshtest.Options{})
	ctx := testContext(t)
	f := newHostRepo(t, srv, "lost", map[string]string{"a.txt": "a\n"})
	writeFiles(t, f.dir, map[string]string{"a.txt": "b\n"})
	if err := f.repo.StageFile(ctx, "a.txt"); err != nil {
		t.Fatal(err)
	}
	// A hook that says it started, then waits until the test lets it go
	// (git goes on after the connection is cut: no terminal, no hangup).
	started, stop, ended := filepath.Join(srv.Dir, "hook started"), filepath.Join(srv.Dir, "hook stop"), filepath.Join(srv.Dir, "hook ended")
	hook := filepath.Join(f.dir, ".git", "hooks", "pre-commit")
	body := fmt.Sprintf("#!/bin/sh\n: > %s\nwhile [ ! -e %s ]; do sleep 0.05; done\n: > %s\nexit 1\n",
		remote.QuoteShell(started), remote.QuoteShell(stop), remote.QuoteShell(ended))
	if err := os.WriteFile(hook, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		os.WriteFile(stop, nil, 0o644)
		testsupport.Eventually(t, "the hook ends", func() bool {
			_, err := os.Stat(ended)
			return err == nil
		})
	})
	done := make(chan error, 1)
	go func() {
		_, err := f.repo.Commit(ctx, "cut")
		done <- err
	}()
	testsupport.Eventually(t, "the hook starts", func() bool {
		_, err := os.Stat(started)
		return err == nil
	})
	if srv.KillSessions(syscall.SIGKILL) == 0 {
		t.Fatal("no session to kill")
	}
	err := <-done
	var ge *gitwork.GitError
	var re *remote.Error
	if !errors.As(err, &ge) || !errors.As(ge.Err, &re) || re.Kind != remote.ConnectionLost {
		t.Fatalf("a connection cut while git ran: %#v", err)
	}
	t.Logf("connection cut: %v", err)
}

// BenchmarkGitTake is one checkpoint of a small repository over ssh to the
// fixture on this machine: each git command is one connection.
func BenchmarkGitTake(b *testing.B) {
	srv := sshtest.Start(b, sshtest.Options{})
	dir := filepath.Join(srv.Home, "bench")
	mkdir2(b, dir)
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"config", "user.name", "T"}, {"config", "user.email", "t@x"}} {
		if out, err := gitHere(dir, args...); err != nil {
			b.Fatalf("%v %s", err, out)
		}
	}
	for i := 0; i < 50; i++ {
		if err := os.WriteFile(filepath.Join(dir, "f"+strings.Repeat("x", i%7)+string(rune('a'+i%26))+".txt"), []byte(strings.Repeat("line\n", i)), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	if out, err := gitHere(dir, "add", "-A"); err != nil {
		b.Fatalf("%v %s", err, out)
	}
	if out, err := gitHere(dir, "commit", "-q", "-m", "start"); err != nil {
		b.Fatalf("%v %s", err, out)
	}
	ctx := context.Background()
	repo, err := gitwork.Open(ctx, srv.Host().GitRunner(), dir, gitwork.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("Take", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := repo.Take(ctx, "bench", gitwork.BeforePrompt, i); err != nil {
				b.Fatal(err)
			}
		}
	})
	// One git command: the cost of a connection.
	b.Run("rev-parse", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := srv.Host().GitRunner().Git(ctx, dir, nil, nil, "rev-parse", "HEAD"); err != nil {
				b.Fatal(err)
			}
		}
	})
	shared, err := srv.Host().SharedConnections(b.TempDir(), time.Minute)
	if err != nil {
		b.Fatal(err)
	}
	defer shared.CloseShared(ctx)
	repo, err = gitwork.Open(ctx, shared.GitRunner(), dir, gitwork.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("Take/shared", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := repo.Take(ctx, "bench", gitwork.BeforePrompt, i); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("rev-parse/shared", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := shared.GitRunner().Git(ctx, dir, nil, nil, "rev-parse", "HEAD"); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func mkdir2(b *testing.B, dir string) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
}

func gitHere(dir string, args ...string) ([]byte, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	return cmd.CombinedOutput()
}
