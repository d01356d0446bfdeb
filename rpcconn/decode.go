package rpcconn

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// Response is an agent's answer to one command.
type Response struct {
	// ID echoes the command's id; empty for parse errors and for the older
	// agents' "Unknown command" answers.
	ID      string          `json:"id,omitempty"`
	Command string          `json:"command"`
	Success bool            `json:"success"`
	Error   string          `json:"error,omitempty"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// DecodeRecord decodes one stdout record into either a Response or an Event
// (always a pointer, such as *MessageEnd). Records of unknown type become
// *UnknownEvent. It never keeps a reference to line.
func DecodeRecord(line []byte) (*Response, Event, error) {
	var typ, assistantEvent, usage []byte
	err := objectFields(line, func(key, value []byte) {
		switch string(key) {
		case "type":
			typ = value
		case "assistantMessageEvent":
			assistantEvent = value
		case "usage":
			usage = value
		}
	})
	if err != nil {
		return nil, nil, err
	}
	if typ == nil {
		return nil, nil, fmt.Errorf("%w: record has no type", errBadJSON)
	}
	name, err := decodeString(typ)
	if err != nil {
		return nil, nil, fmt.Errorf("record type: %w", err)
	}
	switch name {
	case TypeResponse:
		var r Response
		if err := json.Unmarshal(line, &r); err != nil {
			return nil, nil, err
		}
		return &r, nil, nil
	case TypeMessageUpdate:
		ev, err := decodeMessageUpdate(assistantEvent, usage)
		return nil, ev, err
	case TypeAgentEnd:
		ev, err := decodeAgentEnd(line)
		return nil, ev, err
	}
	ev := newEvent(name)
	if ev == nil {
		if !json.Valid(line) {
			return nil, nil, fmt.Errorf("%w: %s record is not valid JSON", errBadJSON, name)
		}
		return nil, &UnknownEvent{Type: name, Raw: append(json.RawMessage(nil), line...)}, nil
	}
	if err := json.Unmarshal(line, ev); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	return nil, ev, nil
}

// decodeMessageUpdate decodes only the delta, skipping the older agents'
// cumulative "partial" (and the top-level "message", never visited).
func decodeMessageUpdate(raw, usage []byte) (*MessageUpdate, error) {
	if raw == nil {
		return nil, fmt.Errorf("%w: message_update without assistantMessageEvent", errBadJSON)
	}
	ev := &MessageUpdate{}
	d := &ev.Delta
	var partial, toolCall []byte
	var err error
	scanErr := objectFields(raw, func(key, value []byte) {
		if err != nil {
			return
		}
		switch string(key) {
		case "type":
			d.Type, err = decodeString(value)
		case "contentIndex":
			d.ContentIndex, err = strconv.Atoi(string(value))
		case "delta":
			d.Delta, err = decodeString(value)
		case "content":
			d.Content, err = decodeString(value)
		case "id":
			d.ID, err = decodeString(value)
		case "toolName":
			d.ToolName, err = decodeString(value)
		case "toolCall":
			toolCall = value
		case "partial":
			partial = value
		}
	})
	if scanErr != nil {
		return nil, scanErr
	}
	if err != nil {
		return nil, fmt.Errorf("message_update: %w", err)
	}
	if toolCall != nil {
		d.ToolCall = &ContentBlock{}
		if err := json.Unmarshal(toolCall, d.ToolCall); err != nil {
			return nil, fmt.Errorf("message_update toolCall: %w", err)
		}
	}
	if d.Type == DeltaToolCallStart && d.ToolName == "" && partial != nil {
		// Older agents name the tool only inside the cumulative partial; it
		// is worth decoding here, once per tool call, to show the name early.
		d.ID, d.ToolName = toolCallFromPartial(partial, d.ContentIndex)
	}
	if usage != nil && !bytes.Equal(usage, []byte("null")) {
		ev.Usage = &Usage{}
		if err := decodeUsage(usage, ev.Usage); err != nil {
			return nil, fmt.Errorf("message_update usage: %w", err)
		}
	}
	return ev, nil
}

// decodeAgentEnd keeps the run's messages raw and unchecked: they repeat
// what message_end already delivered, and can be megabytes.
func decodeAgentEnd(line []byte) (*AgentEnd, error) {
	ev := &AgentEnd{}
	var err error
	scanErr := objectFields(line, func(key, value []byte) {
		switch string(key) {
		case "willRetry":
			err = json.Unmarshal(value, &ev.WillRetry)
		case "messages":
			ev.Messages = append(json.RawMessage(nil), value...)
		}
	})
	if scanErr != nil {
		return nil, scanErr
	}
	if err != nil {
		return nil, fmt.Errorf("agent_end: %w", err)
	}
	return ev, nil
}

func toolCallFromPartial(partial []byte, index int) (id, name string) {
	var p struct {
		Content []struct {
			ID   string `json:"id"`
			Name string `json:"name"`
		} `json:"content"`
	}
	if json.Unmarshal(partial, &p) != nil || index < 0 || index >= len(p.Content) {
		return "", ""
	}
	return p.Content[index].ID, p.Content[index].Name
}

// decodeString decodes a raw JSON string, copying it straight when it holds
// no escapes (the common case for streamed deltas).
func decodeString(raw []byte) (string, error) {
	if len(raw) >= 2 && raw[0] == '"' && raw[len(raw)-1] == '"' {
		body := raw[1 : len(raw)-1]
		if bytes.IndexByte(body, '\\') < 0 && utf8.Valid(body) && noControlBytes(body) {
			return string(body), nil
		}
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", err
	}
	return s, nil
}

func noControlBytes(b []byte) bool {
	for _, c := range b {
		if c < 0x20 {
			return false
		}
	}
	return true
}
