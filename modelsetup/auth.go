package modelsetup

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
)

// ErrBadKey says an API key cannot be stored as typed.
var ErrBadKey = errors.New("bad API key")

// checkKey refuses what the agent would not take as a key: the agent runs
// a key that starts with "!" as a shell command.
func checkKey(key string) (string, error) {
	key = strings.TrimSpace(key)
	switch {
	case key == "":
		return "", fmt.Errorf("%w: paste the key first", ErrBadKey)
	case strings.ContainsAny(key, "\r\n"):
		return "", fmt.Errorf("%w: a key is one line", ErrBadKey)
	case strings.HasPrefix(key, "!"):
		return "", fmt.Errorf("%w: the agent would run a key that starts with \"!\" as a command", ErrBadKey)
	}
	return key, nil
}

// SaveAPIKey stores key for provider in the agent's auth.json, merged with
// the credentials there, in a file only its owner can read (0600, in a
// folder made 0700). The key goes nowhere else.
func SaveAPIKey(c Config, provider, key string) error {
	key, err := checkKey(key)
	if err != nil {
		return err
	}
	return editAuth(c, func(creds map[string]json.RawMessage) {
		entry, _ := json.Marshal(map[string]string{"type": "api_key", "key": key})
		creds[provider] = entry
	})
}

// RemoveAPIKey takes provider's stored credential out of auth.json.
func RemoveAPIKey(c Config, provider string) error {
	return editAuth(c, func(creds map[string]json.RawMessage) { delete(creds, provider) })
}

// StoredCredentials lists the providers auth.json holds a credential for;
// the credentials themselves are never read out.
func StoredCredentials(c Config) ([]string, error) {
	data, _, _, err := readAgentFile(c.AuthFile(), false)
	if err != nil || len(strings.TrimSpace(string(data))) == 0 {
		return nil, err
	}
	var creds map[string]json.RawMessage
	if err := json.Unmarshal(data, &creds); err != nil {
		return nil, parseError(c.AuthFile(), err)
	}
	names := make([]string, 0, len(creds))
	for k := range creds {
		names = append(names, k)
	}
	sort.Strings(names)
	return names, nil
}

func editAuth(c Config, change func(map[string]json.RawMessage)) error {
	path := c.AuthFile()
	data, _, _, err := readAgentFile(path, true)
	if err != nil {
		return err
	}
	creds := map[string]json.RawMessage{}
	if strings.TrimSpace(string(data)) != "" {
		if err := json.Unmarshal(data, &creds); err != nil {
			return parseError(path, err)
		}
	}
	change(creds)
	out, err := json.MarshalIndent(creds, "", "  ")
	if err != nil {
		return err
	}
	return writeAtomically(path, append(out, '\n'), 0o600)
}
