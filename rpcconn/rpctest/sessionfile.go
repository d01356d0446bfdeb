package rpctest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Sessions are saved only with --session-dir or --session: a fake must not
// litter a developer's home with test sessions.

func sessionFileName(dir, id string) string {
	stamp := strings.NewReplacer(":", "-", ".", "-").Replace(time.Now().UTC().Format("2006-01-02T15:04:05.000Z"))
	return filepath.Join(dir, stamp+"_"+id+".jsonl")
}

func (s *session) writeHeader() error {
	if err := os.MkdirAll(filepath.Dir(s.File), 0o755); err != nil {
		return err
	}
	h := obj("type", "session", "version", 3, "id", s.ID, "timestamp", nowISO(), "cwd", s.Cwd)
	if s.ParentSession != "" {
		h = h.with("parentSession", s.ParentSession)
	}
	return os.WriteFile(s.File, append(mustJSON(h), '\n'), 0o644)
}

func (s *session) persist(e entry) {
	if s.File == "" {
		return
	}
	f, err := os.OpenFile(s.File, os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		fmt.Fprintf(os.Stderr, "fake-knightcode: cannot save session: %v\n", err)
		return
	}
	defer f.Close()
	f.Write(append(append([]byte{}, e.Raw...), '\n'))
}

// loadSession reads a session file written by this fake (or the agent):
// a header line, then one entry per line. The leaf is the last entry.
func loadSession(path string) (*session, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, errorf("Session file not found: %s", path)
	}
	s := &session{File: path, index: map[string]int{}}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, len(data)+1)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var h struct {
			Type          string  `json:"type"`
			ID            string  `json:"id"`
			ParentID      *string `json:"parentId"`
			Cwd           string  `json:"cwd"`
			ParentSession string  `json:"parentSession"`
			Name          string  `json:"name"`
		}
		if json.Unmarshal(line, &h) != nil || h.ID == "" {
			continue
		}
		if h.Type == "session" {
			s.ID, s.Cwd, s.ParentSession = h.ID, h.Cwd, h.ParentSession
			continue
		}
		if h.Type == "session_info" {
			s.Name = h.Name
		}
		e := entry{ID: h.ID, Type: h.Type, Raw: append(json.RawMessage{}, line...)}
		if h.ParentID != nil {
			e.ParentID = *h.ParentID
		}
		s.add(e)
	}
	if s.ID == "" {
		return nil, errorf("Not a session file: %s", path)
	}
	return s, nil
}
