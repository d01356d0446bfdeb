package sessionfiles

import (
	"bytes"
	"encoding/json"
)

// headFields is what the walk backwards needs of a long line, found in its
// first bytes: pi writes type, id and parentId first and a message's role
// first in it, before the long part.
type headFields struct {
	typ, id, role string
	parent        *string
	// complete is set when the head holds all of them: its type, and its
	// id with its parent id or neither (a version 1 entry) before the
	// message. Otherwise the line is read whole.
	complete bool
}

// headFieldsOf reads the fields from a line's head, stopping where the
// bytes end or at the message's role.
func headFieldsOf(head []byte) headFields {
	var h headFields
	var sawID, sawParent bool
	dec := json.NewDecoder(bytes.NewReader(head))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return h
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return h
		}
		switch key {
		case "type":
			err = dec.Decode(&h.typ)
		case "id":
			err = dec.Decode(&h.id)
			sawID = true
		case "parentId":
			err = dec.Decode(&h.parent)
			sawParent = true
		case "message":
			h.role = roleIn(dec)
			h.complete = h.typ != "" && sawID == sawParent
			return h
		default:
			var skip json.RawMessage
			err = dec.Decode(&skip)
		}
		if err != nil {
			return h
		}
	}
	return h
}

// roleIn reads the message object dec is at as far as its role.
func roleIn(dec *json.Decoder) string {
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return ""
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return ""
		}
		if k == "role" {
			var role string
			_ = dec.Decode(&role)
			return role
		}
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return ""
		}
	}
	return ""
}
