package sessionindex

import (
	"database/sql"
	"errors"
	"fmt"
	"strings"
)

// schemaVersion is PRAGMA user_version of an index this code writes. An
// index of another version is rebuilt, so a change to the schema or to what
// is indexed only needs this number raised.
const schemaVersion = 2

// tokUnicode is the tokenizer; see the package doc. text.go does what it
// does again in Go.
const tokUnicode = "unicode61 remove_diacritics 2"

// config is how an index tokenizes its text; an index made with another is
// rebuilt (see checkSchema).
type config struct {
	tokenizer string
	// prefix is the fts5 prefix option, which keeps the rows of every
	// word's first characters so that a query while typing is one lookup.
	prefix string
}

// key is what meta records of the config, to compare with the next open.
func (c config) key() string { return strings.ReplaceAll(c.tokenizer+c.prefix, "'", "") }

var defaultConfig = config{tokenizer: tokUnicode, prefix: ", prefix='2 3'"}

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
