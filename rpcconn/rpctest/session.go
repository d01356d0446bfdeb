package rpctest

import (
	"encoding/json"
)

// entry is one record of the append-only session tree. It is kept as the JSON
// it was written as, so entries loaded from a file and entries made here are
// the same thing and are returned byte for byte.
type entry struct {
	ID       string
	ParentID string // "" for a root
	Type     string
	Raw      json.RawMessage
}

// session is the in-memory session: a tree of entries with a current leaf.
// Its methods are not safe for concurrent use; the agent's mutex guards it.
type session struct {
	ID            string
	File          string // "" when the session lives only in memory
	Cwd           string
	ParentSession string
	Name          string

	entries []entry
	index   map[string]int
	leaf    string
}

func newSession(dir, cwd, parentSession string) (*session, error) {
	s := &session{ID: newUUID(), Cwd: cwd, ParentSession: parentSession, index: map[string]int{}}
	if dir != "" {
		s.File = sessionFileName(dir, s.ID)
		if err := s.writeHeader(); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// append adds an entry of type typ under the current leaf and makes it the
// leaf. fields are further key/value pairs after the common header.
func (s *session) append(typ string, fields ...any) entry {
	e := entry{ID: s.freshID(), ParentID: s.leaf, Type: typ}
	var parent any
	if e.ParentID != "" {
		parent = e.ParentID
	}
	rec := obj("type", typ, "id", e.ID, "parentId", parent, "timestamp", nowISO())
	rec = append(rec, obj(fields...)...)
	e.Raw = mustJSON(rec)
	s.add(e)
	s.persist(e)
	return e
}

func (s *session) add(e entry) {
	s.index[e.ID] = len(s.entries)
	s.entries = append(s.entries, e)
	s.leaf = e.ID
}

func (s *session) freshID() string {
	for {
		id := newID()
		if _, taken := s.index[id]; !taken {
			return id
		}
	}
}

func (s *session) appendMessage(m any) entry { return s.append("message", "message", m) }

func (s *session) get(id string) (entry, bool) {
	i, ok := s.index[id]
	if !ok {
		return entry{}, false
	}
	return s.entries[i], true
}

// pathTo lists the entries from the root down to id; the active branch is
// pathTo(leaf).
func (s *session) pathTo(id string) []entry {
	var rev []entry
	for id != "" {
		e, ok := s.get(id)
		if !ok {
			break
		}
		rev = append(rev, e)
		id = e.ParentID
	}
	path := make([]entry, len(rev))
	for i, e := range rev {
		path[len(rev)-1-i] = e
	}
	return path
}

func (s *session) branch() []entry { return s.pathTo(s.leaf) }

// messageOf returns the message of a message entry, or nil.
func messageOf(e entry) json.RawMessage {
	if e.Type != "message" {
		return nil
	}
	var v struct {
		Message json.RawMessage `json:"message"`
	}
	json.Unmarshal(e.Raw, &v)
	return v.Message
}

type compactionFields struct {
	Summary          string `json:"summary"`
	FirstKeptEntryID string `json:"firstKeptEntryId"`
	TokensBefore     int    `json:"tokensBefore"`
}

// messages is the model's context on the active branch: after a compaction,
// its summary followed by the entries it kept and everything since.
func (s *session) messages() []json.RawMessage {
	path := s.branch()
	last := -1
	for i, e := range path {
		if e.Type == "compaction" {
			last = i
		}
	}
	var out []json.RawMessage
	from := 0
	if last >= 0 {
		var c compactionFields
		json.Unmarshal(path[last].Raw, &c)
		out = append(out, mustJSON(compactionSummaryMessage{
			Role: "compactionSummary", Summary: c.Summary, TokensBefore: c.TokensBefore, Timestamp: nowMillis(),
		}))
		from = last
		for i := 0; i < last; i++ {
			if path[i].ID == c.FirstKeptEntryID {
				from = i
				break
			}
		}
	}
	for i := from; i < len(path); i++ {
		if m := messageOf(path[i]); m != nil {
			out = append(out, m)
		}
	}
	return out
}

// since returns the entries appended after id, in append order.
func (s *session) since(id string) ([]entry, error) {
	if id == "" {
		return s.entries, nil
	}
	i, ok := s.index[id]
	if !ok {
		return nil, errorf("Entry not found: %s", id)
	}
	return s.entries[i+1:], nil
}

func (s *session) leafOrNull() any {
	if s.leaf == "" {
		return nil
	}
	return s.leaf
}

type treeNode struct {
	Entry          json.RawMessage `json:"entry"`
	Children       []*treeNode     `json:"children"`
	Label          string          `json:"label,omitempty"`
	LabelTimestamp string          `json:"labelTimestamp,omitempty"`
}

// tree nests the entries by parent. An entry whose parent is missing becomes
// a root too, as the protocol describes for broken chains.
func (s *session) tree() []*treeNode {
	nodes := make(map[string]*treeNode, len(s.entries))
	roots := []*treeNode{}
	for _, e := range s.entries {
		n := &treeNode{Entry: e.Raw, Children: []*treeNode{}}
		nodes[e.ID] = n
		if p, ok := nodes[e.ParentID]; ok {
			p.Children = append(p.Children, n)
		} else {
			roots = append(roots, n)
		}
	}
	for _, e := range s.entries {
		if e.Type != "label" {
			continue
		}
		var l struct {
			TargetID  string `json:"targetId"`
			Label     string `json:"label"`
			Timestamp string `json:"timestamp"`
		}
		json.Unmarshal(e.Raw, &l)
		if n, ok := nodes[l.TargetID]; ok {
			n.Label, n.LabelTimestamp = l.Label, l.Timestamp
		}
	}
	return roots
}

// copyPath starts a new session holding the entries from the root to id,
// keeping their ids, the way fork and clone branch off a session.
func (s *session) copyPath(id, dir string) (*session, error) {
	n, err := newSession(dir, s.Cwd, s.File)
	if err != nil {
		return nil, err
	}
	n.Name = s.Name
	for _, e := range s.pathTo(id) {
		n.add(e)
		n.persist(e)
	}
	return n, nil
}

// hasRole reports whether the active branch holds a message of role.
func (s *session) hasRole(role string) bool {
	for _, e := range s.branch() {
		if e.Type != "message" {
			continue
		}
		var m struct {
			Message struct {
				Role string `json:"role"`
			} `json:"message"`
		}
		if json.Unmarshal(e.Raw, &m) == nil && m.Message.Role == role {
			return true
		}
	}
	return false
}
