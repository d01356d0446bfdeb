// Command gitbench prints what the changes pane and the checkpoints cost on
// a generated repository (50,000 files, 2,000 of them changed), each
// figure beside what a plain git command takes on the same repository in
// the same run. scripts/bench-git.sh runs it.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"knightcode.ai/desktop/gitwork"
)

func main() {
	files := flag.Int("files", 50000, "files in the generated repository")
	changed := flag.Int("changed", 2000, "files changed after the commit")
	diffLines := flag.Int("big-lines", 10000, "lines of the big file, every one changed: its diff has twice as many")
	rounds := flag.Int("rounds", 5, "timings of each figure (the median is printed)")
	keep := flag.String("dir", "", "make the repository here and keep it (default: a temporary folder)")
	flag.Parse()
	dir := *keep
	if dir == "" {
		d, err := os.MkdirTemp("", "gitbench-")
		check(err)
		defer os.RemoveAll(d)
		dir = d
	}
	ctx := context.Background()
	start := time.Now()
	generate(dir, *files, *changed, *diffLines)
	fmt.Printf("repository: %d files, %d changed, made in %s (%s)\n", *files, *changed, time.Since(start).Round(time.Millisecond), dir)

	repo, err := gitwork.Open(ctx, gitwork.Local{}, dir, gitwork.Options{})
	check(err)
	// git status first: it refreshes the user's index, as any git command
	// the user ran would have, and the plain figures below start there too.
	plain(dir, "status", "--porcelain")
	_ = os.Remove(filepath.Join(dir, ".git", "knightcode-index"))

	var rows [][3]string
	row := func(what string, ours, floor time.Duration, floorWhat string) {
		rows = append(rows, [3]string{what, ms(ours), ms(floor) + "  " + floorWhat})
	}

	// The first checkpoint of a process, with no index of ours kept yet.
	first := timed(func() { _, err := repo.Take(ctx, "bench", gitwork.BeforePrompt, 1); check(err) })
	next := median(*rounds, func() { _, err := repo.Take(ctx, "bench", gitwork.BeforePrompt, 2); check(err) })
	stash := median(*rounds, func() { plain(dir, "stash", "create") })
	row("checkpoint, first", first, stash, "git stash create (tracked files only)")
	row("checkpoint, next", next, stash, "git stash create (tracked files only)")

	status := median(*rounds, func() { plain(dir, "status", "--porcelain", "-uall") })
	listed := median(*rounds, func() {
		_, list, err := repo.Changes(ctx, "")
		check(err)
		if len(list) < *changed {
			panic(fmt.Sprintf("listed %d changes", len(list)))
		}
	})
	row("changes pane listed (against HEAD, line counts)", listed, status, "git status --porcelain -uall")

	cp, err := repo.Take(ctx, "bench", gitwork.BeforePrompt, 3)
	check(err)
	present, _, err := repo.Changes(ctx, cp.Commit)
	check(err)
	var d gitwork.FileDiff
	big := median(*rounds, func() {
		d, err = repo.Diff(ctx, "", present, "big.txt", "")
		check(err)
	})
	plainDiff := median(*rounds, func() { plain(dir, "diff", "--no-color", "HEAD", "--", "big.txt") })
	lines := 0
	for _, h := range d.Hunks {
		lines += len(h.Lines)
	}
	row(fmt.Sprintf("%d-line diff read and split (%d hunks)", lines, len(d.Hunks)), big, plainDiff, "git diff HEAD -- big.txt")

	// Restore: back to HEAD's files (2,000 change), then the undo.
	head, err := repo.Take(ctx, "bench", gitwork.BeforePrompt, 4)
	check(err)
	plain(dir, "stash", "-q", "-u")
	atHead, err := repo.Take(ctx, "bench", gitwork.BeforePrompt, 5)
	check(err)
	plain(dir, "stash", "pop", "-q")
	var restore, undo []time.Duration
	var checkout []time.Duration
	for i := 0; i < *rounds; i++ {
		var u gitwork.Checkpoint
		restore = append(restore, timed(func() { u, err = repo.Restore(ctx, atHead); check(err) }))
		undo = append(undo, timed(func() { _, err = repo.Restore(ctx, u); check(err) }))
		// the same files moved by plain git: stash (tracked and untracked) and back
		checkout = append(checkout, timed(func() { plain(dir, "stash", "-q", "-u") }))
		plain(dir, "stash", "pop", "-q")
	}
	_ = head
	row("restore of a checkpoint (2,000 files change)", med(restore), med(checkout), "git stash -u")
	row("undo of that restore", med(undo), med(checkout), "git stash -u")

	w := 0
	for _, r := range rows {
		w = max(w, len(r[0]))
	}
	fmt.Printf("\n%-*s  %10s  %s\n", w, "figure (median of "+fmt.Sprint(*rounds)+")", "ours", "plain git, same repository")
	for _, r := range rows {
		fmt.Printf("%-*s  %10s  %s\n", w, r[0], r[1], r[2])
	}
}

func generate(dir string, files, changed, diffLines int) {
	check(os.MkdirAll(dir, 0o755))
	if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
		return // kept from an earlier run
	}
	plain(dir, "init", "-q", "-b", "main")
	plain(dir, "config", "user.name", "Bench")
	plain(dir, "config", "user.email", "bench@example.invalid")
	for i := 0; i < files; i++ {
		p := filepath.Join(dir, fmt.Sprintf("src/d%03d/f%05d.go", i/100, i))
		check(os.MkdirAll(filepath.Dir(p), 0o755))
		check(os.WriteFile(p, []byte(fmt.Sprintf("package d%03d\n\n// File %d.\nfunc F%d() int { return %d }\n", i/100, i, i, i)), 0o644))
	}
	var b strings.Builder
	for i := 0; i < diffLines; i++ {
		fmt.Fprintf(&b, "line %d of the big file\n", i)
	}
	check(os.WriteFile(filepath.Join(dir, "big.txt"), []byte(b.String()), 0o644))
	plain(dir, "add", "-A")
	plain(dir, "commit", "-q", "-m", "generated")
	// 2,000 changes: most edited, some new, some deleted, and every line
	// of the big file.
	check(os.MkdirAll(filepath.Join(dir, "src/new"), 0o755))
	for i := 0; i < changed-1; i++ {
		p := filepath.Join(dir, fmt.Sprintf("src/d%03d/f%05d.go", (i*7%files)/100, i*7%files))
		switch {
		case i%10 == 0:
			check(os.WriteFile(filepath.Join(dir, fmt.Sprintf("src/new/n%05d.go", i)), []byte(fmt.Sprintf("package n%d\n", i)), 0o644))
		case i%10 == 1:
			check(os.Remove(p))
		default:
			check(os.WriteFile(p, []byte("package changed\n"), 0o644))
		}
	}
	check(os.WriteFile(filepath.Join(dir, "big.txt"), []byte(strings.ReplaceAll(b.String(), "line", "LINE")), 0o644))
}

func plain(dir string, args ...string) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		panic(fmt.Sprintf("git %v: %v\n%s", args, err, out))
	}
}

func timed(f func()) time.Duration {
	t := time.Now()
	f()
	return time.Since(t)
}

func median(n int, f func()) time.Duration {
	var ds []time.Duration
	for i := 0; i < n; i++ {
		ds = append(ds, timed(f))
	}
	return med(ds)
}

func med(ds []time.Duration) time.Duration {
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	return ds[len(ds)/2]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.0f ms", float64(d)/float64(time.Millisecond)) }

func check(err error) {
	if err != nil {
		panic(err)
	}
}
