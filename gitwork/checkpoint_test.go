package gitwork

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// Odd names every action must take as they are.
var oddNames = []string{
	"with space.txt", `quote"d 'and' more.txt`, "new\nline.txt", "-leading-dash.txt",
	"ünïcödé/ファイル.txt", "star*.txt", ":colon.txt", "dir with space/x.txt",
}

func TestCheckpointRestoreAndUndo(t *testing.T) {
	start := map[string]string{"a.txt": "one\ntwo\nthree\n", "gone.txt": "bye\n", "sub/keep.txt": "k\n"}
	for _, n := range oddNames {
		start[n] = "start " + n + "\n"
	}
	f := newRepo(t, start)
	f.write(map[string]string{".gitignore": "*.log\n"})
	f.sh("git", "add", ".gitignore")
	f.sh("git", "commit", "-q", "-m", "ignore logs")
	before := f.files()
	// something staged and a stash entry of the user's, which must survive
	f.write(map[string]string{"a.txt": "one\ntwo\nthree\nstaged\n"})
	f.sh("git", "add", "a.txt")
	f.sh("git", "stash", "-q")
	f.write(map[string]string{"a.txt": "one\ntwo\nthree\nstaged\n", "untracked.txt": "u\n", "ignored.log": "keep me\n"})
	f.sh("git", "add", "a.txt")
	user := f.userState()
	ctx := ctxT(t)

	cp, err := f.repo.Take(ctx, "session-1", BeforePrompt, 1)
	if err != nil {
		t.Fatal(err)
	}
	atCheckpoint := f.files()
	if got := f.userState(); got != user {
		t.Fatalf("taking a checkpoint changed the user's git:\n%s\nwas\n%s", got, user)
	}

	// the agent's turn: edits, a new file, a deletion, odd names
	f.write(map[string]string{"a.txt": "one\nTWO\nthree\nstaged\n", "sub/new.txt": "new\n", "ignored.log": "changed\n"})
	f.remove("gone.txt", "untracked.txt")
	for _, n := range oddNames {
		f.write(map[string]string{n: "edited " + n + "\n"})
	}
	afterTurn := f.files()

	undo, err := f.repo.Restore(ctx, cp)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for k, v := range atCheckpoint {
		want[k] = v
	}
	want["ignored.log"] = "changed\n" // ignored files are not the checkpoint's
	sameFiles(t, "after restore", f.files(), want)
	if _, err := os.Stat(filepath.Join(f.dir, "sub/new.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a file made after the checkpoint is still there: %v", err)
	}
	if got := f.userState(); got != user {
		t.Fatalf("restoring changed the user's git:\n%s\nwas\n%s", got, user)
	}
	if undo.Kind != BeforeRestore || undo.Commit == "" {
		t.Fatalf("undo checkpoint: %+v", undo)
	}

	if _, err := f.repo.Restore(ctx, undo); err != nil {
		t.Fatal(err)
	}
	sameFiles(t, "after undoing the restore", f.files(), afterTurn)
	_ = before

	list, err := f.repo.Checkpoints(ctx, "session-1")
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 3 || list[0].Commit != cp.Commit || list[1].Kind != BeforeRestore || list[0].Turn != 1 {
		t.Fatalf("checkpoints: %+v", list)
	}
	if c, ok := BeforeTurn(list, 1); !ok || c.Commit != cp.Commit {
		t.Fatalf("BeforeTurn(1) = %+v %v", c, ok)
	}
	if out := f.sh("git", "branch", "--list"); strings.Contains(out, "knightcode") {
		t.Fatalf("a checkpoint shows as a branch: %s", out)
	}
}

func TestCheckpointInEmptyRepoAndFolderOutsideGit(t *testing.T) {
	ctx := ctxT(t)
	t.Run("no commit yet", func(t *testing.T) {
		f := newRepo(t, nil)
		f.write(map[string]string{"a.txt": "a\n"})
		cp, err := f.repo.Take(ctx, "s", BeforePrompt, 1)
		if err != nil {
			t.Fatal(err)
		}
		f.write(map[string]string{"a.txt": "changed\n", "b.txt": "b\n"})
		_, files, err := f.repo.Changes(ctx, "")
		if err != nil {
			t.Fatal(err)
		}
		if len(files) != 2 || files[0].Status != Added || files[1].Status != Added {
			t.Fatalf("changes since nothing: %+v", files)
		}
		if _, err := f.repo.Restore(ctx, cp); err != nil {
			t.Fatal(err)
		}
		sameFiles(t, "restored", f.files(), map[string]string{"a.txt": "a\n"})
	})
	t.Run("not a repository", func(t *testing.T) {
		dir := t.TempDir()
		own := filepath.Join(t.TempDir(), "own dirs")
		if _, err := Open(ctx, Local{}, dir, Options{}); !errors.Is(err, ErrNotRepository) {
			t.Fatalf("Open without OwnDirs: %v", err)
		}
		repo, err := Open(ctx, Local{}, dir, Options{OwnDirs: own})
		if err != nil {
			t.Fatal(err)
		}
		if !repo.Own {
			t.Fatal("not marked Own")
		}
		f := &fixture{t: t, dir: dir, repo: repo}
		f.write(map[string]string{"notes.md": "first\n", "-x y.txt": "odd\n"})
		cp, err := repo.Take(ctx, "s", BeforePrompt, 1)
		if err != nil {
			t.Fatal(err)
		}
		f.write(map[string]string{"notes.md": "second\n", "made.txt": "m\n"})
		if _, err := repo.Take(ctx, "s", BeforePrompt, 2); err != nil { // the stat cache's second use
			t.Fatal(err)
		}
		_, files, err := repo.Changes(ctx, cp.Commit)
		if err != nil || len(files) != 2 {
			t.Fatalf("changes: %+v %v", files, err)
		}
		if _, err := repo.Restore(ctx, cp); err != nil {
			t.Fatal(err)
		}
		sameFiles(t, "restored", f.files(), map[string]string{"notes.md": "first\n", "-x y.txt": "odd\n"})
		if _, err := os.Stat(filepath.Join(dir, ".git")); !errors.Is(err, os.ErrNotExist) {
			t.Fatal("the folder got a .git")
		}
		if err := repo.StageFile(ctx, "notes.md"); !errors.Is(err, ErrNoIndex) {
			t.Fatalf("staging outside git: %v", err)
		}
	})
}

func TestCheckpointsAtOnce(t *testing.T) {
	f := newRepo(t, map[string]string{"a.txt": "a\n"})
	ctx := ctxT(t)
	var wg sync.WaitGroup
	errs := make([]error, 6)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f.write(map[string]string{"a.txt": strings.Repeat("x", i) + "\n"})
			_, errs[i] = f.repo.Take(ctx, "s", BeforePrompt, i+1)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("checkpoint %d: %v", i, err)
		}
	}
	list, _ := f.repo.Checkpoints(ctx, "s")
	if len(list) != 6 {
		t.Fatalf("%d checkpoints kept", len(list))
	}
	left, _ := filepath.Glob(filepath.Join(f.dir, ".git", "knightcode-index-*"))
	if len(left) != 0 {
		t.Fatalf("temporary indexes left: %v", left)
	}
}

func TestPrune(t *testing.T) {
	f := newRepo(t, map[string]string{"a.txt": "a\n"})
	ctx := ctxT(t)
	var last Checkpoint
	for _, s := range []string{"old", "open", "recent"} {
		c, err := f.repo.Take(ctx, s, BeforePrompt, 1)
		if err != nil {
			t.Fatal(err)
		}
		last = c
	}
	cut := last.Time.Add(time.Nanosecond)
	if _, err := f.repo.Take(ctx, "recent", BeforePrompt, 2); err != nil {
		t.Fatal(err)
	}
	n, err := f.repo.Prune(ctx, cut, map[string]bool{"open": true})
	if err != nil || n != 1 {
		t.Fatalf("pruned %d sessions, %v", n, err)
	}
	for s, want := range map[string]int{"old": 0, "open": 1, "recent": 2} {
		list, _ := f.repo.Checkpoints(ctx, s)
		if len(list) != want {
			t.Fatalf("%s keeps %d checkpoints, want %d", s, len(list), want)
		}
	}
}

func TestBeforeMessage(t *testing.T) {
	at := func(s int) time.Time { return time.Unix(1000+int64(s), 0) }
	list := []Checkpoint{
		{Commit: "c1", Kind: BeforePrompt, Time: at(1)},  // before message 1 (sent at 2)
		{Commit: "r1", Kind: BeforeRestore, Time: at(3)}, // a restore's undo: never a message's
		{Commit: "c2", Kind: BeforePrompt, Time: at(5)},  // before message 2 (sent at 6)
		{Commit: "c3", Kind: BeforePrompt, Time: at(9)},  // before message 4 (sent at 10); message 3 (sent at 8) had none
	}
	for _, tc := range []struct {
		after, sent time.Time
		want        string
	}{
		{time.Time{}, at(2), "c1"},
		{at(2), at(6), "c2"},
		{at(6), at(8), ""}, // c2 belongs to the message before
		{at(8), at(10), "c3"},
		{time.Time{}, at(0), ""},
	} {
		c, ok := BeforeMessage(list, tc.after, tc.sent)
		if got := c.Commit; got != tc.want || ok != (tc.want != "") {
			t.Errorf("BeforeMessage(after %v, sent %v) = %q %v, want %q", tc.after.Unix(), tc.sent.Unix(), got, ok, tc.want)
		}
	}
}
