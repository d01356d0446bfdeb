package sessionindex

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
)

// dbName is the index file in the folder given to Open.
const dbName = "sessions-index.db"

// readers bounds the connections searches use at once. The browser runs one
// search at a time (it cancels the previous one on every keystroke); a few
// more let a cancelled one wind down while the next runs.
const readers = 4

// Index is the full-text index of session files. One Update runs at a time;
// Searches may run from other goroutines while it does.
type Index struct {
	dir string
	// temp is set when dir is a temporary folder of Open's own.
	temp bool
	cfg  config

	// mu guards the connections: Update and Search hold it for reading,
	// a rebuild and Close for writing.
	mu     sync.RWMutex
	wr, rd *sql.DB
	// opened is the file the connections were opened on, which tells
	// rebuild whether another instance has replaced it since.
	opened os.FileInfo
	// broken is set when a search met a damaged index: the next Update
	// rebuilds it.
	broken atomic.Bool

	// upd lets one Update run at a time.
	upd sync.Mutex
	// life ends at Close, which stops a running Update.
	life context.Context
	stop context.CancelFunc

	noteMu sync.Mutex
	notes  []string
}

// DefaultDir is the folder the app keeps the index in:
// knightcode-desktop/index in the user's cache folder (os.UserCacheDir).
func DefaultDir() (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(cache, "knightcode-desktop", "index"), nil
}

// Open opens the index in dir (creating dir; DefaultDir when dir is ""),
// or builds an empty one when there is none or the one there cannot be
// used: a file that is no SQLite database, a truncated or damaged one, one
// of an older schema version or another tokenizer. Such a file is removed;
// Note says so. One that is busy, locked, unreadable for now or of a newer
// schema is kept: then, as when dir itself cannot be used, the index goes
// into a new folder under the system's temporary folder, removed at Close. An error is returned only
// when no index can be opened anywhere. Open reads no session file: Update
// does.
func Open(dir string) (*Index, error) { return open(dir, defaultConfig) }

// open is Open with a tokenizer config.
func open(dir string, cfg config) (*Index, error) {
	x := &Index{dir: dir, cfg: cfg}
	x.life, x.stop = context.WithCancel(context.Background())
	err := errors.New("no cache folder")
	if dir == "" {
		x.dir, err = DefaultDir()
	}
	if x.dir != "" {
		err = x.openIn(x.dir)
	}
	if err != nil {
		tmp, terr := os.MkdirTemp("", "knightcode-index-")
		if terr != nil {
			return nil, fmt.Errorf("session index: %v; no temporary folder either: %v", err, terr)
		}
		x.note("the index cannot be kept in %s (%v): using %s until the app restarts", x.dir, err, tmp)
		x.dir, x.temp = tmp, true
		if err = x.openIn(tmp); err != nil {
			os.RemoveAll(tmp)
			return nil, fmt.Errorf("session index: %w", err)
		}
	}
	return x, nil
}

// openIn opens dir's index under dir's lock, removing and recreating it
// once when it cannot be used (see unusable). Any other error (busy,
// locked, I/O, permissions, a full disk, a newer app's index) leaves the
// file as it is and is returned: the caller then uses a temporary folder.
func (x *Index) openIn(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	unlock, err := lockDir(dir)
	if err != nil {
		return err
	}
	defer unlock()
	path := filepath.Join(dir, dbName)
	err = x.connect(path)
	if err == nil || !unusable(err) {
		return err
	}
	x.note("the index %s could not be used (%v): it is rebuilt from the session files", path, err)
	if rerr := removeDB(path); rerr != nil {
		return fmt.Errorf("%v, and it cannot be removed: %v", err, rerr)
	}
	return x.connect(path)
}

// busyTimeoutMS is how long a connection waits for another one's lock
// before SQLITE_BUSY; tests lower it.
var busyTimeoutMS = 10000

// connect opens the writer and the readers on path and checks the schema,
// creating it in an empty file. It remembers which file it opened, for
// rebuild.
func (x *Index) connect(path string) error {
	if err := regularOrMissing(path); err != nil {
		return err
	}
	if reason := truncated(path); reason != "" {
		return unusableError{reason}
	}
	// _txlock=immediate: a transaction takes the write lock when it
	// begins, so another instance writing makes it wait (busy_timeout)
	// instead of failing with SQLITE_BUSY when it first writes.
	wr, err := sql.Open("sqlite", fmt.Sprintf("%s?_txlock=immediate&_pragma=busy_timeout(%d)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_pragma=cache_size(-8000)&_pragma=journal_size_limit(67108864)", path, busyTimeoutMS))
	if err != nil {
		return err
	}
	wr.SetMaxOpenConns(1)
	if err := initSchema(wr, x.cfg); err != nil {
		wr.Close()
		return err
	}
	rd, err := sql.Open("sqlite", fmt.Sprintf("%s?_pragma=busy_timeout(%d)&_pragma=query_only(1)&_pragma=cache_size(-16000)", path, busyTimeoutMS))
	if err != nil {
		wr.Close()
		return err
	}
	rd.SetMaxOpenConns(readers)
	rd.SetMaxIdleConns(readers)
	if err := rd.QueryRow(`SELECT count(*) FROM files`).Scan(new(int)); err != nil {
		wr.Close()
		rd.Close()
		return err
	}
	x.opened, _ = os.Stat(path)
	x.wr, x.rd = wr, rd
	return nil
}

// closeDBs closes the writer and the readers; the caller holds mu.
func (x *Index) closeDBs() error {
	var err error
	if x.rd != nil {
		err = x.rd.Close()
	}
	if x.wr != nil {
		if werr := x.wr.Close(); err == nil {
			err = werr
		}
	}
	x.wr, x.rd = nil, nil
	return err
}

// Close stops a running Update and closes the index; it waits for the
// Update to stop and for searches under way to end. Closing twice is no
// error.
func (x *Index) Close() error {
	x.stop()
	x.mu.Lock()
	defer x.mu.Unlock()
	err := x.closeDBs()
	if x.temp {
		os.RemoveAll(x.dir)
		x.temp = false
	}
	return err
}

// ErrClosed is returned by Update and Search on a closed index.
var ErrClosed = errors.New("session index is closed")

// Path is the index's database file.
func (x *Index) Path() string { return filepath.Join(x.dir, dbName) }

// Note says what Open or Update had to do about an index that could not be
// used (removed and rebuilt, kept in a temporary folder); "" when nothing.
func (x *Index) Note() string {
	x.noteMu.Lock()
	defer x.noteMu.Unlock()
	if len(x.notes) == 0 {
		return ""
	}
	return x.notes[len(x.notes)-1]
}

func (x *Index) note(format string, args ...any) {
	x.noteMu.Lock()
	defer x.noteMu.Unlock()
	x.notes = append(x.notes, fmt.Sprintf(format, args...))
}
