package sessionfiles

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"knightcode.ai/desktop/internal/testsupport"
)

// TestCopySessionToFolder: the copy has the header's folder replaced and
// every other line byte for byte; it goes where the agent keeps the new
// folder's sessions; the original is not touched; copying again makes
// another copy, never overwriting one.
func TestCopySessionToFolder(t *testing.T) {
	root := t.TempDir()
	src, oldCwd := testsupport.GoneFixture(t, filepath.Join(root, FolderName("/tmp/TestListSessionsRealPi3184103466/001/work")))
	before, _ := os.ReadFile(src)
	stamp := time.Now().Add(-time.Hour)
	os.Chtimes(src, stamp, stamp)
	here := t.TempDir()

	dst, err := CopyToFolder(src, here)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(root, FolderName(here), filepath.Base(src)); dst != want {
		t.Fatalf("copied to %s, want %s", dst, want)
	}
	after, _ := os.ReadFile(src)
	st, _ := os.Stat(src)
	if !bytes.Equal(before, after) || !st.ModTime().Equal(stamp) {
		t.Fatal("the original changed")
	}
	copied, _ := os.ReadFile(dst)
	oldLines, newLines := bytes.SplitAfter(before, []byte("\n")), bytes.SplitAfter(copied, []byte("\n"))
	if len(oldLines) != len(newLines) {
		t.Fatalf("%d lines copied, the original has %d", len(newLines), len(oldLines))
	}
	wantHeader := strings.Replace(string(oldLines[0]), `"cwd":"`+oldCwd+`"`, `"cwd":"`+here+`"`, 1)
	if string(newLines[0]) != wantHeader {
		t.Fatalf("header\n%s\nwant\n%s", newLines[0], wantHeader)
	}
	for i := 1; i < len(oldLines); i++ {
		if !bytes.Equal(oldLines[i], newLines[i]) {
			t.Fatalf("line %d changed:\n%s\n%s", i+1, oldLines[i], newLines[i])
		}
	}
	if Cwd(dst) != here || FolderGone(Cwd(dst)) {
		t.Fatalf("the copy's folder is %q", Cwd(dst))
	}

	// A flat session folder (--session-dir): beside the original.
	flat := t.TempDir()
	src2, _ := testsupport.GoneFixture(t, flat)
	a, err := CopyToFolder(src2, here)
	if err != nil {
		t.Fatal(err)
	}
	b, err := CopyToFolder(src2, here)
	if err != nil {
		t.Fatal(err)
	}
	stem := strings.TrimSuffix(filepath.Base(src2), ".jsonl")
	if a != filepath.Join(flat, stem+"-copy.jsonl") || b != filepath.Join(flat, stem+"-copy-2.jsonl") {
		t.Fatalf("flat copies %s, %s", a, b)
	}
	infos, _, err := List(t.Context(), []string{flat}, here, false)
	if err != nil || len(infos) != 2 {
		t.Fatalf("this folder lists %d sessions (%v), want the two copies", len(infos), err)
	}
	all, _, _ := List(t.Context(), []string{flat}, here, true)
	var gone int
	for _, in := range all {
		if in.FolderGone {
			gone++
			if in.Path != src2 {
				t.Fatalf("%s marked gone", in.Path)
			}
		}
	}
	if gone != 1 {
		t.Fatalf("%d sessions marked gone, want the original", gone)
	}
}

// TestReadSessionTranscript: the conversation read from a file is what
// the agent loads from it (the fake agent's get_messages, which follows
// pi): the current branch, from the last compaction's summary on.
func TestReadSessionTranscript(t *testing.T) {
	for _, file := range []string{
		filepath.Join("testdata", "sessions", "branches.jsonl"),
		filepath.Join("testdata", "sessions", "pi-0.73.1.jsonl"),
		testsupport.GeneratedSession(t, 300),
	} {
		got, err := ReadTranscript(file)
		if err != nil {
			t.Fatal(err)
		}
		want := testsupport.DecodeMessages(t, testsupport.AnswerMessages(t, file))
		if len(got) != len(want) {
			t.Fatalf("%s: %d messages, the agent loads %d", file, len(got), len(want))
		}
		for i := range got {
			if got[i].Role != want[i].Role || got[i].Content.Text() != want[i].Content.Text() || got[i].Summary != want[i].Summary {
				t.Fatalf("%s: message %d is %s %q, the agent's %s %q", file, i, got[i].Role, got[i].Content.Text(), want[i].Role, want[i].Content.Text())
			}
		}
	}
}
