package sessionfiles

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"
)

// firstPromptRunes bounds SessionInfo.FirstPrompt: a browser row shows one
// line, and a pasted log as first prompt must not make a row megabytes long.
const firstPromptRunes = 120

// probeLines is how many lines a file without a header may fail to parse
// before it is taken for something that is not a session at all, so a large
// non-session file is not read to its end.
const probeLines = 16

// sessionEntryTypes are the entry types pi writes after the header; a file without
// a header is still a session when its lines are of these types.
var sessionEntryTypes = map[string]bool{
	"message": true, "model_change": true, "thinking_level_change": true,
	"compaction": true, "branch_summary": true, "custom": true,
	"custom_message": true, "label": true, "session_info": true,
}

// scanEntry is the part of an entry the browser uses. Message content is
// left out: encoding/json then only scans past it.
type scanEntry struct {
	Type string `json:"type"`
	ID   string `json:"id"`
	// header
	Timestamp     string `json:"timestamp"`
	Cwd           string `json:"cwd"`
	ParentSession string `json:"parentSession"`
	// session_info; a missing name clears it, as in pi
	Name string `json:"name"`
	// model_change
	Provider string `json:"provider"`
	ModelID  string `json:"modelId"`
	Message  *struct {
		Role     string `json:"role"`
		Provider string `json:"provider"`
		Model    string `json:"model"`
	} `json:"message"`
}

// sessionScanResult is one file's SessionInfo, or why it is no session.
type sessionScanResult struct {
	info    Info
	skipped string
	// noCwd is set when no header names the working folder: such a file
	// belongs to the folder its session folder's name encodes.
	noCwd bool
}

// errOtherFolder stops a scan when the header shows another working folder.
var errOtherFolder = errors.New("session of another folder")

// scanSessionFile reads path once, decoding only what SessionInfo needs.
// keep, when set, is asked after the header whether the file is wanted.
func scanSessionFile(ctx context.Context, path string, keep func(cwd string) bool) (sessionScanResult, error) {
	f, err := os.Open(path)
	if err != nil {
		return sessionScanResult{skipped: err.Error()}, nil
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return sessionScanResult{skipped: err.Error()}, nil
	}
	s := sessionScan{info: Info{Path: path, Modified: st.ModTime()}}
	lines := newSessionLines(f)
	for {
		if s.lines%256 == 0 && ctx.Err() != nil {
			return sessionScanResult{}, ctx.Err()
		}
		head, whole, err := lines.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return sessionScanResult{skipped: err.Error()}, nil
		}
		s.lines++
		if s.lines == 1 {
			if reason := notJSONLines(head); reason != "" {
				return sessionScanResult{skipped: reason}, nil
			}
		}
		if err := s.line(lines, head, whole); err != nil {
			return sessionScanResult{skipped: err.Error()}, nil
		}
		if s.lines == 1 && s.info.Cwd != "" && keep != nil && !keep(s.info.Cwd) {
			return sessionScanResult{}, errOtherFolder
		}
		if !s.header && s.entries == 0 && s.lines >= probeLines {
			break
		}
	}
	return s.result(), nil
}

// notJSONLines rejects at the first line what cannot be a session file.
func notJSONLines(head []byte) string {
	if bytes.IndexByte(head, 0) >= 0 || !validUTF8Head(head) {
		return "binary data, not a session file"
	}
	if t := bytes.TrimSpace(head); len(t) == 0 || t[0] != '{' {
		return "not JSON lines, not a session file"
	}
	return ""
}

// validUTF8Head is utf8.Valid allowing for a last rune cut off where a long
// line's head ends. pi writes only valid UTF-8.
func validUTF8Head(head []byte) bool {
	for i := 0; i < utf8.UTFMax && !utf8.Valid(head); i++ {
		if len(head) < lineHead {
			return false
		}
		head = head[:len(head)-1]
	}
	return utf8.Valid(head)
}

// sessionScan accumulates one file's SessionInfo line by line.
type sessionScan struct {
	info      Info
	lines     int
	header    bool
	entries   int
	malformed int
	truncated bool
	// firstLine is the number of the first malformed line, for the message.
	firstLine int
}

// line takes one line. Long lines are decoded only when they may hold what
// the browser shows: the header, names, models, and the first user message;
// tool results and the like are skipped unread.
func (s *sessionScan) line(lines *sessionLines, head []byte, whole bool) error {
	if !whole {
		typ, role := prefixTypeRole(head)
		if !s.wantWhole(typ, role) {
			if _, err := lines.skip(); err != nil {
				return err
			}
			if !lines.terminated && lines.last != '}' {
				s.truncated = true
				return nil
			}
			s.count(typ, role)
			return nil
		}
		var err error
		if head, err = lines.rest(); err != nil {
			return err
		}
	}
	var e scanEntry
	if err := json.Unmarshal(head, &e); err != nil || e.Type == "" {
		s.bad(lines)
		return nil
	}
	if e.Type == "session" {
		if s.lines == 1 {
			s.header = true
			s.takeHeader(e)
		}
		return nil
	}
	if !sessionEntryTypes[e.Type] && !s.header {
		// Without a header, only known entry types make a file a session;
		// with one, an unknown type is a newer agent's entry.
		s.bad(lines)
		return nil
	}
	role := ""
	if e.Message != nil {
		role = e.Message.Role
	}
	s.count(e.Type, role)
	switch e.Type {
	case "session_info":
		s.info.Name = strings.TrimSpace(e.Name)
	case "model_change":
		s.info.Model = providerModel(e.Provider, e.ModelID)
	case "message":
		if e.Message == nil {
			return nil
		}
		switch e.Message.Role {
		case "assistant":
			if m := providerModel(e.Message.Provider, e.Message.Model); m != "" {
				s.info.Model = m
			}
		case "user":
			if s.info.FirstPrompt == "" {
				s.info.FirstPrompt = promptLine(userMessageText(head), firstPromptRunes)
			}
		}
	}
	return nil
}

// wantWhole reports whether a long line must be read whole. An unknown type
// is read whole too: a line whose type could not be found in its head is
// checked rather than counted blindly.
func (s *sessionScan) wantWhole(typ, role string) bool {
	switch typ {
	case "message":
		// A role not found in the head (a huge line) is read whole, but a
		// system prompt is skipped: its role comes first.
		return role == "" || role == "assistant" || (role == "user" && s.info.FirstPrompt == "")
	case "thinking_level_change", "compaction", "branch_summary", "custom", "custom_message", "label":
		return false
	}
	return true
}

// count counts an entry, and the messages a person reads: pi 1.6 records
// its system prompt as a message of role system, which is not one.
func (s *sessionScan) count(typ, role string) {
	s.entries++
	if typ == "message" && role != "system" {
		s.info.MessageCount++
	}
}

func (s *sessionScan) bad(lines *sessionLines) {
	if !lines.terminated {
		s.truncated = true
		return
	}
	if s.malformed == 0 {
		s.firstLine = lines.number
	}
	s.malformed++
}

func (s *sessionScan) takeHeader(e scanEntry) {
	s.info.ID = e.ID
	s.info.Cwd = e.Cwd
	s.info.ParentSession = e.ParentSession
	if t, err := time.Parse(time.RFC3339Nano, e.Timestamp); err == nil {
		s.info.Created = t
	}
	if e.ID == "" {
		s.problem("the header has no session id: opening it in the agent would replace its contents")
	}
	if e.Cwd == "" {
		s.problem("the header has no working folder")
	}
}

func (s *sessionScan) problem(p string) { s.info.Problems = append(s.info.Problems, p) }

func (s *sessionScan) result() sessionScanResult {
	switch {
	case s.lines == 0:
		return sessionScanResult{skipped: "empty file"}
	case !s.header && s.entries == 0 && s.truncated && s.lines == 1:
		return sessionScanResult{skipped: "only a truncated line, no complete entry"}
	case !s.header && s.entries == 0:
		return sessionScanResult{skipped: "no session header and no session entries"}
	}
	if !s.header {
		// First, as it explains the missing ID, folder and creation time. pi
		// takes such a file for a new session and overwrites it.
		s.info.Problems = append([]string{"no session header: opening it in the agent would replace its contents"}, s.info.Problems...)
	}
	if s.malformed == 1 {
		s.problem(fmt.Sprintf("line %d is not a valid entry", s.firstLine))
	} else if s.malformed > 1 {
		s.problem(fmt.Sprintf("%d lines are not valid entries (the first is line %d)", s.malformed, s.firstLine))
	}
	if s.truncated {
		s.problem("last line is truncated")
	}
	name := filepath.Base(s.info.Path)
	if s.info.ID == "" {
		s.info.ID = idFromFileName(name)
	}
	if s.info.Created.IsZero() {
		s.info.Created = timeFromFileName(name, s.info.Modified)
	}
	return sessionScanResult{info: s.info, noCwd: s.info.Cwd == ""}
}

// Describe reads what the browser shows about one session file. A file it
// cannot read, or that is no session, gives an Info with only its path.
func Describe(path string) Info {
	r, err := scanSessionFile(context.Background(), path, nil)
	if err != nil || r.skipped != "" {
		return Info{Path: path}
	}
	return r.info
}
