package main

import (
	"encoding/json"
	"fmt"
)

// checkDeltasRebuildMessages makes sure the recording is usable as a
// benchmark of the delta path: folding each assistant message's text and
// thinking deltas must give exactly what its message_end says.
func checkDeltasRebuildMessages(lines [][]byte) error {
	type rec struct {
		Type  string `json:"type"`
		Event *struct {
			Type         string `json:"type"`
			ContentIndex int    `json:"contentIndex"`
			Delta        string `json:"delta"`
		} `json:"assistantMessageEvent"`
		Message *struct {
			Role    string `json:"role"`
			Content []struct {
				Type     string `json:"type"`
				Text     string `json:"text"`
				Thinking string `json:"thinking"`
			} `json:"content"`
		} `json:"message"`
	}
	built := map[int]string{}
	messages := 0
	for i, line := range lines {
		var r rec
		if err := json.Unmarshal(line, &r); err != nil {
			return fmt.Errorf("line %d is not JSON: %w", i+1, err)
		}
		switch r.Type {
		case "message_start":
			built = map[int]string{}
		case "message_update":
			if t := r.Event.Type; t == "text_delta" || t == "thinking_delta" {
				built[r.Event.ContentIndex] += r.Event.Delta
			}
		case "message_end":
			if r.Message == nil || r.Message.Role != "assistant" {
				continue
			}
			messages++
			for j, c := range r.Message.Content {
				want := c.Text + c.Thinking
				if (c.Type == "text" || c.Type == "thinking") && built[j] != want {
					return fmt.Errorf("line %d: block %d rebuilt from deltas differs from message_end (%d vs %d bytes)",
						i+1, j, len(built[j]), len(want))
				}
			}
		}
	}
	if messages < 3 {
		return fmt.Errorf("only %d assistant messages; expected the long answer, the tool call and the reply to it", messages)
	}
	return nil
}
