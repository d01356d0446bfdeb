package main

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// field is one member of a JSON object, its value kept byte for byte so the
// derived stream differs from the recorded one only where it must.
type field struct {
	key   string
	value json.RawMessage
}

type object []field

func parseObject(data []byte) (object, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, fmt.Errorf("not a JSON object: %.80s", data)
	}
	var obj object
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		obj = append(obj, field{key: tok.(string), value: v})
	}
	return obj, nil
}

func (o object) get(key string) json.RawMessage {
	for _, f := range o {
		if f.key == key {
			return f.value
		}
	}
	return nil
}

func (o object) without(keys ...string) object {
	var out object
	for _, f := range o {
		drop := false
		for _, k := range keys {
			drop = drop || f.key == k
		}
		if !drop {
			out = append(out, f)
		}
	}
	return out
}

// insertAfter puts f right after the member named after, or at the end.
func (o object) insertAfter(after string, f field) object {
	for i := range o {
		if o[i].key == after {
			out := append(object{}, o[:i+1]...)
			out = append(out, f)
			return append(out, o[i+1:]...)
		}
	}
	return append(o, f)
}

func (o object) marshal() []byte {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, f := range o {
		if i > 0 {
			buf.WriteByte(',')
		}
		key, _ := json.Marshal(f.key)
		buf.Write(key)
		buf.WriteByte(':')
		buf.Write(f.value)
	}
	buf.WriteByte('}')
	return buf.Bytes()
}

// toDeltaFormat rewrites each message_update the way 0.9.2 sends it: the
// cumulative "message" and assistantMessageEvent.partial go, "usage" (the
// latest cumulative usage, from the dropped message) comes right after
// "type", and toolcall_start names its call (id, toolName), which a client
// could otherwise only learn from the partial. Other lines are unchanged.
func toDeltaFormat(lines [][]byte) ([][]byte, error) {
	out := make([][]byte, len(lines))
	for i, line := range lines {
		if recordType(line) != "message_update" {
			out[i] = line
			continue
		}
		rec, err := parseObject(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", i+1, err)
		}
		ev, err := parseObject(rec.get("assistantMessageEvent"))
		if err != nil {
			return nil, fmt.Errorf("line %d: assistantMessageEvent: %w", i+1, err)
		}
		msg, err := parseObject(rec.get("message"))
		if err != nil {
			return nil, fmt.Errorf("line %d: message: %w", i+1, err)
		}
		if string(ev.get("type")) == `"toolcall_start"` {
			if ev, err = nameToolCall(ev); err != nil {
				return nil, fmt.Errorf("line %d: %w", i+1, err)
			}
		}
		rec = rec.without("message")
		for j := range rec {
			if rec[j].key == "assistantMessageEvent" {
				rec[j].value = ev.without("partial").marshal()
			}
		}
		if usage := msg.get("usage"); usage != nil && rec.get("usage") == nil {
			rec = rec.insertAfter("type", field{key: "usage", value: usage})
		}
		out[i] = append(rec.marshal(), '\n')
	}
	return out, nil
}

func nameToolCall(ev object) (object, error) {
	var p struct {
		Content []struct {
			ID   string `json:"id"`
			Name string `json:"name"`
		} `json:"content"`
	}
	var index int
	if err := json.Unmarshal(ev.get("partial"), &p); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(ev.get("contentIndex"), &index); err != nil || index < 0 || index >= len(p.Content) {
		return nil, fmt.Errorf("toolcall_start: bad contentIndex")
	}
	id, _ := json.Marshal(p.Content[index].ID)
	name, _ := json.Marshal(p.Content[index].Name)
	ev = ev.insertAfter("contentIndex", field{key: "id", value: id})
	return ev.insertAfter("id", field{key: "toolName", value: name}), nil
}
