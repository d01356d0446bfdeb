package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"testing"
)

// TestSession checks the file is what the fake agent and the app read: a
// session header, then entries chained by parentId, every tool call
// answered by its result, about 4 KB an entry.
func TestSession(t *testing.T) {
	var buf bytes.Buffer
	const n = 400
	size, err := newGen(1, "/work").write(&buf, n)
	if err != nil {
		t.Fatal(err)
	}
	if size != int64(buf.Len()) {
		t.Errorf("reported %d bytes, wrote %d", size, buf.Len())
	}
	sc := bufio.NewScanner(&buf)
	sc.Buffer(nil, 1<<24)
	var lines int
	var parent any
	ids := map[string]bool{}
	calls := map[string]bool{}
	roles := map[string]int{}
	for sc.Scan() {
		lines++
		var e struct {
			Type     string `json:"type"`
			ID       string `json:"id"`
			ParentID any    `json:"parentId"`
			Message  *struct {
				Role       string `json:"role"`
				ToolCallID string `json:"toolCallId"`
				Content    []struct {
					Type string `json:"type"`
					ID   string `json:"id"`
				} `json:"content"`
			} `json:"message"`
		}
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("line %d: %v", lines, err)
		}
		if lines == 1 {
			if e.Type != "session" || e.ID == "" {
				t.Fatalf("first line is not a session header: %s", sc.Text())
			}
			continue
		}
		if ids[e.ID] {
			t.Fatalf("line %d: id %s again", lines, e.ID)
		}
		ids[e.ID] = true
		if e.ParentID != parent {
			t.Fatalf("line %d: parentId %v, want %v", lines, e.ParentID, parent)
		}
		parent = e.ID
		if e.Message == nil {
			continue
		}
		roles[e.Message.Role]++
		for _, c := range e.Message.Content {
			if c.Type == "toolCall" {
				calls[c.ID] = true
			}
		}
		if e.Message.Role == "toolResult" && !calls[e.Message.ToolCallID] {
			t.Fatalf("line %d: result for unknown tool call %s", lines, e.Message.ToolCallID)
		}
	}
	if got := roles["user"] + roles["assistant"] + roles["toolResult"]; got != n {
		t.Errorf("%d messages, want %d (%v)", got, n, roles)
	}
	if per := float64(size) / n; per < 3000 || per > 5500 {
		t.Errorf("%.0f bytes an entry, want about 4,000", per)
	}
}
