package sessionindex

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"
	"time"
)

// rankCap bounds how many entries one query ranks: bm25 costs a few µs an
// entry, and a word in most entries ("the", "go") would otherwise take
// seconds on a large index. Past the cap only the most recent entries (of
// the files first seen last) are ranked; the others are still counted.
const rankCap = 10000

// snippetTokens is about how many words a snippet has.
const snippetTokens = 16

// maxSnippetLine bounds the line read back from a session file for a
// snippet; a longer one (a pasted log) gets none.
const maxSnippetLine = 8 << 20

// ranking weights bm25's columns and adjusts its score by age (last
// month's session before last year's, when the words match as well) and by
// how many entries match. A variable so a test can turn a part off.
var ranking = struct {
	// Weights of the columns prompt, text, thinking and tool: what the
	// user wrote is what they remember.
	prompt, text, thinking, tool float64
	// recent is the boost of an entry from now; it halves every halfLife.
	recent   float64
	halfLife time.Duration
	// more is the boost of a session per e-fold of its matching entries:
	// a session that is about the words before one that mentions them.
	more float64
}{
	prompt: 1.5, text: 1, thinking: 0.4, tool: 0.5,
	recent:   0.3,
	halfLife: 30 * 24 * time.Hour,
	more:     0.15,
}

// Hit is one session that matches, with the entry that matches best.
type Hit struct {
	// Path is the session file.
	Path string
	// What the browser shows of the session: its id, working folder, name
	// (the last /name) and first prompt (one line, cut), and when the file
	// was last changed.
	SessionID, Cwd, Name, FirstPrompt string
	Modified                          time.Time

	// The entry that matched best: its id (what the agent's fork and the
	// tree know it by), its kind (KindUser, …) and its timestamp (zero
	// when it has none).
	EntryID string
	Kind    string
	Time    time.Time
	// Ordinal counts the message entries before it in the file, in file
	// order and on every branch, from 0; for an entry that is no message
	// (a summary, a name), the messages before it. Line is the entry's
	// line number in the file, from 1.
	Ordinal, Line int
	// Field is the part of the entry the snippet is from: "text" (what
	// the user or the assistant wrote), "thinking" or "tool" (a tool call
	// or its result).
	Field string
	// Snippet is a few words around the matches, on one line, with "…"
	// where text was left out; Matches are the matched words' byte ranges
	// in it (RuneRanges converts them). Both are empty when the entry can
	// no longer be read from the file as it was indexed (the file changed
	// since: the next Update reads it again).
	Snippet string
	Matches []Range
	// Count is how many entries of the session match.
	Count int
	// Score orders hits, higher first.
	Score float64
}

// Search finds the sessions whose entries hold every word of query (the
// last one as a prefix, unless query ends with a space), best first, at
// most limit of them (20 when limit is not positive), each with its best
// entry. An empty query, or one of no words, finds nothing and is no
// error. Search may run on any goroutine, while Update runs too; it stops
// at ctx's end (the browser cancels it on the next keystroke).
func (x *Index) Search(ctx context.Context, query string, limit int) ([]Hit, error) {
	q := parseQuery(query)
	if q.fts == "" {
		return nil, nil
	}
	if limit <= 0 {
		limit = 20
	}
	x.mu.RLock()
	defer x.mu.RUnlock()
	if x.rd == nil {
		return nil, ErrClosed
	}
	hits, err := x.search(ctx, q, limit, time.Now())
	if damaged(err) {
		x.broken.Store(true)
	}
	return hits, err
}

// cand is a session while the best ones are picked: its best row.
type cand struct {
	id, file  int64
	rank      float64 // bm25's, lower is better
	ts        int64
	count     int
	score     float64
	hit       Hit
	off, size int64
}

func (x *Index) search(ctx context.Context, q query, limit int, now time.Time) ([]Hit, error) {
	// The newest rankCap matching entries with their bm25 (FTS5 evaluates
	// the query once and computes bm25 only for the rows it returns).
	rows, err := x.rd.QueryContext(ctx, fmt.Sprintf(`SELECT rowid, bm25(fts, %g, %g, %g, %g) FROM fts
		WHERE fts MATCH ? ORDER BY rowid DESC LIMIT %d`,
		ranking.prompt, ranking.text, ranking.thinking, ranking.tool, rankCap), q.fts)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	byFile := map[int64]*cand{}
	n, last := 0, int64(0)
	for rows.Next() {
		var id int64
		var rank float64
		if err := rows.Scan(&id, &rank); err != nil {
			return nil, err
		}
		n, last = n+1, id
		c := byFile[id>>32]
		if c == nil {
			c = &cand{id: id, file: id >> 32, rank: rank}
			byFile[c.file] = c
		} else if rank < c.rank {
			c.id, c.rank = id, rank
		}
		c.count++
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows.Close()
	if n == rankCap {
		// Too many to rank: the rest are only counted.
		if err := x.countRest(ctx, q, last, byFile); err != nil {
			return nil, err
		}
	}
	if len(byFile) == 0 {
		return nil, nil
	}
	cands := make([]*cand, 0, len(byFile))
	for _, c := range byFile {
		cands = append(cands, c)
	}
	cands, err = x.pickTop(ctx, cands, limit, now)
	if err != nil {
		return nil, err
	}
	if err := x.entryRows(ctx, cands); err != nil {
		return nil, err
	}
	if err := x.fileRows(ctx, cands); err != nil {
		return nil, err
	}
	out := make([]Hit, len(cands))
	for i, c := range cands {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		h := &c.hit
		h.Count, h.Score = c.count, c.score
		if c.ts > 0 {
			h.Time = time.UnixMilli(c.ts)
		}
		h.Field, h.Snippet, h.Matches = readSnippet(h.Path, c.off, c.size, h.EntryID, q.phrases)
		out[i] = *h
	}
	return out, nil
}

// countRest counts, per file, the matching entries older than rowid last.
// Counted here rather than with GROUP BY, which sorts: the rowids come in
// order.
func (x *Index) countRest(ctx context.Context, q query, last int64, byFile map[int64]*cand) error {
	rows, err := x.rd.QueryContext(ctx, `SELECT rowid FROM fts WHERE fts MATCH ? AND rowid < ? ORDER BY rowid DESC`, q.fts, last)
	if err != nil {
		return err
	}
	defer rows.Close()
	var c *cand
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return err
		}
		if c == nil || c.file != id>>32 {
			if c = byFile[id>>32]; c == nil {
				// Matches only in entries too old to be ranked: the
				// session is found, ranked below every ranked one, with
				// its newest match.
				c = &cand{id: id, file: id >> 32, rank: math.Inf(1)}
				byFile[c.file] = c
			}
		}
		c.count++
	}
	return rows.Err()
}

// pickTop returns the limit best candidates, best first. A score needs
// the best entry's timestamp, one lookup each: the score without the boost
// for age, times the largest boost, bounds it, and timestamps are read in
// the order of that bound until no candidate left can beat the limit-th.
func (x *Index) pickTop(ctx context.Context, cands []*cand, limit int, now time.Time) ([]*cand, error) {
	bound := func(c *cand) float64 {
		s := score(c.rank, 0, c.count, now)
		if s > 0 {
			s *= 1 + ranking.recent
		}
		return s
	}
	for _, c := range cands {
		c.score = bound(c)
	}
	order := func(a, b *cand) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		return cmp.Compare(b.id, a.id)
	}
	slices.SortFunc(cands, order)
	stmt, err := x.rd.PrepareContext(ctx, `SELECT ts FROM entries WHERE id = ?`)
	if err != nil {
		return nil, err
	}
	defer stmt.Close()
	var top []*cand // scored, best first, at most limit
	for _, c := range cands {
		if len(top) == limit && c.score < top[limit-1].score {
			break
		}
		if err := stmt.QueryRowContext(ctx, c.id).Scan(&c.ts); err != nil {
			return nil, err
		}
		c.score = score(c.rank, c.ts, c.count, now)
		i, _ := slices.BinarySearchFunc(top, c, order)
		top = slices.Insert(top, i, c)
		top = top[:min(len(top), limit)]
	}
	return top, nil
}

// entryRows reads what the hits show of their best entries.
func (x *Index) entryRows(ctx context.Context, cands []*cand) error {
	stmt, err := x.rd.PrepareContext(ctx, `SELECT entry, ts, kind, ordinal, line, offset, length FROM entries WHERE id = ?`)
	if err != nil {
		return err
	}
	defer stmt.Close()
	for _, c := range cands {
		h := &c.hit
		if err := stmt.QueryRowContext(ctx, c.id).Scan(&h.EntryID, &c.ts, &h.Kind, &h.Ordinal, &h.Line, &c.off, &c.size); err != nil {
			return err
		}
	}
	return nil
}

// fileRows reads what the hits show of their sessions.
func (x *Index) fileRows(ctx context.Context, cands []*cand) error {
	stmt, err := x.rd.PrepareContext(ctx, `SELECT path, session, cwd, name, first_prompt, mtime FROM files WHERE id = ?`)
	if err != nil {
		return err
	}
	defer stmt.Close()
	for _, c := range cands {
		h := &c.hit
		var mtime int64
		if err := stmt.QueryRowContext(ctx, c.file).Scan(&h.Path, &h.SessionID, &h.Cwd, &h.Name, &h.FirstPrompt, &mtime); err != nil {
			return err
		}
		if mtime > 0 {
			h.Modified = time.Unix(0, mtime)
		}
	}
	return nil
}

// score turns bm25's rank (lower is better) into a session's score
// (higher is better): boosted for a recent entry, and for a session with
// many matching entries.
func score(rank float64, ts int64, count int, now time.Time) float64 {
	if math.IsInf(rank, 1) {
		return 0
	}
	s := -rank
	if ts > 0 && ranking.recent > 0 {
		age := max(now.Sub(time.UnixMilli(ts)), 0)
		s *= 1 + ranking.recent*math.Exp2(-float64(age)/float64(ranking.halfLife))
	}
	if count > 1 {
		s *= 1 + ranking.more*math.Log(float64(count))
	}
	return s
}

// readSnippet reads an entry's line back from its session file (the index
// keeps no copy of the text) and makes its snippet from the field that
// matches best.
func readSnippet(path string, off, size int64, entryID string, phrases []phrase) (field, text string, ranges []Range) {
	if size <= 0 || size > maxSnippetLine {
		return "", "", nil
	}
	f, err := os.Open(path)
	if err != nil {
		return "", "", nil
	}
	defer f.Close()
	buf := make([]byte, size)
	if _, err := f.ReadAt(buf, off); err != nil && err != io.EOF {
		return "", "", nil
	}
	r, ok := entryFields(bytes.TrimSpace(buf))
	if !ok || r.entry != entryID && !(r.entry == "" && strings.HasPrefix(entryID, "v1-")) {
		return "", "", nil // the file changed since it was indexed
	}
	var best snippetScore
	for _, c := range []struct{ field, s string }{{"text", r.prompt}, {"text", r.text}, {"thinking", r.think}, {"tool", r.tool}} {
		if c.s == "" {
			continue
		}
		s, rs, sc := snippet(c.s, phrases, snippetTokens)
		if field == "" || sc.better(best) {
			field, text, ranges, best = c.field, s, rs, sc
		}
	}
	return field, text, ranges
}
