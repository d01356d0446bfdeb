package sessionindex

import (
	"context"
	"os"
)

// batchWriter collects one file's rows and writes them with the file's
// progress in transactions of bounded size.
type batchWriter struct {
	x     *Index
	f     *fileRow
	file  *os.File
	rows  []row
	bytes int
	added int
}

func (w *batchWriter) add(ctx context.Context, r row) error {
	w.rows = append(w.rows, r)
	w.bytes += r.size()
	if w.bytes >= batchBytes || len(w.rows) >= batchRows {
		return w.flush(ctx, false, 0, 0)
	}
	return nil
}

// flush writes the rows and the file's state. done records size and mtime,
// which mark the file read to its end.
func (w *batchWriter) flush(ctx context.Context, done bool, size, mtime int64) error {
	f := w.f
	if len(w.rows) == 0 && !done && f.id != 0 {
		return nil
	}
	if !done {
		// Marks a file whose read is under way. A cancelled flush still
		// records what was read, so it needs a context of its own.
		size, mtime = -1, 0
		ctx = context.WithoutCancel(ctx)
	}
	f.head, f.tail = nil, nil
	if f.indexed > 0 {
		f.head, f.tail = spanHashes(w.file, f.indexed)
	}
	tx, err := w.x.wr.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if f.id == 0 {
		res, err := tx.ExecContext(ctx, `INSERT INTO files(path) VALUES(?)`, f.path)
		if err != nil {
			return err
		}
		if f.id, err = res.LastInsertId(); err != nil {
			return err
		}
	}
	if len(w.rows) > 0 {
		ins, err := tx.PrepareContext(ctx, `INSERT INTO entries(id, entry, ts, kind, ordinal, line, offset, length) VALUES(?, ?, ?, ?, ?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		defer ins.Close()
		fts, err := tx.PrepareContext(ctx, `INSERT INTO fts(rowid, prompt, text, thinking, tool) VALUES(?, ?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		defer fts.Close()
		s := &f.state
		for _, r := range w.rows {
			id := f.id<<32 | int64(s.seq)
			s.seq++
			if _, err := ins.ExecContext(ctx, id, r.entry, r.ts, r.kind, r.ordinal, r.line, r.offset, r.length); err != nil {
				return err
			}
			if _, err := fts.ExecContext(ctx, id, r.prompt, r.text, r.think, r.tool); err != nil {
				return err
			}
		}
	}
	s := &f.state
	if _, err := tx.ExecContext(ctx, `UPDATE files SET size = ?, mtime = ?, indexed = ?, head = ?, tail = ?, lines = ?,
		physical = ?, entries = ?, messages = ?, seq = ?, header = ?, session = ?, cwd = ?, name = ?, first_prompt = ?, created = ?,
		skipped = ? WHERE id = ?`,
		size, mtime, f.indexed, f.head, f.tail, s.lines, s.physical, s.entries, s.messages, s.seq, s.header, s.session, s.cwd,
		s.name, s.prompt, s.created, f.skipped, f.id); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	if !done && testHookBatch != nil {
		testHookBatch()
	}
	w.added += len(w.rows)
	w.rows, w.bytes = w.rows[:0], 0
	f.size, f.mtime = size, mtime
	return nil
}
