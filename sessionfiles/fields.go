package sessionfiles

import (
	"bytes"
	"encoding/json"
	"strings"
	"time"
	"unicode/utf8"
)

// The fields the session list shows, taken from entry JSON and file names.

// prefixTypeRole finds an entry's type and its message's role in the first
// bytes of a line, stopping where the bytes end. pi writes both first.
func prefixTypeRole(head []byte) (typ, role string) {
	dec := json.NewDecoder(bytes.NewReader(head))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return "", ""
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return typ, role
		}
		switch key {
		case "type":
			if err := dec.Decode(&typ); err != nil {
				return typ, role
			}
		case "message":
			if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
				return typ, role
			}
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return typ, role
				}
				if k == "role" {
					_ = dec.Decode(&role)
					return typ, role
				}
				var skip json.RawMessage
				if dec.Decode(&skip) != nil {
					return typ, role
				}
			}
			return typ, role
		default:
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return typ, role
			}
		}
	}
	return typ, role
}

// userMessageText is a user message's text, content as a string or as blocks,
// joined with spaces as pi's session list does. Image data is not decoded.
func userMessageText(line []byte) string {
	var e struct {
		Message struct {
			Content json.RawMessage `json:"content"`
		} `json:"message"`
	}
	if json.Unmarshal(line, &e) != nil {
		return ""
	}
	var s string
	if json.Unmarshal(e.Message.Content, &s) == nil {
		return s
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(e.Message.Content, &blocks) != nil {
		return ""
	}
	var parts []string
	for _, b := range blocks {
		if b.Type == "text" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, " ")
}

// promptLine collapses white space so a prompt fits a row, and cuts it to max
// runes with an ellipsis.
func promptLine(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:max-1])) + "…"
}

func providerModel(provider, model string) string {
	switch {
	case model == "":
		return ""
	case provider == "":
		return model
	}
	return provider + "/" + model
}

// idFromFileName takes the UUID from pi's <timestamp>_<uuid>.jsonl name.
func idFromFileName(name string) string {
	name = strings.TrimSuffix(name, ".jsonl")
	if _, id, ok := strings.Cut(name, "_"); ok {
		return id
	}
	return name
}

// timeFromFileName reads pi's file-name timestamp, an ISO time with ':' and
// '.' replaced by '-' (2024-12-03T14-00-00-000Z).
func timeFromFileName(name string, fallback time.Time) time.Time {
	stamp, _, _ := strings.Cut(name, "_")
	if len(stamp) != len("2006-01-02T15-04-05-000Z") {
		return fallback
	}
	iso := stamp[:13] + ":" + stamp[14:16] + ":" + stamp[17:19] + "." + stamp[20:]
	if t, err := time.Parse(time.RFC3339Nano, iso); err == nil {
		return t
	}
	return fallback
}
