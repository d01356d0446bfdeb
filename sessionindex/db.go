package sessionindex

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"modernc.org/sqlite"
)

// schemaVersion is PRAGMA user_version of an index this code writes. An
// index of another version is rebuilt, so a change to the schema or to what
// is indexed only needs this number raised.
const schemaVersion = 2

// dbName is the index file in the folder given to Open.
const dbName = "sessions-index.db"

// readers bounds the connections searches use at once. The browser runs one
// search at a time (it cancels the previous one on every keystroke); a few
// more let a cancelled one wind down while the next runs.
const readers = 4

// tokUnicode is the tokenizer; see the package doc. text.go does what it
// does again in Go.
const tokUnicode = "unicode61 remove_diacritics 2"

type config struct {
	tokenizer string
	// prefix is the fts5 prefix option, which keeps the rows of every
	// word's first characters so that a query while typing is one lookup.
	prefix string
}

func (c config) key() string { return strings.ReplaceAll(c.tokenizer+c.prefix, "'", "") }

var defaultConfig = config{tokenizer: tokUnicode, prefix: ", prefix='2 3'"}

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

// regularOrMissing fails, as unusable, when something other than a file
// is where the index should be.
func regularOrMissing(path string) error {
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil
	case err != nil:
		return err
	case !st.Mode().IsRegular():
		return unusableError{"not a regular file"}
	}
	return nil
}

const schema = `
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
-- One row per file seen in the session folders. size and mtime are those
-- seen when it was last read to its end (size -1 while a read is under way);
-- indexed is the offset after the last line read, and physical that line's
-- number; head and tail are hashes of the bytes before it, which tell an
-- append from a rewrite.
CREATE TABLE files(
	id INTEGER PRIMARY KEY,
	path TEXT NOT NULL UNIQUE,
	size INTEGER NOT NULL DEFAULT -1,
	mtime INTEGER NOT NULL DEFAULT 0,
	indexed INTEGER NOT NULL DEFAULT 0,
	head BLOB, tail BLOB,
	lines INTEGER NOT NULL DEFAULT 0,
	physical INTEGER NOT NULL DEFAULT 0,
	entries INTEGER NOT NULL DEFAULT 0,
	messages INTEGER NOT NULL DEFAULT 0,
	seq INTEGER NOT NULL DEFAULT 0,
	header INTEGER NOT NULL DEFAULT 0,
	session TEXT NOT NULL DEFAULT '',
	cwd TEXT NOT NULL DEFAULT '',
	name TEXT NOT NULL DEFAULT '',
	first_prompt TEXT NOT NULL DEFAULT '',
	created INTEGER NOT NULL DEFAULT 0,
	skipped TEXT NOT NULL DEFAULT ''
);
-- One row per indexed entry; id is also the rowid in fts: the file's id
-- shifted left 32 bits, plus the row's number in the file. line is the
-- entry's line number in the file, from 1; offset and length are where
-- the line is (blank lines before it included), from which a search reads
-- it again for its snippet.
CREATE TABLE entries(
	id INTEGER PRIMARY KEY,
	entry TEXT NOT NULL,
	ts INTEGER NOT NULL,
	kind TEXT NOT NULL,
	ordinal INTEGER NOT NULL,
	line INTEGER NOT NULL,
	offset INTEGER NOT NULL,
	length INTEGER NOT NULL
);
`

// tables are those every index of this schema has.
var tables = []string{"meta", "files", "entries", "fts"}

// initSchema creates the tables in a new file, or checks that an existing
// one is of this schema version and tokenizer. The creation checks again
// inside its transaction (BEGIN IMMEDIATE, through _txlock), so that of two
// connections finding the file empty one creates the schema and the other
// then finds it made.
func initSchema(db *sql.DB, cfg config) error {
	empty, err := isEmpty(db)
	if err != nil {
		return err
	}
	if empty {
		if err := createSchema(db, cfg); err != nil {
			return err
		}
	}
	return checkSchema(db, cfg)
}

func isEmpty(q interface {
	QueryRow(string, ...any) *sql.Row
}) (bool, error) {
	var version, n int
	if err := q.QueryRow(`PRAGMA user_version`).Scan(&version); err != nil {
		return false, err
	}
	if err := q.QueryRow(`SELECT count(*) FROM sqlite_master`).Scan(&n); err != nil {
		return false, err
	}
	return version == 0 && n == 0, nil
}

func createSchema(db *sql.DB, cfg config) error {
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if empty, err := isEmpty(tx); err != nil || !empty {
		return err // made meanwhile by another connection
	}
	stmts := []string{
		schema,
		// Contentless: the text stays in the session files.
		fmt.Sprintf(`CREATE VIRTUAL TABLE fts USING fts5(prompt, text, thinking, tool, content='', contentless_delete=1, tokenize=%q%s)`,
			cfg.tokenizer, cfg.prefix),
		`INSERT INTO meta(key, value) VALUES('tokenizer', '` + cfg.key() + `')`,
		fmt.Sprintf(`PRAGMA user_version = %d`, schemaVersion),
	}
	for _, s := range stmts {
		if _, err := tx.Exec(s); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// checkSchema fails, as unusable, for an index of an older schema version,
// missing a table or made with another tokenizer, and with newerSchema for
// a newer app's index, which is kept.
func checkSchema(db *sql.DB, cfg config) error {
	var version int
	if err := db.QueryRow(`PRAGMA user_version`).Scan(&version); err != nil {
		return err
	}
	switch {
	case version > schemaVersion:
		return fmt.Errorf("schema version %d is newer than this app's %d: the index is left to the app that wrote it", version, schemaVersion)
	case version < schemaVersion:
		return unusableError{fmt.Sprintf("schema version %d, older than %d", version, schemaVersion)}
	}
	for _, name := range tables {
		var n int
		if err := db.QueryRow(`SELECT count(*) FROM sqlite_master WHERE name = ?`, name).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			return unusableError{"no table " + name}
		}
	}
	var tok string
	if err := db.QueryRow(`SELECT value FROM meta WHERE key = 'tokenizer'`).Scan(&tok); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return unusableError{"no tokenizer recorded"}
		}
		return err
	}
	if tok != cfg.key() {
		return unusableError{fmt.Sprintf("tokenizer %q, not %q", tok, cfg.key())}
	}
	// Reads the fts table's configuration: a damaged one fails here.
	return db.QueryRow(`SELECT count(*) FROM (SELECT rowid FROM fts LIMIT 1)`).Scan(new(int))
}

// unusableError is what connect found that makes the file no index this
// app can use, whatever else runs: it is removed and built again.
type unusableError struct{ reason string }

func (e unusableError) Error() string { return e.reason }

// unusable tells the errors after which the index file is removed: the
// file is damaged, no database, truncated, not a file, of an older schema
// or another tokenizer. Busy, locked, I/O, permission and disk-full errors
// and a newer schema are not among them: the file may be fine, and another
// process (or a newer app) may be using it.
func unusable(err error) bool {
	var u unusableError
	return errors.As(err, &u) || damaged(err)
}

// truncated tells, from the header of the database file, when the file is
// shorter than its header says (cut off by a full disk or a bad copy), or is
// no SQLite database at all. SQLite would find the first only when a query
// reaches the missing pages. With a write-ahead log beside it the header may
// be behind, and nothing is said.
func truncated(path string) string {
	data, err := readHead(path, 100)
	if err != nil || len(data) == 0 {
		return ""
	}
	if _, err := os.Stat(path + "-wal"); err == nil {
		return ""
	}
	if len(data) < 100 || !bytes.HasPrefix(data, []byte("SQLite format 3\x00")) {
		return "not an SQLite database"
	}
	pageSize := int64(binary.BigEndian.Uint16(data[16:18]))
	if pageSize == 1 {
		pageSize = 65536
	}
	pages := int64(binary.BigEndian.Uint32(data[28:32]))
	changes, validFor := binary.BigEndian.Uint32(data[24:28]), binary.BigEndian.Uint32(data[92:96])
	st, err := os.Stat(path)
	if err != nil || changes != validFor || pages == 0 {
		return ""
	}
	if st.Size() < pages*pageSize {
		return fmt.Sprintf("truncated: %d bytes of %d", st.Size(), pages*pageSize)
	}
	return ""
}

func readHead(path string, n int) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, n)
	m, err := f.Read(buf)
	if m == 0 && err != nil {
		return nil, nil
	}
	return buf[:m], nil
}

// removeDB removes the database file and its log and shared-memory files.
func removeDB(path string) error {
	var first error
	for _, p := range []string{path, path + "-wal", path + "-shm", path + "-journal"} {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) && first == nil {
			first = err
		}
	}
	return first
}

// damaged reports whether err says the database file is damaged or is no
// database: then the index is rebuilt.
func damaged(err error) bool {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return false
	}
	switch se.Code() & 0xff {
	case 11, 26: // SQLITE_CORRUPT, SQLITE_NOTADB
		return true
	}
	return false
}

// rebuild closes the connections, removes the file and opens an empty index
// in its place, under the folder's lock. When the file is no longer the
// one this index had open, another instance has rebuilt it already: that
// one is opened instead. The caller holds no lock.
func (x *Index) rebuild(why error) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	path := filepath.Join(x.dir, dbName)
	x.note("the index %s is damaged (%v): it is rebuilt from the session files", path, why)
	had := x.opened
	x.closeDBs()
	unlock, err := lockDir(x.dir)
	if err != nil {
		return err
	}
	defer unlock()
	if now, err := os.Stat(path); err == nil && had != nil && !os.SameFile(had, now) {
		err := x.connect(path)
		if err == nil {
			x.broken.Store(false)
			return nil
		}
		if !unusable(err) {
			return err
		}
	}
	if err := removeDB(path); err != nil {
		return err
	}
	if err := x.connect(path); err != nil {
		return err
	}
	x.broken.Store(false)
	return nil
}

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
