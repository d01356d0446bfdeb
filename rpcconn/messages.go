package rpcconn

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// A long session's get_messages answer is one 50 MB line. It is read into
// the reader's buffer and never copied: the response's data stays in that
// buffer (see keepDataSize), the reader cuts the messages array into raw
// elements in the walk it makes over the record anyway, and the caller
// decodes the messages it wants when it wants them (the last screen first).

// MessagesAnswer is a get_messages answer left undecoded, for a caller that
// decodes a long session's last screen before the rest (DecodeMessage).
type MessagesAnswer struct {
	// Messages are the messages' raw JSON, oldest first. They share the
	// memory the answer was read into (no copy): read them, never write.
	// An element that is not a valid message is still here, for
	// DecodeMessage to reject; the others around it are unaffected.
	Messages []json.RawMessage
	// Received is when the answer's last byte had been read.
	Received time.Time
	// Size is the answer's data in bytes.
	Size int
}

// GetMessagesRaw returns every message of the conversation undecoded. When
// the messages array breaks off, the messages before the break come with
// the error.
func (c *Conn) GetMessagesRaw(ctx context.Context) (MessagesAnswer, error) {
	resp, err := c.roundTrip(ctx, "get_messages", nil, nil)
	if err != nil {
		return MessagesAnswer{}, err
	}
	a := MessagesAnswer{Received: resp.Received, Size: len(resp.Data), Messages: resp.messages}
	if !resp.messagesCut {
		a.Messages, err = splitMessages(resp.Data)
	}
	if err != nil {
		err = fmt.Errorf("%s: bad response data: %w", resp.Command, err)
	}
	return a, err
}

// DecodeMessage decodes one element of MessagesAnswer.Messages. When some
// field has an unexpected type (a newer agent's), m holds the fields that
// did decode and err is a *json.UnmarshalTypeError; any other error means
// the element is no message at all.
func DecodeMessage(raw json.RawMessage) (m Message, err error) {
	err = json.Unmarshal(raw, &m)
	return m, err
}

// splitMessages cuts the "messages" array of get_messages data into its
// elements. When the array breaks off, the messages before the break are
// returned with the error.
func splitMessages(data []byte) ([]json.RawMessage, error) {
	if len(data) == 0 || string(data) == "null" {
		return nil, nil
	}
	msgs, end, err := splitMessagesAt(data, skipSpace(data, 0))
	if err == nil {
		err = checkTrailing(data, end)
	}
	return msgs, err
}

// splitMessagesAt is splitMessages for the data object starting at
// data[i]; it returns the offset just past that object.
func splitMessagesAt(data []byte, i int) ([]json.RawMessage, int, error) {
	var msgs []json.RawMessage
	end, err := walkObjectAt(data, i, func(key []byte, start int) (int, error) {
		switch {
		case string(key) != "messages":
			return skipValue(data, start)
		case data[start] == 'n':
			// Like encoding/json: a later key wins, and null means none.
			msgs = msgs[:0]
			return skipLiteral(data, start, "null")
		}
		var end int
		var err error
		msgs, end, err = splitArray(data, start, msgs[:0])
		return end, err
	})
	return msgs, end, err
}
