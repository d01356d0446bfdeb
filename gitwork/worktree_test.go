package gitwork

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestWorktreeLife(t *testing.T) {
	f := newRepo(t, map[string]string{"a.txt": "a\n"})
	ctx := ctxT(t)
	if err := f.repo.CheckBranchName(ctx, "bad..name"); err == nil {
		t.Fatal("bad..name accepted")
	}
	if err := f.repo.CheckBranchName(ctx, "-x"); err == nil {
		t.Fatal("-x accepted")
	}
	dir := filepath.Join(t.TempDir(), "work tree ü 'q'")
	w, err := f.repo.AddWorktree(ctx, "agent/try-1", dir)
	if err != nil {
		t.Fatal(err)
	}
	if w.Base != "main" || w.Branch != "agent/try-1" {
		t.Fatalf("worktree: %+v", w)
	}
	wt, err := Open(ctx, Local{}, dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, ok := wt.OpenWorktree(ctx)
	if !ok || got.Branch != w.Branch || got.Base != "main" {
		t.Fatalf("OpenWorktree: %+v %v", got, ok)
	}
	if _, ok := f.repo.OpenWorktree(ctx); ok {
		t.Fatal("the main folder taken for a worktree of ours")
	}
	// the agent works there, and a checkpoint there is the worktree's own
	if err := os.WriteFile(filepath.Join(dir, "b.txt"), []byte("b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := wt.Take(ctx, "s", BeforePrompt, 1); err != nil {
		t.Fatal(err)
	}
	left, err := wt.Uncommitted(ctx)
	if err != nil || len(left) != 1 || left[0] != "b.txt" {
		t.Fatalf("uncommitted: %q %v", left, err)
	}
	if err := wt.RemoveWorktree(ctx, w, false, true); err == nil {
		t.Fatal("a worktree with uncommitted files removed without force")
	}
	if err := wt.StageFile(ctx, "b.txt"); err != nil {
		t.Fatal(err)
	}
	if _, err := wt.Commit(ctx, "b from the agent"); err != nil {
		t.Fatal(err)
	}
	if err := wt.MergeInto(ctx, w); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(f.dir, "b.txt")); err != nil || string(b) != "b\n" {
		t.Fatalf("merged into main: %q %v", b, err)
	}
	if err := wt.RemoveWorktree(ctx, w, false, true); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("worktree folder left: %v", err)
	}
	if out := f.sh("git", "branch", "--list"); strings.Contains(out, "agent/try-1") {
		t.Fatalf("branch left: %s", out)
	}
}

func TestMergeConflictIsTakenBack(t *testing.T) {
	f := newRepo(t, map[string]string{"a.txt": "a\n"})
	ctx := ctxT(t)
	dir := filepath.Join(t.TempDir(), "wt")
	w, err := f.repo.AddWorktree(ctx, "agent/conflict", dir)
	if err != nil {
		t.Fatal(err)
	}
	wt, _ := Open(ctx, Local{}, dir, Options{})
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("agent\n"), 0o644)
	wt.StageFile(ctx, "a.txt")
	if _, err := wt.Commit(ctx, "agent's a"); err != nil {
		t.Fatal(err)
	}
	f.write(map[string]string{"a.txt": "user\n"})
	f.sh("git", "commit", "-q", "-am", "user's a")
	var ge *GitError
	if err := f.repo.MergeInto(ctx, w); !errors.As(err, &ge) || !strings.Contains(ge.Words()+ge.Stderr, "onflict") {
		t.Fatalf("merge with a conflict: %v", err)
	}
	if got := f.files()["a.txt"]; got != "user\n" {
		t.Fatalf("the failed merge was not taken back: %q", got)
	}
}

// The user's own merge under way in the base's worktree is theirs: a
// worktree's merge refuses and leaves it as it was.
func TestMergeLeavesTheUsersMergeAlone(t *testing.T) {
	f := newRepo(t, map[string]string{"a.txt": "a\n"})
	ctx := ctxT(t)
	w, err := f.repo.AddWorktree(ctx, "agent/x", filepath.Join(t.TempDir(), "wt"))
	if err != nil {
		t.Fatal(err)
	}
	f.sh("git", "checkout", "-q", "-b", "other")
	f.write(map[string]string{"a.txt": "other\n"})
	f.sh("git", "commit", "-q", "-am", "other's a")
	f.sh("git", "checkout", "-q", "main")
	f.write(map[string]string{"a.txt": "main\n"})
	f.sh("git", "commit", "-q", "-am", "main's a")
	cmd := exec.Command("git", "merge", "other")
	cmd.Dir = f.dir
	_ = cmd.Run() // stops on the conflict: the user's merge under way
	if err := f.repo.MergeInto(ctx, w); err == nil || !strings.Contains(err.Error(), "already under way") {
		t.Fatalf("merge during the user's: %v", err)
	}
	f.sh("git", "rev-parse", "-q", "--verify", "MERGE_HEAD") // still there
}
