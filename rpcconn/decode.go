package rpcconn

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"time"
	"unicode/utf8"
)

// Response is an agent's answer to one command.
type Response struct {
	// ID echoes the command's id; empty for parse errors and for the older
	// agents' "Unknown command" answers.
	ID      string `json:"id,omitempty"`
	Command string `json:"command"`
	Success bool   `json:"success"`
	Error   string `json:"error,omitempty"`
	// Data is the answer's data, raw and not yet checked: it is decoded
	// (and so validated) by whoever wants it. In a response a Conn hands
	// out, a big Data is the reader's own buffer, not a copy: read it, never
	// write to it.
	Data json.RawMessage `json:"data,omitempty"`
	// Received is when a Conn had read the response's last byte (zero from
	// DecodeRecord).
	Received time.Time `json:"-"`

	// messages are a get_messages answer's messages, cut by the reader
	// (messagesCut) in the walk that found the record's fields.
	messages    []json.RawMessage
	messagesCut bool
}

// DecodeRecord decodes one stdout record into either a Response or an Event
// (always a pointer, such as *MessageEnd). Records of unknown type become
// *UnknownEvent. It never keeps a reference to line.
func DecodeRecord(line []byte) (*Response, Event, error) {
	resp, ev, err := decodeRecord(line)
	if resp != nil {
		resp.copyData()
	}
	return resp, ev, err
}

// copyData makes the response's data its own rather than a slice of the
// record.
func (r *Response) copyData() {
	if r.Data != nil {
		r.Data = append(json.RawMessage(nil), r.Data...)
	}
	r.messages, r.messagesCut = nil, false
}

// decodeRecord is DecodeRecord except that a Response's Data is a slice of
// line: a Conn either keeps line for it or copies it.
func decodeRecord(line []byte) (*Response, Event, error) {
	var typ, assistantEvent, usage []byte
	var rf responseFields
	err := walkObject(line, func(key []byte, start int) (int, error) {
		if string(key) == "data" && string(typ) == `"response"` && string(rf.command) == `"get_messages"` {
			// A long session's answer is 50 MB: its messages are cut in
			// this walk, which has to cross them anyway, rather than in
			// another one later. (The agent writes type and command
			// before data; otherwise GetMessagesRaw cuts them.)
			if msgs, end, err := splitMessagesAt(line, start); err == nil {
				rf.data, rf.messages, rf.messagesCut = line[start:end], msgs, true
				return end, nil
			}
		}
		end, err := skipValue(line, start)
		if err != nil {
			return 0, err
		}
		value := line[start:end]
		switch string(key) {
		case "type":
			typ = value
		case "assistantMessageEvent":
			assistantEvent = value
		case "usage":
			usage = value
		case "id":
			rf.id = value
		case "command":
			rf.command = value
		case "success":
			rf.success = value
		case "error":
			rf.error = value
		case "data":
			rf.data, rf.messages, rf.messagesCut = value, nil, false
		}
		return end, nil
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
		r, err := rf.decode()
		if err != nil {
			return nil, nil, err
		}
		return r, nil, nil
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

// responseFields are a response's top-level values, raw. Decoding them one
// by one rather than the whole record with encoding/json spares a 50 MB
// get_messages answer a validating pass and a copy of its data (half a
// second on the reader goroutine, measured).
type responseFields struct {
	id, command, success, error, data []byte
	messages                          []json.RawMessage
	messagesCut                       bool
}

func (f responseFields) decode() (*Response, error) {
	r := &Response{Data: f.data, messages: f.messages, messagesCut: f.messagesCut}
	var err error
	if f.id != nil {
		if r.ID, err = decodeString(f.id); err != nil {
			return nil, fmt.Errorf("response id: %w", err)
		}
	}
	if f.command != nil {
		if r.Command, err = decodeString(f.command); err != nil {
			return nil, fmt.Errorf("response command: %w", err)
		}
	}
	if f.success != nil {
		if err = json.Unmarshal(f.success, &r.Success); err != nil {
			return nil, fmt.Errorf("response success: %w", err)
		}
	}
	if f.error != nil {
		if r.Error, err = decodeString(f.error); err != nil {
			return nil, fmt.Errorf("response error: %w", err)
		}
	}
	return r, nil
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
