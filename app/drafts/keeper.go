package drafts

import (
	"cmp"
	"os"
	"slices"
	"sync"
	"time"
)

// debounce is how long after a change the keeper writes: every change
// within it goes in the same write. The first change starts the wait and
// later ones do not push it back, so steady typing still reaches the disk
// at least every debounce.
const debounce = 300 * time.Millisecond

// maxAge is how long a draft nobody claimed is kept.
const maxAge = 60 * 24 * time.Hour

// Keeper holds the drafts of one folder and writes them there. Its
// methods are safe from any goroutine.
type Keeper struct {
	dir   string
	delay time.Duration
	now   func() time.Time
	// rename replaces drafts.json with the written temporary file (a
	// test makes it fail).
	rename func(oldpath, newpath string) error

	mu     sync.Mutex
	drafts map[string]Draft
	// mine are the drafts this keeper set or closed, gone those it
	// removed: another process may keep drafts in the same folder (a
	// second instance of the app), and a write takes the file's version of
	// every other draft (see merge).
	mine, gone map[string]bool
	dirty      bool
	timer      *time.Timer
	err        error
	writes     int

	// writeMu lets one write run at a time, in order.
	writeMu sync.Mutex
}

// Open reads the drafts kept in dir (created when missing). A drafts.json
// that cannot be read is set aside as drafts.json.unreadable and the
// keeper starts empty; drafts older than 60 days and images no draft
// refers to are dropped.
func Open(dir string) (*Keeper, error) {
	return open(dir, debounce, time.Now)
}

func open(dir string, delay time.Duration, now func() time.Time) (*Keeper, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	k := &Keeper{dir: dir, delay: delay, now: now, rename: os.Rename, drafts: map[string]Draft{},
		mine: map[string]bool{}, gone: map[string]bool{}}
	removeTemps(dir)
	list, err := readFile(dir)
	if err != nil {
		return nil, err
	}
	old := now().Add(-maxAge)
	var kept []Draft
	for _, d := range list {
		if d.ID == "" || d.empty() || d.Updated.Before(old) {
			k.dirty = true
			k.gone[d.ID] = true
			continue
		}
		k.drafts[d.ID] = d
		kept = append(kept, d)
	}
	sweepImages(dir, kept)
	if k.dirty {
		k.Flush()
	}
	return k, nil
}

// Set keeps d as the draft id; an empty draft (no text, images or queued
// messages) removes it. It is written within the debounce.
func (k *Keeper) Set(id string, d Draft) {
	d = d.clone()
	d.ID = id
	k.mu.Lock()
	defer k.mu.Unlock()
	if d.empty() {
		if _, ok := k.drafts[id]; !ok {
			return
		}
		delete(k.drafts, id)
		k.gone[id] = true
	} else {
		d.Updated = k.now()
		k.drafts[id] = d
		k.mine[id], k.gone[id] = true, false
	}
	k.changedLocked()
}

// Close marks the draft id as its tab's closing: kept, listed by Kept,
// and no longer claimed by a tab opening in its place.
func (k *Keeper) Close(id string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	d, ok := k.drafts[id]
	if !ok || d.Closed {
		return
	}
	d.Closed, d.Updated = true, k.now()
	k.drafts[id] = d
	k.mine[id] = true
	k.changedLocked()
}

// Claim takes the draft of a tab opening in place with session out of the
// keeper: the one of that session, else the newest of the place without a
// session; with session "" the newest of the place. Closed drafts are not
// claimed (Take them by ID). The tab Sets it again under its own ID.
func (k *Keeper) Claim(place, session string) (Draft, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	var best Draft
	found := false
	for _, d := range k.drafts {
		if d.Closed || d.Place != place || session != "" && d.Session != session && d.Session != "" {
			continue
		}
		// An exact session beats one without; then the newest.
		exact := session != "" && d.Session == session
		bestExact := session != "" && best.Session == session
		if !found || exact && !bestExact || exact == bestExact && d.Updated.After(best.Updated) {
			best, found = d, true
		}
	}
	if !found {
		return Draft{}, false
	}
	delete(k.drafts, best.ID)
	k.gone[best.ID] = true
	k.changedLocked()
	return best.clone(), true
}

// Take removes the draft id from the keeper and returns it (a closed tab
// reopened from the list).
func (k *Keeper) Take(id string) (Draft, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	d, ok := k.drafts[id]
	if !ok {
		return Draft{}, false
	}
	delete(k.drafts, id)
	k.gone[id] = true
	k.changedLocked()
	return d.clone(), true
}

// Kept lists every draft, open and closed, newest first.
func (k *Keeper) Kept() []Draft {
	k.mu.Lock()
	defer k.mu.Unlock()
	out := make([]Draft, 0, len(k.drafts))
	for _, d := range k.drafts {
		out = append(out, d.clone())
	}
	slices.SortFunc(out, func(a, b Draft) int {
		return cmp.Or(b.Updated.Compare(a.Updated), cmp.Compare(a.ID, b.ID))
	})
	return out
}

// Err is the error of the last write, nil once a write succeeds.
func (k *Keeper) Err() error {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.err
}

// changedLocked schedules a write, unless one is scheduled already.
func (k *Keeper) changedLocked() {
	k.dirty = true
	if k.timer == nil {
		k.timer = time.AfterFunc(k.delay, func() { k.Flush() })
	}
}
