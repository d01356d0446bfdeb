package sessionfiles

import (
	"encoding/json"
	"errors"
	"io"
	"os"
)

// firstPromptLines bounds how far FirstPrompt looks: a session's first
// prompt comes after its header and a few settings entries.
const firstPromptLines = 64

// FirstPrompt is the text of the first user message in the session file at
// path, read from its start; "" when none is in its first lines. A window
// showing a long session's end, read from the file, titles it with this
// before the agent sends the rest.
func FirstPrompt(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	lr := NewLineReader(f, 0)
	for range firstPromptLines {
		line, whole, err := lr.Next()
		if errors.Is(err, io.EOF) {
			return "", nil
		}
		if err != nil {
			return "", err
		}
		typ, role := TypeRole(line)
		unsure := typ == "" || (typ == "message" && role == "")
		if !unsure && (typ != "message" || role != "user") {
			continue
		}
		if !whole {
			if line, err = lr.Rest(); err != nil {
				return "", err
			}
		}
		if unsure {
			// Keys in another order than pi's: decoded to be sure.
			var e struct {
				Type    string `json:"type"`
				Message struct {
					Role string `json:"role"`
				} `json:"message"`
			}
			if json.Unmarshal(line, &e) != nil || e.Type != "message" || e.Message.Role != "user" {
				continue
			}
		}
		return userMessageText(line), nil
	}
	return "", nil
}
