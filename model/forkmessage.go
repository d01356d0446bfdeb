package model

import "knightcode.ai/desktop/rpcconn"

// ForkMessage is an earlier prompt a fork can start from.
type ForkMessage struct {
	// EntryID is what Fork takes.
	EntryID string
	Text    string
}

func forkMessages(msgs []rpcconn.ForkMessage) []ForkMessage {
	if msgs == nil {
		return nil
	}
	out := make([]ForkMessage, len(msgs))
	for i, m := range msgs {
		out[i] = ForkMessage{EntryID: m.EntryID, Text: m.Text}
	}
	return out
}
