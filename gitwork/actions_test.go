package gitwork

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestChangesListsEveryKind(t *testing.T) {
	lines := strings.Repeat("line\n", 40)
	f := newRepo(t, map[string]string{
		"edit.txt": "a\nb\nc\n", "del.txt": "d\n", "old name.txt": lines, "bin.dat": "\x00\x01\x02",
		"run.sh": "#!/bin/sh\n",
	})
	ctx := ctxT(t)
	cp, err := f.repo.Take(ctx, "s", BeforePrompt, 1)
	if err != nil {
		t.Fatal(err)
	}
	f.write(map[string]string{"edit.txt": "a\nB\nc\nd\n", "new\nfile.txt": "n\n", "bin.dat": "\x00\x09"})
	f.remove("del.txt")
	f.sh("git", "mv", "old name.txt", "new name.txt")
	if err := os.Chmod(filepath.Join(f.dir, "run.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, base := range []string{cp.Commit, ""} {
		_, files, err := f.repo.Changes(ctx, base)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]FileChange{}
		for _, c := range files {
			got[c.Path] = c
		}
		check := func(path string, ok bool) {
			t.Helper()
			if !ok {
				t.Fatalf("base %q: %s: %+v (all: %+v)", base, path, got[path], files)
			}
		}
		check("edit.txt", got["edit.txt"].Status == Modified && got["edit.txt"].Added == 2 && got["edit.txt"].Deleted == 1)
		check("del.txt", got["del.txt"].Status == Deleted && got["del.txt"].Deleted == 1)
		check("new\nfile.txt", got["new\nfile.txt"].Status == Added && got["new\nfile.txt"].Added == 1)
		check("new name.txt", got["new name.txt"].Status == Renamed && got["new name.txt"].OldPath == "old name.txt")
		check("bin.dat", got["bin.dat"].Binary)
		check("run.sh", got["run.sh"].ModeOnly)
		if len(files) != 6 {
			t.Fatalf("base %q: %d files: %+v", base, len(files), files)
		}
	}
}

func TestRevertHunkFileAndUndo(t *testing.T) {
	var body strings.Builder
	for i := 1; i <= 30; i++ {
		body.WriteString("line " + string(rune('a'+i%26)) + "\n")
	}
	start := body.String()
	name := "-odd name ü.txt"
	f := newRepo(t, map[string]string{name: start, "other.txt": "o\n"})
	ctx := ctxT(t)
	cp, err := f.repo.Take(ctx, "s", BeforePrompt, 1)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(start, "line b\n", "line B\n", 1)
	edited = strings.Replace(edited, "line y\n", "line Y\nadded\n", 1)
	f.write(map[string]string{name: edited, "made.txt": "m\n"})
	present, _, err := f.repo.Changes(ctx, cp.Commit)
	if err != nil {
		t.Fatal(err)
	}
	d, err := f.repo.Diff(ctx, cp.Commit, present, name, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Hunks) != 2 {
		t.Fatalf("hunks: %+v", d)
	}
	undo, err := f.repo.RevertHunk(ctx, "s", d, 1, name)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(start, "line b\n", "line B\n", 1)
	if got := f.files()[name]; got != want {
		t.Fatalf("after reverting the second hunk:\n%s", got)
	}
	if err := f.repo.UndoRevert(ctx, "s", undo); err != nil {
		t.Fatal(err)
	}
	if got := f.files()[name]; got != edited {
		t.Fatalf("after the undo:\n%s", got)
	}

	// a whole file, and a file that did not exist at the checkpoint
	for _, c := range []FileChange{{Path: name, Status: Modified}, {Path: "made.txt", Status: Added}} {
		undo, err := f.repo.RevertFile(ctx, "s", cp.Commit, c)
		if err != nil {
			t.Fatal(err)
		}
		after := f.files()
		if c.Status == Added {
			if _, ok := after["made.txt"]; ok {
				t.Fatal("made.txt still there after reverting it")
			}
		} else if after[name] != start {
			t.Fatalf("file not reverted:\n%s", after[name])
		}
		if after["other.txt"] != "o\n" {
			t.Fatal("another file changed")
		}
		if err := f.repo.UndoRevert(ctx, "s", undo); err != nil {
			t.Fatal(err)
		}
	}
	sameFiles(t, "after undoing both", f.files(), map[string]string{name: edited, "other.txt": "o\n", "made.txt": "m\n"})
}

func TestStageUnstageCommit(t *testing.T) {
	var body strings.Builder
	for i := 0; i < 30; i++ {
		body.WriteString("l\n")
	}
	start := body.String()
	name := "dir/it's \"odd\".txt"
	f := newRepo(t, map[string]string{name: start})
	ctx := ctxT(t)
	edited := "first\n" + start + "last\n"
	f.write(map[string]string{name: edited, "new one.txt": "n\n"})

	d, err := f.repo.IndexDiff(ctx, name, false)
	if err != nil || len(d.Hunks) != 2 {
		t.Fatalf("unstaged diff: %+v %v", d, err)
	}
	if err := f.repo.StageHunk(ctx, d, 0); err != nil {
		t.Fatal(err)
	}
	if got := f.sh("git", "show", ":"+name); got != "first\n"+start {
		t.Fatalf("index after staging hunk 0:\n%q", got)
	}
	staged, err := f.repo.IndexDiff(ctx, name, true)
	if err != nil || len(staged.Hunks) != 1 {
		t.Fatalf("staged diff: %+v %v", staged, err)
	}
	if err := f.repo.UnstageHunk(ctx, staged, 0); err != nil {
		t.Fatal(err)
	}
	if got := f.sh("git", "show", ":"+name); got != start {
		t.Fatalf("index after unstaging:\n%q", got)
	}
	if err := f.repo.StageFile(ctx, name, "new one.txt"); err != nil {
		t.Fatal(err)
	}
	list, err := f.repo.Staged(ctx)
	if err != nil || len(list) != 2 {
		t.Fatalf("staged: %+v %v", list, err)
	}
	if err := f.repo.UnstageFile(ctx, "new one.txt"); err != nil {
		t.Fatal(err)
	}
	if list, _ := f.repo.Staged(ctx); len(list) != 1 || list[0].Path != name {
		t.Fatalf("staged after unstaging one: %+v", list)
	}

	// a hook that refuses speaks for itself
	hook := filepath.Join(f.dir, ".git", "hooks", "pre-commit")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\necho 'no commits on Sunday' >&2\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err = f.repo.Commit(ctx, "edit the odd file")
	var ge *GitError
	if !errors.As(err, &ge) || !strings.Contains(ge.Words(), "no commits on Sunday") {
		t.Fatalf("refused commit: %v", err)
	}
	if err := os.Remove(hook); err != nil {
		t.Fatal(err)
	}
	commit, err := f.repo.Commit(ctx, "edit the odd file\n\n#123 stays: a line the user wrote")
	if err != nil || commit == "" {
		t.Fatalf("commit: %q %v", commit, err)
	}
	if got := f.sh("git", "log", "-1", "--format=%B"); got != "edit the odd file\n\n#123 stays: a line the user wrote\n\n" {
		t.Fatalf("message: %q", got)
	}
	if got := f.sh("git", "status", "--porcelain", "-z"); got != "?? new one.txt\x00" {
		t.Fatalf("status after commit: %q", got)
	}
}

func TestUnstageBeforeFirstCommit(t *testing.T) {
	f := newRepo(t, nil)
	ctx := ctxT(t)
	f.write(map[string]string{"a.txt": "a\n"})
	if err := f.repo.StageFile(ctx, "a.txt"); err != nil {
		t.Fatal(err)
	}
	if err := f.repo.UnstageFile(ctx, "a.txt"); err != nil {
		t.Fatal(err)
	}
	if got := f.sh("git", "ls-files"); got != "" {
		t.Fatalf("index: %q", got)
	}
}
