package sessionindex

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"time"

	"knightcode.ai/desktop/sessionfiles"
)

// Bounds on one write transaction: what a batch holds in memory (searches
// do not wait for a writer, WAL readers never do, but the log and FTS5's
// pending terms grow with a batch). Variables so tests can make them small.
var (
	batchBytes = 4 << 20
	batchRows  = 4000
)

// testHookBatch, when set, is called after each batch of a file that is
// not its last: tests stop an Update there.
var testHookBatch func()

// probeLines is how many lines a file without a header may go without a
// session entry before it is taken for no session, as sessionfiles does.
const probeLines = 16

// hashSpan is how many bytes at the start of a file, and before where it was
// last read to, tell an append from a rewrite.
const hashSpan = 4096

// UpdateStats says what an Update did.
type UpdateStats struct {
	// Files is how many .jsonl files the session folders hold.
	Files int
	// Indexed files were read from their start (new or rewritten);
	// Appended ones only from where the last Update stopped.
	Indexed, Appended  int
	Unchanged, Removed int
	// Skipped files are no session (another tool's JSONL, garbage, empty).
	Skipped int
	// Rows is how many entries were added to the index.
	Rows int
	// Bytes is how much of the session files was read.
	Bytes int64
	// Rebuilt is set when the index was found damaged and built again.
	Rebuilt  bool
	Duration time.Duration
}

// todo is a file found in the session folders.
type todo struct {
	path string
	st   os.FileInfo
}

// fileRow is a files row.
type fileRow struct {
	id            int64
	path          string
	size, mtime   int64
	indexed       int64
	head, tail    []byte
	state         fileState
	skipped       string
	seen, changed bool
}

// Update brings the index up to date with the session files in roots (as
// sessionfiles.Roots gives them): new files are added, grown ones read from
// where the last Update stopped, rewritten ones read again, removed ones
// dropped. Files are taken newest first, so recent sessions are searchable
// soonest. It stops at ctx's end (between files, and between
// batches of a large file) with what it has done so far kept; the next
// Update goes on from there. A damaged index is rebuilt and the update run
// again. One Update runs at a time; others wait.
func (x *Index) Update(ctx context.Context, roots []string) (UpdateStats, error) {
	return x.UpdateProgress(ctx, roots, nil)
}

// UpdateProgress is Update calling progress, when it is not nil, after each
// file with how many of the total are done.
func (x *Index) UpdateProgress(ctx context.Context, roots []string, progress func(done, total int)) (UpdateStats, error) {
	x.upd.Lock()
	defer x.upd.Unlock()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(x.life, cancel)()
	start := time.Now()

	var stats UpdateStats
	var err error
	rebuilt := false
	for attempt := 0; ; attempt++ {
		x.mu.RLock()
		broken, wr := x.broken.Load(), x.wr
		x.mu.RUnlock()
		if wr == nil {
			return stats, ErrClosed
		}
		if broken {
			err = errors.New("a search found it damaged")
		} else {
			stats, err = x.update(ctx, roots, progress)
			if !damaged(err) {
				break
			}
		}
		if attempt > 0 {
			break
		}
		if rerr := x.rebuild(err); rerr != nil {
			return stats, fmt.Errorf("session index: rebuilding: %w", rerr)
		}
		rebuilt = true
	}
	stats.Rebuilt = rebuilt
	stats.Duration = time.Since(start)
	return stats, err
}

func (x *Index) update(ctx context.Context, roots []string, progress func(done, total int)) (UpdateStats, error) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	if x.wr == nil {
		return UpdateStats{}, ErrClosed
	}
	known, err := x.loadFiles(ctx)
	if err != nil {
		return UpdateStats{}, err
	}
	var files []todo
	for _, p := range sessionfiles.Files(roots, "") {
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			files = append(files, todo{p, st})
		}
	}
	slices.SortFunc(files, func(a, b todo) int {
		if c := b.st.ModTime().Compare(a.st.ModTime()); c != 0 {
			return c
		}
		return cmp.Compare(a.path, b.path)
	})
	stats := UpdateStats{Files: len(files)}
	present := make(map[string]bool, len(files))
	for _, t := range files {
		present[t.path] = true
	}
	for path, f := range known {
		if !present[path] {
			if err := x.dropFile(ctx, f, true); err != nil {
				return stats, err
			}
			stats.Removed++
		}
	}
	if err := x.addFiles(ctx, files, known); err != nil {
		return stats, err
	}
	for i, t := range files {
		if err := ctx.Err(); err != nil {
			return stats, err
		}
		f := known[t.path]
		if err := x.indexFile(ctx, f, t.st, &stats); err != nil {
			return stats, err
		}
		if progress != nil {
			progress(i+1, len(files))
		}
	}
	return stats, nil
}

// addFiles gives the files not yet known their rows, oldest first: a
// newer file gets a larger id, so its entries' rowids are larger, which is
// the order Search ranks in when a query matches too many entries.
func (x *Index) addFiles(ctx context.Context, files []todo, known map[string]*fileRow) error {
	var added []todo
	for _, t := range files {
		if known[t.path] == nil {
			added = append(added, t)
		}
	}
	if len(added) == 0 {
		return nil
	}
	slices.SortStableFunc(added, func(a, b todo) int { return a.st.ModTime().Compare(b.st.ModTime()) })
	tx, err := x.wr.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	rows := map[string]*fileRow{}
	for _, t := range added {
		res, err := tx.ExecContext(ctx, `INSERT INTO files(path) VALUES(?)`, t.path)
		if err != nil {
			return err
		}
		f := &fileRow{path: t.path, size: -1}
		if f.id, err = res.LastInsertId(); err != nil {
			return err
		}
		rows[t.path] = f
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	maps.Copy(known, rows)
	return nil
}

func (x *Index) loadFiles(ctx context.Context) (map[string]*fileRow, error) {
	rows, err := x.wr.QueryContext(ctx, `SELECT id, path, size, mtime, indexed, head, tail, lines, physical, entries, messages, seq,
		header, session, cwd, name, first_prompt, created, skipped FROM files`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	known := map[string]*fileRow{}
	for rows.Next() {
		f := &fileRow{}
		s := &f.state
		if err := rows.Scan(&f.id, &f.path, &f.size, &f.mtime, &f.indexed, &f.head, &f.tail, &s.lines, &s.physical, &s.entries,
			&s.messages, &s.seq, &s.header, &s.session, &s.cwd, &s.name, &s.prompt, &s.created, &f.skipped); err != nil {
			return nil, err
		}
		known[f.path] = f
	}
	return known, rows.Err()
}

// indexFile brings one file's rows up to date.
func (x *Index) indexFile(ctx context.Context, f *fileRow, st os.FileInfo, stats *UpdateStats) error {
	size, mtime := st.Size(), st.ModTime().UnixNano()
	if f.id != 0 && f.size == size && f.mtime == mtime {
		if f.skipped != "" {
			stats.Skipped++
		} else {
			stats.Unchanged++
		}
		return nil
	}
	file, err := os.Open(f.path)
	if err != nil {
		stats.Skipped++ // unreadable now; tried again next time
		return nil
	}
	defer file.Close()

	from := int64(0)
	if f.id != 0 && f.skipped == "" && f.indexed > 0 && size >= f.indexed && sameBytes(file, f) {
		from = f.indexed
		stats.Appended++
	} else {
		if f.state.seq > 0 {
			if err := x.dropFile(ctx, f, false); err != nil {
				return err
			}
		}
		*f = fileRow{id: f.id, path: f.path, size: -1}
		stats.Indexed++
	}
	if _, err := file.Seek(from, io.SeekStart); err != nil {
		return nil
	}
	w := &batchWriter{x: x, f: f, file: file}
	lr := sessionfiles.NewLineReader(file, from)
	s := &f.state
	base := s.physical
	for {
		if s.lines%64 == 0 && ctx.Err() != nil {
			w.flush(ctx, false, 0, 0)
			return ctx.Err()
		}
		line, whole, err := lr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			break // a read error: what was read stays, the rest next time
		}
		s.lines++
		if from == 0 && s.lines == 1 {
			if t := bytes.TrimSpace(line); len(t) == 0 || t[0] != '{' || bytes.IndexByte(line, 0) >= 0 {
				f.skipped = "not JSON lines"
				break
			}
		}
		decode := true
		if !whole {
			if typ, role := sessionfiles.TypeRole(line); skipLong(typ, role) {
				decode = false
				if lr.Skip() != nil {
					break
				}
				if lr.Terminated() && (s.header || sessionEntryTypes[typ]) {
					s.entries++
					if typ == "message" {
						s.messages++
					}
				}
			} else if line, err = lr.Rest(); err != nil {
				break
			}
		}
		if !lr.Terminated() {
			s.lines--
			break // being written, or cut off: read again next time
		}
		s.physical = base + lr.Line()
		if decode {
			if r, ok := s.take(line); ok {
				r.line = s.physical
				r.offset, r.length = f.indexed, lr.End()-f.indexed
				if err := w.add(ctx, r); err != nil {
					return err
				}
			}
		}
		f.indexed = lr.End()
		if from == 0 && !s.header && s.entries == 0 && s.lines >= probeLines {
			f.skipped = "no session header and no session entries"
			break
		}
	}
	if from == 0 && f.skipped == "" && !s.header && s.entries == 0 {
		f.skipped = "no session header and no session entries"
	}
	if f.skipped != "" {
		stats.Indexed--
		stats.Skipped++
		w.rows = nil
	}
	stats.Bytes += f.indexed - from
	stats.Rows += w.added + len(w.rows)
	return w.flush(ctx, true, size, mtime)
}

// sameBytes reports whether the bytes before where f was last read to are
// as they were: then the file was only appended to.
func sameBytes(file *os.File, f *fileRow) bool {
	head, tail := spanHashes(file, f.indexed)
	return head != nil && bytes.Equal(head, f.head) && bytes.Equal(tail, f.tail)
}

// spanHashes hashes the first hashSpan bytes before end and the last
// hashSpan bytes before it.
func spanHashes(file *os.File, end int64) (head, tail []byte) {
	n := min(end, hashSpan)
	buf := make([]byte, n)
	if _, err := file.ReadAt(buf, 0); err != nil {
		return nil, nil
	}
	h := sha256.Sum256(buf)
	if _, err := file.ReadAt(buf, end-n); err != nil {
		return nil, nil
	}
	t := sha256.Sum256(buf)
	return h[:], t[:]
}

// dropFile removes a file's rows, in transactions of bounded size, and with
// forget its files row too.
func (x *Index) dropFile(ctx context.Context, f *fileRow, forget bool) error {
	lo, hi := f.id<<32, f.id<<32|(1<<32-1)
	for from := lo; from <= hi; from += int64(batchRows) {
		var n int64
		err := func() error {
			tx, err := x.wr.BeginTx(ctx, nil)
			if err != nil {
				return err
			}
			defer tx.Rollback()
			to := min(from+int64(batchRows)-1, hi)
			if _, err := tx.ExecContext(ctx, `DELETE FROM fts WHERE rowid BETWEEN ? AND ?`, from, to); err != nil {
				return err
			}
			res, err := tx.ExecContext(ctx, `DELETE FROM entries WHERE id BETWEEN ? AND ?`, from, to)
			if err != nil {
				return err
			}
			n, _ = res.RowsAffected()
			if n == 0 || to == hi {
				q := `UPDATE files SET size = -1, indexed = 0, seq = 0 WHERE id = ?`
				if forget {
					q = `DELETE FROM files WHERE id = ?`
				}
				if _, err := tx.ExecContext(ctx, q, f.id); err != nil {
					return err
				}
			}
			return tx.Commit()
		}()
		if err != nil {
			return err
		}
		if n == 0 {
			return nil
		}
	}
	return nil
}
