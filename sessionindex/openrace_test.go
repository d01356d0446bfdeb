package sessionindex

import (
	"bufio"
	"context"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// deletedOpenFiles lists the files under dir this process holds open that
// are deleted: what an open that removed another's database leaves behind.
// Linux only: nil elsewhere.
func deletedOpenFiles(t testing.TB, dir string) []string {
	t.Helper()
	if runtime.GOOS != "linux" {
		return nil
	}
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, fd := range fds {
		target, err := os.Readlink(filepath.Join("/proc/self/fd", fd.Name()))
		if err == nil && strings.HasPrefix(target, dir) && strings.HasSuffix(target, "(deleted)") {
			out = append(out, target)
		}
	}
	return out
}

// openAtOnce opens n indexes on dir at the same moment, each on a
// goroutine of its own.
func openAtOnce(t *testing.T, dir string, n int) []*Index {
	t.Helper()
	xs := make([]*Index, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			xs[i], errs[i] = Open(dir)
		}()
	}
	close(start)
	wg.Wait()
	for _, x := range xs {
		if x != nil {
			t.Cleanup(func() { x.Close() })
		}
	}
	for i, err := range errs {
		if err != nil {
			t.Fatalf("open %d: %v", i, err)
		}
	}
	return xs
}

// TestOpenRace: indexes opened at once on a fresh folder all use the one
// file there; none removes the file another has open, and what one writes
// all find.
func TestOpenRace(t *testing.T) {
	root := twoSessions(t)
	for round := range 20 {
		dir := t.TempDir()
		xs := openAtOnce(t, dir, 8)
		failed := false
		for i, x := range xs {
			if x.Note() != "" || x.Path() != filepath.Join(dir, dbName) {
				t.Errorf("round %d, open %d: path %s, note %q", round, i, x.Path(), x.Note())
				failed = true
			}
		}
		if gone := deletedOpenFiles(t, dir); len(gone) > 0 {
			t.Errorf("round %d: files removed while open: %v", round, gone)
			failed = true
		}
		if failed {
			continue
		}
		update(t, xs[round%len(xs)], root)
		for i, x := range xs {
			if hits := search(t, x, "banana"); len(hits) != 2 {
				t.Errorf("round %d, open %d: %d hits for what another wrote", round, i, len(hits))
			}
		}
		for _, x := range xs {
			x.Close()
		}
	}
}

// openChildEnv names the folder a child test process opens the index in.
const openChildEnv = "SESSIONINDEX_TEST_OPEN_DIR"

// TestOpenChildProcess is the child of TestOpenProcesses: it opens the
// index in the folder its parent names and says what it got.
func TestOpenChildProcess(t *testing.T) {
	dir := os.Getenv(openChildEnv)
	if dir == "" {
		t.Skip("run by TestOpenProcesses")
	}
	x, err := Open(dir)
	if err != nil {
		fmt.Printf("RESULT error %v\n", err)
		return
	}
	defer x.Close()
	var files int
	if err := x.rd.QueryRow(`SELECT count(*) FROM files`).Scan(&files); err != nil {
		fmt.Printf("RESULT error %v\n", err)
		return
	}
	fmt.Printf("RESULT path=%s note=%q deleted=%d\n", x.Path(), x.Note(), len(deletedOpenFiles(t, dir)))
}

// TestOpenProcesses: two other processes and this one open the index in
// one folder at once; all use the file there, none removes it.
func TestOpenProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	for round := range 3 {
		dir := t.TempDir()
		var wg sync.WaitGroup
		results := make([]string, 2)
		for i := range results {
			wg.Add(1)
			go func() {
				defer wg.Done()
				cmd := exec.Command(os.Args[0], "-test.run=^TestOpenChildProcess$", "-test.count=1")
				cmd.Env = append(os.Environ(), openChildEnv+"="+dir)
				out, err := cmd.CombinedOutput()
				sc := bufio.NewScanner(strings.NewReader(string(out)))
				for sc.Scan() {
					if line, ok := strings.CutPrefix(sc.Text(), "RESULT "); ok {
						results[i] = line
					}
				}
				if err != nil || results[i] == "" {
					results[i] = fmt.Sprintf("child failed: %v: %s", err, out)
				}
			}()
		}
		x, err := Open(dir)
		wg.Wait()
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		want := fmt.Sprintf("path=%s note=%q deleted=0", filepath.Join(dir, dbName), "")
		for i, r := range results {
			if r != want {
				t.Errorf("round %d, child %d: %s", round, i, r)
			}
		}
		if x.Note() != "" || x.Path() != filepath.Join(dir, dbName) {
			t.Errorf("round %d: path %s, note %q", round, x.Path(), x.Note())
		}
		if gone := deletedOpenFiles(t, dir); len(gone) > 0 {
			t.Errorf("round %d: files removed while open: %v", round, gone)
		}
		x.Close()
	}
}

// TestBusyIndexKept: an index another connection holds locked is not
// removed; this process uses a temporary one meanwhile, and the kept one
// opens as it was once free.
func TestBusyIndexKept(t *testing.T) {
	old := busyTimeoutMS
	busyTimeoutMS = 200
	t.Cleanup(func() { busyTimeoutMS = old })
	root := twoSessions(t)
	dir := t.TempDir()
	x, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	update(t, x, root)
	path := x.Path()
	x.Close()

	// An exclusive lock held by another connection: every other one is
	// busy until it ends.
	db, err := sql.Open("sqlite", path+"?_pragma=locking_mode(EXCLUSIVE)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(context.Background(), `BEGIN EXCLUSIVE; INSERT INTO meta(key, value) VALUES('held', 'yes')`); err != nil {
		t.Fatal(err)
	}
	busy, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if busy.Path() == path || !strings.Contains(busy.Note(), "cannot be kept") {
		t.Errorf("busy: path %s, note %q", busy.Path(), busy.Note())
	}
	busy.Close()
	conn.ExecContext(context.Background(), `ROLLBACK`)
	conn.Close()
	db.Close()

	x, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	if x.Path() != path || x.Note() != "" {
		t.Fatalf("after the lock: path %s, note %q", x.Path(), x.Note())
	}
	checkFound(t, x) // the same index, not built again
}

// TestNewerSchemaKept: an index of a newer app is left as it is; this one
// uses a temporary index.
func TestNewerSchemaKept(t *testing.T) {
	dir := t.TempDir()
	x, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	path := x.Path()
	x.Close()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(fmt.Sprintf(`PRAGMA user_version = %d`, schemaVersion+1)); err != nil {
		t.Fatal(err)
	}
	db.Close()

	x, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if x.Path() == path || !strings.Contains(x.Note(), "newer") {
		t.Errorf("path %s, note %q", x.Path(), x.Note())
	}
	x.Close()
	db, err = sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var version int
	if err := db.QueryRow(`PRAGMA user_version`).Scan(&version); err != nil || version != schemaVersion+1 {
		t.Fatalf("the newer index: version %d, %v", version, err)
	}
}

// TestRebuildOnce: two indexes on one file both find it damaged; the
// second to rebuild opens the file the first built instead of removing it.
func TestRebuildOnce(t *testing.T) {
	root := twoSessions(t)
	dir := t.TempDir()
	xs := openAtOnce(t, dir, 2)
	update(t, xs[0], root)
	for _, x := range xs {
		x.broken.Store(true) // what Search does on SQLITE_CORRUPT
	}
	if st := update(t, xs[0], root); !st.Rebuilt {
		t.Fatalf("first: %+v", st)
	}
	st, err := xs[1].Update(context.Background(), []string{root})
	if err != nil || !st.Rebuilt || st.Indexed != 0 {
		t.Fatalf("second: %+v, %v: it should find the first one's index up to date", st, err)
	}
	if gone := deletedOpenFiles(t, dir); len(gone) > 0 {
		t.Fatalf("files removed while open: %v", gone)
	}
	for _, x := range xs {
		checkFound(t, x)
	}
}
