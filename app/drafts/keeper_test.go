package drafts

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"knightcode.ai/desktop/internal/testsupport"
)

func openTest(t *testing.T, dir string) *Keeper {
	t.Helper()
	k, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { k.Flush() })
	return k
}

func writes(k *Keeper) int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.writes
}

// settled reports whether nothing waits to be written.
func settled(k *Keeper) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	return !k.dirty && k.timer == nil
}

func onDisk(t *testing.T, dir string) []Draft {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, fileName))
	if err != nil {
		t.Fatal(err)
	}
	var f file
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatalf("drafts.json does not parse: %v", err)
	}
	return f.Drafts
}

func TestDebounceCoalescesSets(t *testing.T) {
	dir := t.TempDir()
	k := openTest(t, dir)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				k.Set("tab", Draft{Place: "/w", Text: string(rune('a'+g)) + string(rune('0'+i%10))})
			}
		}()
	}
	wg.Wait()
	k.Set("tab", Draft{Place: "/w", Text: "last"})
	if n := writes(k); n != 0 {
		t.Fatalf("%d writes before the debounce passed", n)
	}
	testsupport.Eventually(t, "the debounced write", func() bool { return writes(k) > 0 && settled(k) })
	if n := writes(k); n != 1 {
		t.Fatalf("%d writes for 201 Sets", n)
	}
	if d := onDisk(t, dir); len(d) != 1 || d[0].Text != "last" {
		t.Fatalf("on disk %+v", d)
	}
}

func TestFlushWritesAtOnceAndIsIdempotent(t *testing.T) {
	dir := t.TempDir()
	k := openTest(t, dir)
	k.Set("tab", Draft{Place: "/w", Text: "typed", Queued: []string{"steer me"}})
	if err := k.Flush(); err != nil {
		t.Fatal(err)
	}
	if d := onDisk(t, dir); len(d) != 1 || d[0].Text != "typed" || len(d[0].Queued) != 1 {
		t.Fatalf("on disk %+v", d)
	}
	if err := k.Flush(); err != nil || writes(k) != 1 {
		t.Fatalf("second Flush: %v, %d writes", err, writes(k))
	}
	// An empty draft removes the entry.
	k.Set("tab", Draft{Place: "/w"})
	k.Flush()
	if d := onDisk(t, dir); len(d) != 0 {
		t.Fatalf("an empty draft kept: %+v", d)
	}
}

// A new keeper on the same folder, with no Flush (the app was killed once
// the debounce passed), finds the draft.
func TestReopenWithoutFlushFindsDraft(t *testing.T) {
	dir := t.TempDir()
	k := openTest(t, dir)
	k.Set("tab", Draft{Place: "/w", Session: "/s/1.jsonl", Text: "not lost"})
	testsupport.Eventually(t, "the debounced write", func() bool { return writes(k) == 1 })
	again := openTest(t, dir)
	d, ok := again.Claim("/w", "/s/1.jsonl")
	if !ok || d.Text != "not lost" || d.ID != "tab" {
		t.Fatalf("claimed %+v, %v", d, ok)
	}
}

func TestClaimByPlaceAndSession(t *testing.T) {
	k := openTest(t, t.TempDir())
	now := time.Now()
	clock := now
	k.now = func() time.Time { clock = clock.Add(time.Second); return clock }
	k.Set("a", Draft{Place: "/w", Session: "/s/a", Text: "a"})
	k.Set("b", Draft{Place: "/w", Session: "/s/b", Text: "b"})
	k.Set("none", Draft{Place: "/w", Text: "no session yet"})
	k.Set("other", Draft{Place: "host:/w", Session: "/s/b", Text: "elsewhere"})

	if _, ok := k.Claim("/elsewhere", ""); ok {
		t.Fatal("claimed a draft of another place")
	}
	if d, ok := k.Claim("/w", "/s/a"); !ok || d.Text != "a" {
		t.Fatalf("by session: %+v %v", d, ok)
	}
	// An unknown session takes the place's draft without a session.
	if d, ok := k.Claim("/w", "/s/new"); !ok || d.Text != "no session yet" {
		t.Fatalf("unknown session: %+v %v", d, ok)
	}
	if _, ok := k.Claim("/w", "/s/new"); ok {
		t.Fatal("claimed another session's draft")
	}
	// "" takes the newest of the place; a claimed draft is gone.
	k.Set("c", Draft{Place: "/w", Session: "/s/c", Text: "newest"})
	if d, ok := k.Claim("/w", ""); !ok || d.Text != "newest" {
		t.Fatalf("newest: %+v %v", d, ok)
	}
	if d, ok := k.Claim("/w", ""); !ok || d.Text != "b" {
		t.Fatalf("next newest: %+v %v", d, ok)
	}
	if d, ok := k.Claim("host:/w", "/s/b"); !ok || d.Text != "elsewhere" {
		t.Fatalf("remote place: %+v %v", d, ok)
	}
}

func TestClosedDraftsAreListedNotClaimed(t *testing.T) {
	dir := t.TempDir()
	k := openTest(t, dir)
	k.Set("open", Draft{Place: "/w", Title: "open tab", Text: "x"})
	k.Set("shut", Draft{Place: "/w", Title: "closed tab", Text: "y"})
	k.Close("shut")
	k.Flush()
	again := openTest(t, dir)
	kept := again.Kept()
	if len(kept) != 2 || kept[0].ID != "shut" || !kept[0].Closed || kept[1].Closed {
		t.Fatalf("kept %+v", kept)
	}
	if d, ok := again.Claim("/w", ""); !ok || d.ID != "open" {
		t.Fatalf("claimed %+v", d)
	}
	if _, ok := again.Claim("/w", ""); ok {
		t.Fatal("claimed a closed tab's draft")
	}
	if d, ok := again.Take("shut"); !ok || d.Text != "y" || len(again.Kept()) != 0 {
		t.Fatalf("take %+v %v", d, ok)
	}
}

func TestCorruptFileIsSetAside(t *testing.T) {
	dir := t.TempDir()
	junk := []byte(`{"version":1,"drafts":[{"id":"x","te`)
	os.WriteFile(filepath.Join(dir, fileName), junk, 0o600)
	k := openTest(t, dir)
	if len(k.Kept()) != 0 || k.Err() != nil {
		t.Fatalf("kept %+v, err %v", k.Kept(), k.Err())
	}
	if got, err := os.ReadFile(filepath.Join(dir, unreadableName)); err != nil || !bytes.Equal(got, junk) {
		t.Fatalf("set aside %q, %v", got, err)
	}
	k.Set("tab", Draft{Place: "/w", Text: "fresh"})
	if err := k.Flush(); err != nil || len(onDisk(t, dir)) != 1 {
		t.Fatalf("after the corrupt file: %v", err)
	}
}

// A write that fails leaves the old file whole, no temporary file, and
// sets Err; the next Flush tries again.
func TestFailedWriteKeepsOldFile(t *testing.T) {
	dir := t.TempDir()
	k := openTest(t, dir)
	k.Set("tab", Draft{Place: "/w", Text: "old"})
	if err := k.Flush(); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(filepath.Join(dir, fileName))

	broken := errors.New("disk full")
	k.rename = func(string, string) error { return broken }
	k.Set("tab", Draft{Place: "/w", Text: "new"})
	if err := k.Flush(); !errors.Is(err, broken) || !errors.Is(k.Err(), broken) {
		t.Fatalf("Flush %v, Err %v", err, k.Err())
	}
	after, _ := os.ReadFile(filepath.Join(dir, fileName))
	if !bytes.Equal(before, after) {
		t.Fatalf("the old file changed:\n%s", after)
	}
	if temps, _ := filepath.Glob(filepath.Join(dir, tempPrefix+"*")); len(temps) != 0 {
		t.Fatalf("temporary files left: %q", temps)
	}

	k.rename = os.Rename
	if err := k.Flush(); err != nil || k.Err() != nil {
		t.Fatalf("retry: %v, %v", err, k.Err())
	}
	if d := onDisk(t, dir); len(d) != 1 || d[0].Text != "new" {
		t.Fatalf("after the retry %+v", d)
	}
}

// A folder the keeper cannot write in (as a user other than root) fails
// the same way.
func TestReadOnlyFolderKeepsOldFile(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes in read-only folders")
	}
	dir := t.TempDir()
	k := openTest(t, dir)
	k.Set("tab", Draft{Place: "/w", Text: "old"})
	k.Flush()
	os.Chmod(dir, 0o500)
	t.Cleanup(func() { os.Chmod(dir, 0o700) })
	k.Set("tab", Draft{Place: "/w", Text: "new"})
	if err := k.Flush(); err == nil || k.Err() == nil {
		t.Fatal("a write into a read-only folder succeeded")
	}
	if d := onDisk(t, dir); len(d) != 1 || d[0].Text != "old" {
		t.Fatalf("on disk %+v", d)
	}
}

func TestImagesAreCopiedAndSwept(t *testing.T) {
	dir := t.TempDir()
	k := openTest(t, dir)
	outside := filepath.Join(t.TempDir(), "shot.png")
	os.WriteFile(outside, []byte("png bytes"), 0o600)
	k.Set("tab", Draft{Place: "/w", Images: []Image{
		{Name: "pasted.png", Data: []byte("pasted bytes"), MimeType: "image/png"},
		{Name: "shot.png", Path: outside},
	}})
	if err := k.Flush(); err != nil {
		t.Fatal(err)
	}
	os.Remove(outside) // the user deletes the file: the draft keeps its copy
	imgs := onDisk(t, dir)[0].Images
	if len(imgs) != 2 {
		t.Fatalf("images %+v", imgs)
	}
	for i, want := range []string{"pasted bytes", "png bytes"} {
		got, err := os.ReadFile(imgs[i].Path)
		if err != nil || string(got) != want || !ownImage(dir, imgs[i].Path) {
			t.Fatalf("image %d at %q: %q %v", i, imgs[i].Path, got, err)
		}
	}
	if kept := k.Kept()[0].Images[0]; kept.Data != nil || kept.Path != imgs[0].Path {
		t.Fatalf("the keeper holds %+v after the write", kept)
	}
	orphan := filepath.Join(dir, imagesDir, "0123abcd")
	os.MkdirAll(orphan, 0o700)
	os.WriteFile(filepath.Join(orphan, "gone.png"), []byte("x"), 0o600)

	again := openTest(t, dir)
	if _, err := os.Stat(orphan); !os.IsNotExist(err) {
		t.Fatalf("an image no draft refers to was kept: %v", err)
	}
	for _, im := range again.Kept()[0].Images {
		if _, err := os.Stat(im.Path); err != nil {
			t.Fatalf("a draft's image was swept: %v", err)
		}
	}
	// Once its draft is gone, the next Open sweeps its images too.
	again.Set("tab", Draft{Place: "/w"})
	again.Flush()
	openTest(t, dir)
	if entries, _ := os.ReadDir(filepath.Join(dir, imagesDir)); len(entries) != 0 {
		t.Fatalf("images left: %v", entries)
	}
}

func TestOldDraftsAreDroppedAtOpen(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	data, _ := json.Marshal(file{Version: fileVersion, Drafts: []Draft{
		{ID: "old", Place: "/w", Text: "from last season", Updated: now.Add(-61 * 24 * time.Hour)},
		{ID: "recent", Place: "/w", Text: "last week", Updated: now.Add(-7 * 24 * time.Hour)},
	}})
	os.WriteFile(filepath.Join(dir, fileName), data, 0o600)
	k := openTest(t, dir)
	if kept := k.Kept(); len(kept) != 1 || kept[0].ID != "recent" {
		t.Fatalf("kept %+v", kept)
	}
	if d := onDisk(t, dir); len(d) != 1 || d[0].ID != "recent" {
		t.Fatalf("on disk %+v", d)
	}
}

// TestTwoKeepersOneFolder: two instances of the app keep their drafts in
// one folder. Neither write loses the other's drafts, a draft one removes
// (sent, claimed) stays removed after the other writes, and a draft both
// read at open and one claimed is not written back by the other.
func TestTwoKeepersOneFolder(t *testing.T) {
	dir := t.TempDir()
	seed := openTest(t, dir)
	seed.Set("old", Draft{Place: "/w", Text: "from before"})
	seed.Flush()

	a, b := openTest(t, dir), openTest(t, dir)
	a.Set("a1", Draft{Place: "/a", Text: "typed in A"})
	a.Flush()
	b.Set("b1", Draft{Place: "/b", Text: "typed in B"})
	b.Flush()
	ids := func() (out []string) {
		for _, d := range onDisk(t, dir) {
			out = append(out, d.ID+"="+d.Text)
		}
		return out
	}
	if got := ids(); !slices.Equal(got, []string{"a1=typed in A", "b1=typed in B", "old=from before"}) {
		t.Fatalf("after both wrote: %q", got)
	}

	// A claims the old draft and A's user sends theirs; B then writes.
	if d, ok := a.Claim("/w", ""); !ok || d.Text != "from before" {
		t.Fatalf("claim %+v %v", d, ok)
	}
	a.Set("a1", Draft{})
	a.Flush()
	b.Set("b1", Draft{Place: "/b", Text: "typed more in B"})
	b.Flush()
	if got := ids(); !slices.Equal(got, []string{"b1=typed more in B"}) {
		t.Fatalf("after A claimed and sent, and B wrote: %q", got)
	}
	// B's list follows the file once it wrote.
	if kept := b.Kept(); len(kept) != 1 || kept[0].ID != "b1" {
		t.Fatalf("B keeps %+v", kept)
	}
}

// TestTwoKeepersWriteAtOnce: many writes of two keepers at the same time
// end with every draft of both on disk.
func TestTwoKeepersWriteAtOnce(t *testing.T) {
	dir := t.TempDir()
	a, b := openTest(t, dir), openTest(t, dir)
	var wg sync.WaitGroup
	for _, k := range []*Keeper{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 30 {
				k.Set(fmt.Sprintf("%p-%d", k, i), Draft{Place: "/w", Text: "words"})
				k.Flush()
			}
		}()
	}
	wg.Wait()
	if n := len(onDisk(t, dir)); n != 60 {
		t.Fatalf("%d drafts on disk, want 60", n)
	}
}
