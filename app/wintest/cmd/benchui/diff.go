package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"knightcode.ai/desktop/app/wintest"
)

// diffRounds is how many times the changes pane is opened on the big diff.
const diffRounds = 7

// bigDiff measures the changes pane on a 20,000-line diff (a file of
// 10,000 lines, every one changed): Ctrl+Shift+G → git answered → the diff
// drawn → painted. The target is the painting after git answered; its
// floor is a frame of the bare focused window (keypress → echo).
func (b *bench) bigDiff() error {
	repo := filepath.Join(b.out, "diff-repo") // not under "diff": start empties that
	if err := makeDiffRepo(repo, 10000); err != nil {
		return err
	}
	args := wintest.AppArgs(b.fake, repo, "--fake-log="+filepath.Join(b.out, "diff", "fake-log.jsonl"), "--no-session")
	w, err := b.start("diff", b.app, b.display, args)
	if err != nil {
		return err
	}
	w.x = b.x
	if w.id, err = w.p.FindWindow("KnightCode", 60*time.Second); err != nil {
		return err
	}
	defer b.stop(w)
	settle(w, 30*time.Second)
	if err := w.p.Focus(w.id); err != nil {
		return err
	}
	var toGit, gitToPaint, keyToPaint []time.Duration
	rows := 0
	for i := 0; i < diffRounds; i++ {
		time.Sleep(500 * time.Millisecond)
		sent := time.Now()
		if _, err := w.p.Xdotool("key", "ctrl+shift+g"); err != nil {
			return err
		}
		git, ok := w.tr.WaitMark("changes-git", sent, nil, 60*time.Second, 200*time.Microsecond)
		if !ok {
			return fmt.Errorf("round %d: git never answered the changes pane", i+1)
		}
		drawn, ok := w.tr.WaitMark("changes-drawn", git.T, nil, 30*time.Second, 200*time.Microsecond)
		if !ok {
			return fmt.Errorf("round %d: the changes were never drawn", i+1)
		}
		painted, ok := w.tr.WaitMark("changes-painted", drawn.T, nil, 30*time.Second, 200*time.Microsecond)
		if !ok {
			return fmt.Errorf("round %d: the diff was never painted", i+1)
		}
		rows = git.N()
		toGit = append(toGit, git.T.Sub(sent))
		gitToPaint = append(gitToPaint, painted.T.Sub(git.T))
		keyToPaint = append(keyToPaint, painted.T.Sub(sent))
	}
	b.screenshot(w)
	floor, err := b.floorKeys()
	if err != nil {
		return err
	}
	slices.Sort(toGit)
	slices.Sort(gitToPaint)
	slices.Sort(keyToPaint)
	mid := diffRounds / 2
	b.logf("diff: %d rows; Ctrl+Shift+G → git answered %v; git → painted %v; key → painted %v (medians of %d)",
		rows, toGit[mid], gitToPaint[mid], keyToPaint[mid], diffRounds)
	b.info("9", fmt.Sprintf("changes pane: Ctrl+Shift+G → git answered, %d-row diff", rows), ms(toGit[mid]), "-", "-")
	b.add("9", fmt.Sprintf("changes pane: git answered → %d-row diff painted, median", rows), "≤ 200 ms",
		ms(gitToPaint[mid]), ms(floor.p50)+" (a frame: key → echo)", "-", verdict(gitToPaint[mid] <= 200*time.Millisecond))
	b.info("9", "changes pane: Ctrl+Shift+G → painted, median / max", ms(keyToPaint[mid])+" / "+ms(keyToPaint[len(keyToPaint)-1]), "-", "-")
	return nil
}

// makeDiffRepo makes a repository whose one file has every one of its
// lines changed since the commit.
func makeDiffRepo(dir string, lines int) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var before, after strings.Builder
	for i := 0; i < lines; i++ {
		fmt.Fprintf(&before, "func line%d() int { return %d }\n", i, i)
		fmt.Fprintf(&after, "func line%d() int { return %d + 1 }\n", i, i)
	}
	file := filepath.Join(dir, "big.go")
	if err := os.WriteFile(file, []byte(before.String()), 0o644); err != nil {
		return err
	}
	for _, args := range [][]string{
		{"init", "-q", "-b", "main"}, {"add", "big.go"},
		{"-c", "user.name=Bench", "-c", "user.email=bench@example.invalid", "commit", "-q", "-m", "start"},
	} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("git %v: %v: %s", args, err, out)
		}
	}
	return os.WriteFile(file, []byte(after.String()), 0o644)
}
