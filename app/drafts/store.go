package drafts

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"knightcode.ai/desktop/internal/filelock"
)

const (
	fileName       = "drafts.json"
	lockName       = "drafts.lock"
	unreadableName = fileName + ".unreadable"
	tempPrefix     = fileName + ".tmp-"
	fileVersion    = 1
)

// lockWait bounds the wait for another process's write: a write takes
// milliseconds.
const lockWait = 5 * time.Second

// file is drafts.json.
type file struct {
	Version int     `json:"version"`
	Drafts  []Draft `json:"drafts"`
}

// Flush writes the drafts now, if anything changed since the last write,
// and returns the write's error. It is safe from any goroutine (a signal
// handler's, shutdown's) and idempotent: a second call finds nothing to
// write. A failed write leaves the old file whole and is tried again by
// the next change or Flush.
func (k *Keeper) Flush() error {
	k.writeMu.Lock()
	defer k.writeMu.Unlock()
	k.mu.Lock()
	if k.timer != nil {
		k.timer.Stop()
		k.timer = nil
	}
	if !k.dirty {
		k.mu.Unlock()
		return nil
	}
	k.mu.Unlock()
	// Read, merge and write under the folder's lock, so that another
	// process's write between our read and our rename is not lost. A lock
	// that cannot be had still lets the write go: a draft kept beats one
	// merged.
	if unlock, err := filelock.Dir(k.dir, lockName, lockWait); err == nil {
		defer unlock()
	}
	onDisk, readErr := readFile(k.dir)
	k.mu.Lock()
	if readErr == nil {
		k.mergeLocked(onDisk)
	}
	snap := make([]Draft, 0, len(k.drafts))
	for _, d := range k.drafts {
		snap = append(snap, d.clone())
	}
	k.dirty = false
	k.mu.Unlock()

	slices.SortFunc(snap, func(a, b Draft) int { return strings.Compare(a.ID, b.ID) })
	err := storeImages(k.dir, snap)
	if err == nil {
		err = writeFile(k.dir, snap, k.rename)
	}

	k.mu.Lock()
	defer k.mu.Unlock()
	k.writes++
	k.err = err
	if err != nil {
		k.dirty = true
		return err
	}
	// The images are files of the keeper's now: a draft unchanged since
	// the snapshot names them instead of holding their bytes.
	for _, d := range snap {
		if cur, ok := k.drafts[d.ID]; ok && cur.Updated.Equal(d.Updated) {
			cur.Images = d.Images
			k.drafts[d.ID] = cur
		}
	}
	return nil
}

// mergeLocked takes the file's version of every draft this keeper did not
// set, close or remove: those another process wrote (added, changed or
// removed since this keeper read them) stay as it left them.
func (k *Keeper) mergeLocked(onDisk []Draft) {
	there := map[string]bool{}
	for _, d := range onDisk {
		there[d.ID] = true
		if d.ID == "" || k.mine[d.ID] || k.gone[d.ID] || d.empty() {
			continue
		}
		k.drafts[d.ID] = d
	}
	for id := range k.drafts {
		if !there[id] && !k.mine[id] {
			delete(k.drafts, id)
		}
	}
}

// writeFile writes drafts to a temporary file in dir, syncs it and renames
// it over drafts.json: a reader sees the old file or the new one, never a
// part.
func writeFile(dir string, drafts []Draft, rename func(string, string) error) error {
	data, err := json.MarshalIndent(file{Version: fileVersion, Drafts: drafts}, "", "\t")
	if err != nil {
		return err
	}
	return writeAtomic(filepath.Join(dir, fileName), data, rename)
}

// writeAtomic writes data to path through a temporary file beside it.
func writeAtomic(path string, data []byte, rename func(string, string) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp-")
	if err != nil {
		return fmt.Errorf("keeping drafts: %w", err)
	}
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("keeping drafts: %w", err)
	}
	return nil
}

// readFile reads drafts.json in dir: none when it is missing; one that
// does not parse is set aside as drafts.json.unreadable (for a person to
// look at) and none are read.
func readFile(dir string) ([]Draft, error) {
	path := filepath.Join(dir, fileName)
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var f file
	if err := json.Unmarshal(data, &f); err != nil {
		if err := os.Rename(path, filepath.Join(dir, unreadableName)); err != nil {
			return nil, err
		}
		return nil, nil
	}
	return f.Drafts, nil
}

// removeTemps removes temporary files a write cut short left in dir.
func removeTemps(dir string) {
	for _, pattern := range []string{tempPrefix + "*", filepath.Join(imagesDir, "*", "*.tmp-*")} {
		paths, _ := filepath.Glob(filepath.Join(dir, pattern))
		for _, p := range paths {
			os.Remove(p)
		}
	}
}
