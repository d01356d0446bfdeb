package sessionindex

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"

	"modernc.org/sqlite"
)

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

// readHead reads up to n bytes from the start of path; nothing for an
// empty file.
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
