package gitwork

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// fixture is a real repository made for one test.
type fixture struct {
	t    *testing.T
	dir  string
	repo *Repo
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

func newRepo(t *testing.T, files map[string]string) *fixture {
	t.Helper()
	dir := t.TempDir()
	f := &fixture{t: t, dir: dir}
	f.sh("git", "init", "-q", "-b", "main")
	f.sh("git", "config", "user.name", "Test")
	f.sh("git", "config", "user.email", "test@example.invalid")
	f.sh("git", "config", "commit.gpgsign", "false")
	if len(files) > 0 {
		f.write(files)
		f.sh("git", "add", "-A")
		f.sh("git", "commit", "-q", "-m", "start")
	}
	repo, err := Open(ctxT(t), Local{}, dir, Options{OwnDirs: filepath.Join(t.TempDir(), "own")})
	if err != nil {
		t.Fatal(err)
	}
	f.repo = repo
	return f
}

func (f *fixture) sh(args ...string) string {
	f.t.Helper()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = f.dir
	cmd.Env = withoutInherited(os.Environ())
	out, err := cmd.CombinedOutput()
	if err != nil {
		f.t.Fatalf("%v: %v\n%s", args, err, out)
	}
	return string(out)
}

func (f *fixture) write(files map[string]string) {
	f.t.Helper()
	for name, body := range files {
		p := filepath.Join(f.dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			f.t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			f.t.Fatal(err)
		}
	}
}

func (f *fixture) remove(names ...string) {
	for _, n := range names {
		if err := os.Remove(filepath.Join(f.dir, n)); err != nil {
			f.t.Fatal(err)
		}
	}
}

// files is every file under the folder but .git, with its content.
func (f *fixture) files() map[string]string {
	f.t.Helper()
	got := map[string]string{}
	err := filepath.WalkDir(f.dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if d.IsDir() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(f.dir, p)
		got[filepath.ToSlash(rel)] = string(b)
		return nil
	})
	if err != nil {
		f.t.Fatal(err)
	}
	return got
}

func sameFiles(t *testing.T, what string, got, want map[string]string) {
	t.Helper()
	var diffs []string
	for k, v := range want {
		if g, ok := got[k]; !ok {
			diffs = append(diffs, "missing "+k)
		} else if g != v {
			diffs = append(diffs, "content of "+k+": "+g)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			diffs = append(diffs, "extra "+k)
		}
	}
	sort.Strings(diffs)
	if len(diffs) > 0 {
		t.Fatalf("%s: %s", what, strings.Join(diffs, "; "))
	}
}

// userState is everything of the user's a checkpoint must not touch: the
// index's entries, HEAD, branches, tags, stash.
func (f *fixture) userState() string {
	f.t.Helper()
	var b strings.Builder
	b.WriteString(f.sh("git", "ls-files", "-s", "-z"))
	b.WriteString(f.sh("git", "symbolic-ref", "-q", "HEAD"))
	b.WriteString(f.sh("git", "for-each-ref", "refs/heads", "refs/tags", "refs/stash"))
	b.WriteString(f.sh("git", "stash", "list"))
	return b.String()
}
