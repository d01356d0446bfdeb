package sessionindex

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	_ "modernc.org/sqlite"
)

// twoSessions writes two small sessions and returns their root.
func twoSessions(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	writeSession(t, root, "a.jsonl", headerLine("a", "/p"), msgLine(1, "user", "apple banana"), msgLine(2, "assistant", "cherry"))
	writeSession(t, root, "b.jsonl", headerLine("b", "/p"), msgLine(1, "user", "banana split"))
	return root
}

// checkFound fails unless the index finds what twoSessions wrote.
func checkFound(t *testing.T, x *Index) {
	t.Helper()
	if hits := search(t, x, "banana"); len(hits) != 2 {
		t.Fatalf("banana: %d hits", len(hits))
	}
	if hits := search(t, x, "cherry"); len(hits) != 1 || hits[0].Snippet != "cherry" {
		t.Fatalf("cherry: %+v", hits)
	}
}

func TestCorruptIndexRebuilt(t *testing.T) {
	root := twoSessions(t)
	for _, c := range []struct {
		name   string
		damage func(t *testing.T, path string)
	}{
		{"garbage", func(t *testing.T, path string) {
			os.WriteFile(path, []byte(strings.Repeat("this is no database\n", 500)), 0o600)
		}},
		{"empty", func(t *testing.T, path string) { os.WriteFile(path, nil, 0o600) }},
		{"truncated", func(t *testing.T, path string) {
			st, _ := os.Stat(path)
			os.Truncate(path, st.Size()/2)
		}},
		{"header only", func(t *testing.T, path string) { os.Truncate(path, 100) }},
		{"pages overwritten", func(t *testing.T, path string) {
			// Every page but the first (the schema) is noise.
			data, _ := os.ReadFile(path)
			for i := 4096; i < len(data); i++ {
				data[i] = byte(i*7 + i>>8)
			}
			os.WriteFile(path, data, 0o600)
		}},
		{"old schema", func(t *testing.T, path string) {
			db, err := sql.Open("sqlite", path)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if _, err := db.Exec(`PRAGMA user_version = 1`); err != nil {
				t.Fatal(err)
			}
		}},
		{"other tables", func(t *testing.T, path string) {
			os.Remove(path)
			db, err := sql.Open("sqlite", path)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if _, err := db.Exec(`CREATE TABLE something(x); PRAGMA user_version = 2`); err != nil {
				t.Fatal(err)
			}
		}},
		{"a folder in its place", func(t *testing.T, path string) {
			os.Remove(path)
			os.Mkdir(path, 0o700)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			x, err := Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			update(t, x, root)
			path := x.Path()
			x.Close()
			c.damage(t, path)

			x, err = Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer x.Close()
			st, err := x.Update(context.Background(), []string{root})
			if err != nil {
				t.Fatalf("Update: %v (note %q)", err, x.Note())
			}
			if c.name != "empty" && x.Note() == "" && !st.Rebuilt {
				t.Fatalf("nothing says the index was rebuilt: %+v", st)
			}
			if st.Indexed != 2 {
				t.Fatalf("not indexed again: %+v (note %q)", st, x.Note())
			}
			checkFound(t, x)
			t.Logf("note: %s", x.Note())
		})
	}
}

// TestDamageFoundBySearch: a search that meets a damaged index says so,
// and the next Update rebuilds it.
func TestDamageFoundBySearch(t *testing.T) {
	root := twoSessions(t)
	x := openTest(t)
	update(t, x, root)
	x.broken.Store(true) // what Search does on SQLITE_CORRUPT
	st := update(t, x, root)
	if !st.Rebuilt || st.Indexed != 2 || x.Note() == "" {
		t.Fatalf("%+v, note %q", st, x.Note())
	}
	checkFound(t, x)
}

func TestOpenDirs(t *testing.T) {
	root := twoSessions(t)
	// A folder that does not exist yet.
	deep := filepath.Join(t.TempDir(), "a", "b", "index")
	x, err := Open(deep)
	if err != nil {
		t.Fatal(err)
	}
	if x.Path() != filepath.Join(deep, dbName) || x.Note() != "" {
		t.Fatalf("path %s, note %q", x.Path(), x.Note())
	}
	update(t, x, root)
	checkFound(t, x)
	x.Close()

	// A file where the folder should be: the index goes to a temporary
	// folder, removed at Close.
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, []byte("x"), 0o600)
	x, err = Open(file)
	if err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Dir(x.Path())
	if !strings.HasPrefix(tmp, os.TempDir()) || !strings.Contains(x.Note(), "cannot be kept") {
		t.Fatalf("path %s, note %q", x.Path(), x.Note())
	}
	update(t, x, root)
	checkFound(t, x)
	x.Close()
	if _, err := os.Stat(tmp); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("temporary folder left: %v", err)
	}

	// The default folder is in the user's cache folder.
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	want, err := DefaultDir()
	if err != nil {
		t.Fatal(err)
	}
	cache, _ := os.UserCacheDir()
	if want != filepath.Join(cache, "knightcode-desktop", "index") {
		t.Fatalf("DefaultDir = %s", want)
	}
	x, err = Open("")
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	if x.Path() != filepath.Join(want, dbName) {
		t.Fatalf("Open(\"\") at %s", x.Path())
	}
}

func TestMissingRoots(t *testing.T) {
	root := twoSessions(t)
	x := openTest(t)
	if st := update(t, x, filepath.Join(root, "missing")); st.Files != 0 {
		t.Fatalf("%+v", st)
	}
	update(t, x, root)
	// The sessions folder is gone: so are its sessions.
	gone := root + "-moved"
	if err := os.Rename(root, gone); err != nil {
		t.Fatal(err)
	}
	if st := update(t, x, root); st.Removed != 2 {
		t.Fatalf("%+v", st)
	}
	if hits := search(t, x, "banana"); len(hits) != 0 {
		t.Fatalf("%+v", hits)
	}
	os.Rename(gone, root)
}

func TestClosed(t *testing.T) {
	root := twoSessions(t)
	x, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	update(t, x, root)
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}
	if err := x.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if _, err := x.Search(context.Background(), "banana", 0); !errors.Is(err, ErrClosed) {
		t.Fatalf("Search: %v", err)
	}
	if _, err := x.Update(context.Background(), []string{root}); !errors.Is(err, ErrClosed) {
		t.Fatalf("Update: %v", err)
	}
}

// smallBatches makes every few rows a batch of their own for the test.
func smallBatches(t *testing.T, rows int) {
	old := batchRows
	batchRows = rows
	t.Cleanup(func() { batchRows, testHookBatch = old, nil })
}

// bigSession writes a generated session of about size bytes.
func bigSession(t *testing.T, root, name string, size int64, seed uint64) string {
	t.Helper()
	path := filepath.Join(root, "--proj--", name)
	os.MkdirAll(filepath.Dir(path), 0o755)
	g := newSessionGen(seed)
	if _, err := g.write(path, size, "/home/ada/proj", g.start); err != nil {
		t.Fatal(err)
	}
	return path
}

func entryCount(t *testing.T, x *Index) int {
	t.Helper()
	var n int
	if err := x.rd.QueryRow(`SELECT count(*) FROM entries`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestUpdateCancelled(t *testing.T) {
	root := t.TempDir()
	big := bigSession(t, root, "big.jsonl", 600<<10, 1)
	writeSession(t, root, "small.jsonl", headerLine("s", "/p"), msgLine(1, "user", "small one"))
	os.Chtimes(big, testTime, testTime) // the small one is newer: read first
	full := openTest(t)
	update(t, full, root)
	want := entryCount(t, full)

	// Between files: the progress callback cancels after the first.
	x := openTest(t)
	ctx, cancel := context.WithCancel(context.Background())
	st, err := x.UpdateProgress(ctx, []string{root}, func(done, total int) {
		if done == 1 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) || st.Indexed != 1 {
		t.Fatalf("cancelled after a file: %+v, %v", st, err)
	}
	if hits := search(t, x, "small"); len(hits) != 1 {
		t.Fatalf("the first file is kept: %+v", hits)
	}

	// Within a file: what was read is kept, and the next Update reads on
	// from there.
	smallBatches(t, 20)
	ctx, cancel = context.WithCancel(context.Background())
	batches := 0
	testHookBatch = func() {
		if batches++; batches == 2 {
			cancel()
		}
	}
	st, err = x.Update(ctx, []string{root})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled within a file: %+v, %v", st, err)
	}
	testHookBatch = nil
	kept := entryCount(t, x)
	if kept <= 1 || kept >= want {
		t.Fatalf("%d entries kept of %d", kept, want)
	}
	var indexed int64
	x.rd.QueryRow(`SELECT indexed FROM files WHERE path = ?`, big).Scan(&indexed)
	info, _ := os.Stat(big)
	st = update(t, x, root)
	if st.Appended != 1 || st.Indexed != 0 || st.Bytes != info.Size()-indexed {
		t.Fatalf("resumed: %+v, from %d of %d", st, indexed, info.Size())
	}
	if got := entryCount(t, x); got != want {
		t.Fatalf("%d entries after the resumed update, want %d", got, want)
	}
	for _, q := range []string{"the", "goroutine", "src/main.go", "数据库"} {
		a, b := search(t, x, q), search(t, full, q)
		if len(a) != len(b) || len(a) > 0 && (a[0].Count != b[0].Count || a[0].EntryID != b[0].EntryID || a[0].Snippet != b[0].Snippet) {
			t.Fatalf("%q: resumed index gives %+v, a full one %+v", q, a, b)
		}
	}

	// Close stops an Update under way.
	y := openTest(t)
	testHookBatch = func() { go y.Close() }
	_, err = y.Update(context.Background(), []string{root})
	if err == nil {
		t.Fatal("Update went on after Close")
	}
	testHookBatch = nil
	if _, err := y.Search(context.Background(), "the", 0); !errors.Is(err, ErrClosed) {
		t.Fatalf("Search after Close: %v", err)
	}
}

func TestSearchCancelled(t *testing.T) {
	root := twoSessions(t)
	x := openTest(t)
	update(t, x, root)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := x.Search(ctx, "banana", 0); !errors.Is(err, context.Canceled) {
		t.Fatalf("Search with a cancelled context: %v", err)
	}
}

// TestSearchDuringUpdate runs searches on several goroutines while an
// Update builds the index, and while a second one reads appended lines:
// run with -race.
func TestSearchDuringUpdate(t *testing.T) {
	root := t.TempDir()
	var paths []string
	for i := range 6 {
		paths = append(paths, bigSession(t, root, fmt.Sprintf("s%d.jsonl", i), 200<<10, uint64(i)))
	}
	smallBatches(t, 50)
	x := openTest(t)
	queries := []string{"the", "goroutine dead", "src/main.go", "数据库", "cafe", "config"}
	run := func() {
		done := make(chan struct{})
		var wg sync.WaitGroup
		errs := make(chan error, 4)
		for g := range 3 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; ; i++ {
					select {
					case <-done:
						return
					default:
					}
					hits, err := x.Search(context.Background(), queries[(i+g)%len(queries)], 10)
					if err != nil {
						errs <- err
						return
					}
					for _, h := range hits {
						if h.Path == "" || h.EntryID == "" || h.Count == 0 {
							errs <- fmt.Errorf("incomplete hit %+v", h)
							return
						}
					}
				}
			}()
		}
		_, err := x.Update(context.Background(), []string{root})
		close(done)
		wg.Wait()
		if err != nil {
			t.Fatalf("Update: %v", err)
		}
		select {
		case err := <-errs:
			t.Fatalf("Search during Update: %v", err)
		default:
		}
	}
	run()
	n := len(search(t, x, "the"))
	if n != len(paths) {
		t.Fatalf("the: %d sessions, want %d", n, len(paths))
	}
	g := newSessionGen(42)
	for i, p := range paths {
		appendLines(t, p, msgLine(1000+i, "user", "appended "+g.words(300)))
	}
	run()
	if hits := search(t, x, "appended"); len(hits) != len(paths) {
		t.Fatalf("appended: %d hits", len(hits))
	}
}

// TestDamagedPagesFoundBySearch damages the pages of the index's doclists
// only: Open still succeeds, a search meets the damage and returns it, and
// the next Update rebuilds the index.
func TestDamagedPagesFoundBySearch(t *testing.T) {
	root := t.TempDir()
	bigSession(t, root, "big.jsonl", 300<<10, 3)
	dir := t.TempDir()
	x, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	update(t, x, root)
	var pages []int64
	rows, err := x.rd.Query(`SELECT pageno FROM dbstat WHERE name = 'fts_data' AND pagetype = 'leaf' ORDER BY pageno`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var p int64
		rows.Scan(&p)
		pages = append(pages, p)
	}
	rows.Close()
	var pageSize int64
	x.rd.QueryRow(`PRAGMA page_size`).Scan(&pageSize)
	path := x.Path()
	x.Close()
	if len(pages) < 4 {
		t.Fatalf("only %d pages of doclists", len(pages))
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	noise := []byte(strings.Repeat("\xff\x00\x13", int(pageSize)/3))
	for _, p := range pages[len(pages)/2:] {
		f.WriteAt(noise[:pageSize-8], (p-1)*pageSize+8)
	}
	f.Close()

	x, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	found := false
	for _, q := range []string{"the", "goroutine", "config", "a", "to", "error", "session", "zzz", "数据库", "src/main.go"} {
		if _, err := x.Search(context.Background(), q, 0); err != nil {
			t.Logf("%q: %v", q, err)
			found = true
			break
		}
	}
	if !found {
		t.Skip("no search met the damaged pages") // the test's damage missed: nothing to check
	}
	st := update(t, x, root)
	if !st.Rebuilt || st.Indexed != 1 {
		t.Fatalf("%+v, note %q", st, x.Note())
	}
	if _, err := x.Search(context.Background(), "the", 0); err != nil {
		t.Fatalf("after the rebuild: %v", err)
	}
}
