package sessionindex

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
)

// rankCap bounds how many entries one query ranks: bm25 costs about 4 µs
// an entry here, and a word in most entries ("the", "go") would otherwise
// take seconds on a large index. Past the cap only the most recent
// entries (of the files first seen last) are ranked; counts are then
// counted apart.
const rankCap = 15000

// snippetTokens is about how many words a snippet has.
const snippetTokens = 16

// ranking weights bm25's columns and adjusts its score by age (last
// month's session before last year's, when the words match as well). A
// variable so the benchmark can measure it against plain bm25.
var ranking = struct {
	// Weights of the columns prompt, text, thinking and tool: what the
	// user wrote is what they remember.
	prompt, text, thinking, tool float64
	// recent is the boost of an entry from now; it halves every halfLife.
	recent   float64
	halfLife time.Duration
}{
	prompt: 1.5, text: 1, thinking: 0.4, tool: 0.5,
	recent:   0.3,
	halfLife: 30 * 24 * time.Hour,
}

// Hit is the best match in one session.
type Hit struct {
	// Path is the session file.
	Path string
	// What the browser shows of the session: its id, working folder, name
	// (the last /name) and first prompt (one line, cut), and when the file
	// was last changed.
	SessionID, Cwd, Name, FirstPrompt string
	Modified                          time.Time

	// The entry that matched best: its id, its kind (KindUser, …) and time.
	EntryID string
	Kind    string
	Time    time.Time
	// Ordinal counts the message entries before it in the file, in file
	// order and on every branch, from 0; for an entry that is no message
	// (a summary, a name), the messages before it.
	Ordinal int
	// Field is the part of the entry that matched: "text", "thinking" or
	// "tool".
	Field string
	// Snippet is a few words around the matches, on one line, with "…"
	// where text was left out; Matches are the matched words' byte ranges
	// in it.
	Snippet string
	Matches []Range
	// Count is how many entries of the session match.
	Count int
	// Score orders hits, higher first.
	Score float64
}

// Search finds the sessions whose entries hold every word of query (the
// last one as a prefix, unless query ends with a space), best first, at
// most limit of them (20 when limit is not positive), with each one's best
// entry. An empty query, or one of no words, finds nothing and is no
// error. Search stops at ctx's end: the browser cancels it on the next
// keystroke.
func (x *Index) Search(ctx context.Context, query string, limit int) ([]Hit, error) {
	q := ftsQuery(query, x.cfg.tokenizer == tokTrigram)
	if q == "" {
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

// cand is a hit while the best ones are picked: with its row and file.
type cand struct {
	Hit
	id, file int64
}

func (x *Index) search(ctx context.Context, q string, limit int, now time.Time) ([]Hit, error) {
	// The rowid past which rankCap entries match, if more do.
	bound := int64(-1)
	capped := true
	err := x.rd.QueryRowContext(ctx, `SELECT rowid FROM fts WHERE fts MATCH ? ORDER BY rowid DESC LIMIT 1 OFFSET ?`,
		q, rankCap).Scan(&bound)
	if errors.Is(err, sql.ErrNoRows) {
		capped, err = false, nil
	}
	if err != nil {
		return nil, err
	}
	// The best entry of each file, and how many match. SQLite takes the
	// bare columns from the row where min() found its value.
	rows, err := x.rd.QueryContext(ctx, `SELECT g.id, g.r, g.n, e.entry, e.ts, e.kind, e.ordinal
		FROM (SELECT rowid AS id, min(rank) AS r, count(*) AS n FROM fts
			WHERE fts MATCH ? AND rank MATCH ? AND rowid > ? GROUP BY rowid >> 32) AS g
		JOIN entries AS e ON e.id = g.id`,
		q, fmt.Sprintf("bm25(%g, %g, %g, %g)", ranking.prompt, ranking.text, ranking.thinking, ranking.tool), bound)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var cands []*cand
	for rows.Next() {
		c := &cand{}
		var ts int64
		var rank float64
		if err := rows.Scan(&c.id, &rank, &c.Count, &c.EntryID, &ts, &c.Kind, &c.Ordinal); err != nil {
			return nil, err
		}
		if ts > 0 {
			c.Time = time.UnixMilli(ts)
		}
		c.Score = score(rank, c.Time, now)
		c.file = c.id >> 32
		cands = append(cands, c)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows.Close()
	slices.SortFunc(cands, func(a, b *cand) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(b.id, a.id)
	})
	cands = cands[:min(limit, len(cands))]
	out := make([]Hit, 0, len(cands))
	for _, c := range cands {
		if err := x.fill(ctx, q, c, capped); err != nil {
			return nil, err
		}
		out = append(out, c.Hit)
	}
	return out, nil
}

// score turns bm25's rank (lower is better) into a score (higher is
// better) with the boost for recent entries.
func score(rank float64, at, now time.Time) float64 {
	s := -rank
	if !at.IsZero() && ranking.recent > 0 {
		age := max(now.Sub(at), 0)
		s *= 1 + ranking.recent*math.Exp2(-float64(age)/float64(ranking.halfLife))
	}
	return s
}

// fill adds to a hit what the browser shows: the session's title fields,
// the snippet and how many entries match.
func (x *Index) fill(ctx context.Context, q string, h *cand, count bool) error {
	file := h.file
	var mtime int64
	if err := x.rd.QueryRowContext(ctx, `SELECT path, session, cwd, name, first_prompt, mtime FROM files WHERE id = ?`,
		file).Scan(&h.Path, &h.SessionID, &h.Cwd, &h.Name, &h.FirstPrompt, &mtime); err != nil {
		return err
	}
	if mtime > 0 {
		h.Modified = time.Unix(0, mtime)
	}
	var s [4]string
	if err := x.rd.QueryRowContext(ctx, `SELECT snippet(fts, 0, char(1), char(2), '…', ?1),
		snippet(fts, 1, char(1), char(2), '…', ?1), snippet(fts, 2, char(1), char(2), '…', ?1),
		snippet(fts, 3, char(1), char(2), '…', ?1)
		FROM fts WHERE fts MATCH ?2 AND rowid = ?3`, snippetTokens, q, h.id).Scan(&s[0], &s[1], &s[2], &s[3]); err != nil {
		return err
	}
	for i, field := range []string{"text", "text", "thinking", "tool"} {
		if strings.ContainsRune(s[i], markOpen) {
			h.Field = field
			h.Snippet, h.Matches = parseSnippet(s[i])
			break
		}
	}
	if h.Field == "" { // words matched in different columns
		h.Field = "text"
		h.Snippet, h.Matches = parseSnippet(s[0] + s[1])
	}
	if !count {
		return nil
	}
	return x.rd.QueryRowContext(ctx, `SELECT count(*) FROM fts WHERE fts MATCH ? AND rowid BETWEEN ? AND ?`,
		q, file<<32, file<<32|(1<<32-1)).Scan(&h.Count)
}
