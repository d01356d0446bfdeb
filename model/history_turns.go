package model

import (
	"bytes"
	"encoding/json"
)

// turnsHead is how far into a message countTurns looks for its role.
const turnsHead = 64

// countTurns counts the replies (assistant messages: each starts a turn,
// as convertHistory counts) among raw, a history's part not converted yet,
// by their heads alone: pi writes a message's role first. With the count
// the cards of the part shown number their turns from the first screen,
// rather than gaining their labels once the rest is converted. ok is false
// when a message's role is not in its head (another order of keys): the
// turns are then numbered once the rest is converted.
func countTurns(raw []json.RawMessage) (n int, ok bool) {
	key, assistant := []byte(`"role":`), []byte(`"assistant"`)
	for _, m := range raw {
		head := m[:min(len(m), turnsHead)]
		i := bytes.Index(head, key)
		if i < 0 {
			return 0, false
		}
		if bytes.HasPrefix(bytes.TrimLeft(head[i+len(key):], " "), assistant) {
			n++
		}
	}
	return n, true
}
