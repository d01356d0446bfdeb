package rpctest

import (
	"encoding/json"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"strings"
)

// The commands that replace the session stop the run first, as the agent
// does, and with --fake-cancel-switch report that an extension vetoed them.

func (a *agent) cmdNewSession(c *command) (any, error) {
	return cancelledData(a.replaceSession(func() (*session, error) {
		return newSession(a.sessionDir(), a.cwd, c.ParentSession)
	}))
}

// cmdSwitchSession opens a session file. Like pi it refuses one whose
// header names a working folder that no longer exists.
func (a *agent) cmdSwitchSession(c *command) (any, error) {
	return cancelledData(a.replaceSession(func() (*session, error) {
		s, err := loadSession(c.SessionPath)
		if err != nil {
			return nil, err
		}
		if s.Cwd != "" {
			if info, err := os.Stat(s.Cwd); err != nil || !info.IsDir() {
				wd, _ := os.Getwd()
				return nil, errorf("Stored session working directory does not exist: %s\nSession file: %s\nCurrent working directory: %s", s.Cwd, c.SessionPath, wd)
			}
		}
		return s, nil
	}))
}

func (a *agent) cmdClone(c *command) (any, error) {
	return cancelledData(a.replaceSession(func() (*session, error) {
		return a.sess.copyPath(a.sess.leaf, a.sessionDir())
	}))
}

// cmdFork starts a new session from the branch above a user message and
// returns that message's text, for the client to put back in its editor.
func (a *agent) cmdFork(c *command) (any, error) {
	var text string
	cancelled, err := a.replaceSession(func() (*session, error) {
		e, ok := a.sess.get(c.EntryID)
		m := decodeMessage(messageOf(e))
		if !ok || m.Role != "user" {
			return nil, errorf("Invalid entry ID for forking: %s", c.EntryID)
		}
		text = m.text()
		return a.sess.copyPath(e.ParentID, a.sessionDir())
	})
	if err != nil {
		return nil, err
	}
	return obj("text", text, "cancelled", cancelled), nil
}

// replaceSession swaps in the session build makes, unless an "extension"
// vetoes it (--fake-cancel-switch). build runs with a.mu held.
func (a *agent) replaceSession(build func() (*session, error)) (cancelled bool, err error) {
	a.abortAndWait()
	a.mu.Lock()
	defer a.mu.Unlock()
	s, err := build()
	if err != nil || a.opts.CancelSwitch {
		return a.opts.CancelSwitch, err
	}
	a.sess = s
	return false, nil
}

func cancelledData(cancelled bool, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	return obj("cancelled", cancelled), nil
}

func (a *agent) cmdSetSessionName(c *command) (any, error) {
	if c.Name == nil || strings.TrimSpace(*c.Name) == "" {
		return nil, errorf("Session name cannot be empty")
	}
	name := strings.TrimSpace(*c.Name)
	a.mu.Lock()
	defer a.mu.Unlock()
	a.sess.Name = name
	a.sess.append("session_info", "name", name)
	// pi 0.73.1 and 1.6 both say so (the 0.9.2 reference does not).
	a.emit(obj("type", "session_info_changed", "name", name))
	return nil, nil
}

func (a *agent) cmdExportHTML(c *command) (any, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.sess.File == "" {
		return nil, errorf("Cannot export in-memory session to HTML")
	}
	path := c.OutputPath
	if path == "" {
		path = strings.TrimSuffix(a.sess.File, ".jsonl") + ".html"
	}
	path, _ = filepath.Abs(path)
	var b strings.Builder
	title := a.sess.Name
	if title == "" {
		title = "Session " + a.sess.ID
	}
	fmt.Fprintf(&b, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>%s</title></head><body>\n<h1>%s</h1>\n",
		html.EscapeString(title), html.EscapeString(title))
	for _, raw := range a.sess.messages() {
		m := decodeMessage(raw)
		text := m.text()
		if m.Role == "bashExecution" {
			text = "$ " + m.Command + "\n" + m.Output
		}
		fmt.Fprintf(&b, "<div class=\"%s\"><pre>%s</pre></div>\n", html.EscapeString(m.Role), html.EscapeString(text))
	}
	b.WriteString("</body></html>\n")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		return nil, errorf("Failed to export HTML: %v", err)
	}
	return obj("path", path), nil
}

// cmdGetSessionStats counts the whole session, abandoned branches and
// compaction summaries included; contextUsage is the active branch's last
// reply, unknown (null) right after a compaction.
func (a *agent) cmdGetSessionStats(c *command) (any, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	var total usage
	add := func(u *usage) {
		if u == nil {
			return
		}
		total.Input += u.Input
		total.Output += u.Output
		total.CacheRead += u.CacheRead
		total.CacheWrite += u.CacheWrite
		total.Cost.Total += u.Cost.Total
	}
	counts := map[string]int{}
	toolCalls, messages := 0, 0
	for _, e := range a.sess.entries {
		if e.Type == "compaction" {
			var cu struct{ Usage *usage }
			json.Unmarshal(e.Raw, &cu)
			add(cu.Usage)
		}
		raw := messageOf(e)
		if raw == nil {
			continue
		}
		m := decodeMessage(raw)
		messages++
		counts[m.Role]++
		toolCalls += m.toolCalls()
		if m.Role == "assistant" {
			add(m.Usage)
		}
	}
	st := obj()
	if a.sess.File != "" {
		st = st.with("sessionFile", a.sess.File)
	}
	st = append(st, obj("sessionId", a.sess.ID,
		"userMessages", counts["user"], "assistantMessages", counts["assistant"],
		"toolCalls", toolCalls, "toolResults", counts["toolResult"], "totalMessages", messages,
		"tokens", obj("input", total.Input, "output", total.Output, "cacheRead", total.CacheRead,
			"cacheWrite", total.CacheWrite, "total", total.Input+total.Output+total.CacheRead+total.CacheWrite),
		"cost", total.Cost.Total)...)
	if m := a.currentModel(); m != nil {
		st = st.with("contextUsage", a.contextUsageLocked(m))
	}
	return st, nil
}

func (a *agent) contextUsageLocked(m *model) object {
	var tokens any
	for _, e := range a.sess.branch() {
		if e.Type == "compaction" {
			tokens = nil
		}
		if sm := decodeMessage(messageOf(e)); sm.Role == "assistant" && sm.Usage != nil {
			tokens = sm.Usage.Input + sm.Usage.Output
		}
	}
	var percent any
	if t, ok := tokens.(int); ok {
		percent = float64(t) * 100 / float64(m.ContextWindow)
	}
	return obj("tokens", tokens, "contextWindow", m.ContextWindow, "percent", percent)
}
