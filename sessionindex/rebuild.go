package sessionindex

import (
	"errors"
	"os"
	"path/filepath"
)

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
