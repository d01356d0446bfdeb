package rpctest

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"strconv"
)

// Helpers for benchmarks and tests of long sessions: the same session file
// scripts/bench-ui.sh opens, and the very answer the fake sends for it.

// GenerateSession writes a session file of entries message entries with
// gensession (app/wintest/cmd/gensession, the generator of the UI bench),
// built with the go command on PATH. It is for tests: it needs the module's
// source and a Go toolchain.
func GenerateSession(path string, entries int) error {
	cmd := exec.Command("go", "run", "knightcode.ai/desktop/app/wintest/cmd/gensession",
		"-entries", strconv.Itoa(entries), "-o", path)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("gensession: %v: %s", err, out)
	}
	return nil
}

// MessagesAnswer returns the record (without its line ending) the fake
// agent sends in answer to {"id":id,"type":"get_messages"} with the session
// file at path open.
func MessagesAnswer(path, id string) ([]byte, error) {
	s, err := loadSession(path)
	if err != nil {
		return nil, err
	}
	msgs := s.messages()
	if msgs == nil {
		msgs = []json.RawMessage{}
	}
	r := response{ID: json.RawMessage(strconv.Quote(id)), Type: "response", Command: "get_messages", Success: true,
		Data: obj("messages", msgs)}
	b, err := encode(r)
	if err != nil {
		return nil, err
	}
	return literalSeparators(b), nil
}
