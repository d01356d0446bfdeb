package rpctest

import (
	"encoding/json"
)

func (a *agent) cmdGetEntries(c *command) (any, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	since := ""
	if c.Since != nil {
		since = *c.Since
	}
	es, err := a.sess.since(since)
	if err != nil {
		return nil, err
	}
	raws := make([]json.RawMessage, len(es))
	for i, e := range es {
		raws[i] = e.Raw
	}
	return obj("entries", raws, "leafId", a.sess.leafOrNull()), nil
}

func (a *agent) cmdGetTree(c *command) (any, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return obj("tree", a.sess.tree(), "leafId", a.sess.leafOrNull()), nil
}

func (a *agent) cmdGetForkMessages(c *command) (any, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := []any{}
	for _, e := range a.sess.branch() {
		if m := decodeMessage(messageOf(e)); m.Role == "user" {
			out = append(out, obj("entryId", e.ID, "text", m.text()))
		}
	}
	return obj("messages", out), nil
}

func (a *agent) cmdGetLastAssistantText(c *command) (any, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	msgs := a.sess.messages()
	for i := len(msgs) - 1; i >= 0; i-- {
		if m := decodeMessage(msgs[i]); m.Role == "assistant" {
			return obj("text", m.text()), nil
		}
	}
	return obj("text", nil), nil
}
