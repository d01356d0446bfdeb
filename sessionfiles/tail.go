package sessionfiles

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"knightcode.ai/desktop/rpcconn"
)

// Tail says what ReadTranscriptTail looks for.
type Tail struct {
	// Messages is how many counted messages are enough; 0 reads the whole
	// current branch.
	Messages int
	// Roles are the roles of the messages returned; nil returns all, and
	// the branch and compaction summaries, as ReadTranscript does.
	Roles []string
	// Counts tells whether a message returned counts towards Messages; nil
	// counts each.
	Counts func(rpcconn.Message) bool
}

// ReadTranscriptTail is the end of what ReadTranscript returns, read from
// the end of the file: the last messages of the current branch of roles
// t.Roles, at least t.Messages counted ones when the branch has that many,
// in order. It reads the file backwards a chunk at a time, following the
// branch from the last entry through the parent ids (branches, compactions
// and version 1 files as ReadTranscript sees them), and stops once it has
// enough; a long line is looked at by its head and read whole only when it
// is returned. It checks ctx between chunks and returns its error once it
// ended.
//
// A file this cannot follow backwards — a parent written after its child,
// an id that comes again, ids of a version 1 file named as parents — is
// read whole with ReadTranscript. Ids are random in files pi writes, so a
// repeated id earlier than where the walk stops is not looked for.
func ReadTranscriptTail(ctx context.Context, path string, t Tail) ([]rpcconn.Message, error) {
	msgs, _, err := readTranscriptTail(ctx, path, t)
	return msgs, err
}

// readTranscriptTail is ReadTranscriptTail saying how many bytes it read
// backwards, for tests.
func readTranscriptTail(ctx context.Context, path string, t Tail) (msgs []rpcconn.Message, read int64, err error) {
	if err := ctx.Err(); err != nil {
		return nil, 0, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, 0, err
	}
	if err := checkFirstLine(path, f); err != nil {
		return nil, 0, err
	}
	w := &tailWalk{tail: t, lines: newBackLines(ctx, f, st.Size())}
	msgs, err = w.run()
	read = w.lines.read
	switch {
	case errors.Is(err, errNotBackwards):
		if msgs, err = ReadTranscript(path); err != nil {
			return nil, read, err
		}
		return t.pick(msgs), st.Size(), nil
	case err != nil:
		return nil, read, err
	case !w.entries && !w.header:
		return nil, read, fmt.Errorf("%s: no session entries", path)
	}
	return msgs, read, nil
}

// checkFirstLine fails for a file that is no session, as
// readSessionEntries does.
func checkFirstLine(path string, f *os.File) error {
	head, _, err := newSessionLines(io.NewSectionReader(f, 0, lineHead)).next()
	if err != nil {
		return nil // empty: the walk finds no entries
	}
	if reason := notJSONLines(head); reason != "" {
		return fmt.Errorf("%s: %s", path, reason)
	}
	return nil
}

// errNotBackwards: the file must be read from its start.
var errNotBackwards = errors.New("the branch cannot be followed backwards")

// tailWalk follows the current branch backwards.
type tailWalk struct {
	tail  Tail
	lines *backLines
	// entries is set once an entry is found, header once a header line.
	entries, header bool
	// want is the id of the next entry of the branch; previous is set
	// when it is whatever entry comes before (a version 1 entry's parent).
	want     string
	previous bool
	started  bool
	// seen are the ids of the entries passed; onBranch those on it.
	seen, onBranch map[string]bool
	// compaction is the last compaction on the branch, once met; the
	// messages before it are kept only from its first kept entry on.
	compaction *rpcconn.Entry
	// keptReached is set once its first kept entry is on the branch.
	keptReached bool
	// after are the messages after the compaction (all when there is none),
	// kept those before it, newest first; counted how many after counts.
	after, kept []rpcconn.Message
	counted     int
}

// run walks until the branch ends or enough is found, and returns the
// messages in order.
func (w *tailWalk) run() ([]rpcconn.Message, error) {
	w.seen, w.onBranch = map[string]bool{}, map[string]bool{}
	for {
		line, err := w.lines.prev()
		if errors.Is(err, io.EOF) {
			return w.result(true), nil
		}
		if err != nil {
			return nil, err
		}
		done, err := w.step(line)
		if err != nil {
			return nil, err
		}
		if done != walkOn {
			return w.result(done == walkComplete), nil
		}
	}
}

type walkState int

const (
	walkOn       walkState = iota
	walkComplete           // the branch's start is reached
	walkEnough             // enough messages found
)

// tailEntry is what the walk needs of a line.
type tailEntry struct {
	typ, id, role string
	parent        *string
	// entry is the decoded entry, nil for a long line looked at by its head.
	entry *rpcconn.Entry
}

// look finds what line is: ok is false for a line that is no entry
// (blank, undecodable, the header). A long line is read whole only when
// its message may be returned or it is no message.
func (w *tailWalk) look(line backLine, need func(typ, id string) bool) (e tailEntry, ok bool, err error) {
	if line.whole {
		if len(strings.TrimSpace(string(line.text))) == 0 {
			return e, false, nil
		}
		var d rpcconn.Entry
		if json.Unmarshal(line.text, &d) != nil || d.Type == "" {
			return e, false, nil
		}
		return tailEntry{typ: d.Type, id: d.ID, role: roleOf(&d), parent: d.ParentID, entry: &d}, d.Type != "session" || w.sawHeader(), nil
	}
	if line.last != '}' {
		return e, false, nil // cut off: no JSON object
	}
	h := headFieldsOf(line.text)
	if h.complete && h.typ == "session" {
		w.header = true
		return e, false, nil
	}
	e = tailEntry{typ: h.typ, id: h.id, role: h.role, parent: h.parent}
	if h.complete && (!need(e.typ, e.id) || e.typ == "message" && e.role != "" && !w.returns(e.role)) {
		return e, true, nil
	}
	data, err := w.lines.whole(line)
	if err != nil {
		return e, false, err
	}
	var d rpcconn.Entry
	if json.Unmarshal(data, &d) != nil || d.Type == "" {
		return e, false, nil
	}
	if d.Type == "session" {
		w.header = true
		return e, false, nil
	}
	return tailEntry{typ: d.Type, id: d.ID, role: roleOf(&d), parent: d.ParentID, entry: &d}, true, nil
}

// sawHeader notes a header line: it is no entry.
func (w *tailWalk) sawHeader() bool {
	w.header = true
	return false
}

func roleOf(e *rpcconn.Entry) string {
	if e.Message == nil {
		return ""
	}
	if e.Message.Role == "hookMessage" {
		e.Message.Role = rpcconn.RoleCustom
	}
	return e.Message.Role
}

// returns tells whether messages of role are returned.
func (w *tailWalk) returns(role string) bool {
	return w.tail.Roles == nil || slices.Contains(w.tail.Roles, role)
}

// step takes the next line back.
func (w *tailWalk) step(line backLine) (walkState, error) {
	onBranch := func(typ, id string) bool {
		return !w.started || w.previous || id != "" && id == w.want
	}
	e, ok, err := w.look(line, onBranch)
	if err != nil || !ok {
		return walkOn, err
	}
	w.entries = true
	if e.id != "" && w.onBranch[e.id] {
		return walkOn, errNotBackwards // an id again: the first one counts
	}
	if !onBranch(e.typ, e.id) {
		if e.id != "" {
			w.seen[e.id] = true
		}
		return walkOn, nil
	}
	if e.id != "" {
		w.seen[e.id], w.onBranch[e.id] = true, true
	}
	w.started, w.previous = true, false
	if state := w.take(e); state != walkOn {
		return state, nil
	}
	switch {
	case e.id == "" && e.parent == nil:
		// Version 1: the entry before is the parent.
		w.previous = true
	case e.parent == nil || *e.parent == e.id:
		return walkComplete, nil
	case w.seen[*e.parent] || strings.HasPrefix(*e.parent, "v1-"):
		return walkOn, errNotBackwards
	default:
		w.want = *e.parent
	}
	return walkOn, nil
}

// take keeps what an entry of the branch adds to the transcript.
func (w *tailWalk) take(e tailEntry) walkState {
	if w.compaction != nil && e.id == w.compaction.FirstKeptEntryID {
		w.add(e)
		w.keptReached = true
		return walkComplete
	}
	if w.compaction == nil && e.typ == "compaction" && e.entry != nil {
		w.compaction = e.entry
		if e.entry.FirstKeptEntryID == "" {
			return walkComplete
		}
		return walkOn
	}
	return w.add(e)
}

// add keeps the entry's message, if it is one returned.
func (w *tailWalk) add(e tailEntry) walkState {
	var m rpcconn.Message
	switch {
	case e.entry == nil:
		return walkOn // a long message of a role not returned
	case e.entry.Message != nil:
		m = *e.entry.Message
	case e.typ == "branch_summary":
		m = rpcconn.Message{Role: rpcconn.RoleBranchSummary, Summary: e.entry.Summary}
	default:
		return walkOn
	}
	if !w.returns(m.Role) {
		return walkOn
	}
	if w.compaction != nil {
		w.kept = append(w.kept, m)
		return walkOn
	}
	w.after = append(w.after, m)
	if w.tail.Counts == nil || w.tail.Counts(m) {
		w.counted++
	}
	if w.tail.Messages > 0 && w.counted >= w.tail.Messages {
		return walkEnough
	}
	return walkOn
}

// result is the messages found in order; complete is set when the walk
// reached the branch's start.
func (w *tailWalk) result(complete bool) []rpcconn.Message {
	var out []rpcconn.Message
	if c := w.compaction; c != nil && complete {
		if w.returns(rpcconn.RoleCompactionSummary) {
			out = append(out, rpcconn.Message{Role: rpcconn.RoleCompactionSummary, Summary: c.Summary, TokensBefore: c.TokensBefore})
		}
		if !w.keptReached {
			w.kept = nil
		}
		for i := len(w.kept) - 1; i >= 0; i-- {
			out = append(out, w.kept[i])
		}
	}
	for i := len(w.after) - 1; i >= 0; i-- {
		out = append(out, w.after[i])
	}
	// The messages kept before a compaction may be more than needed.
	return w.tail.pick(out)
}

// pick is what ReadTranscriptTail returns of a whole transcript.
func (t Tail) pick(msgs []rpcconn.Message) []rpcconn.Message {
	var out []rpcconn.Message
	counted := 0
	for i := len(msgs) - 1; i >= 0 && (t.Messages == 0 || counted < t.Messages); i-- {
		m := msgs[i]
		if t.Roles != nil && !slices.Contains(t.Roles, m.Role) {
			continue
		}
		out = append(out, m)
		if t.Counts == nil || t.Counts(m) {
			counted++
		}
	}
	slices.Reverse(out)
	return out
}
