package modelsetup

import (
	"encoding/json"
	"os"
	"path/filepath"
)

// MCP servers are listed by pi in mcp.json: the project's .pi/mcp.json
// (read once the folder is trusted) over the agent folder's. Enabling and
// disabling a server is offered by pi's interactive /mcp only; over RPC the
// window sets the server's "enabled" in the file that defines it, keeping
// the rest of the file as it is, and restarts the agent.

// MCPServerFile finds the mcp.json that defines server: the project's
// first (its entry wins), then the agent folder's.
func MCPServerFile(c Config, folder, server string) (string, bool) {
	for _, p := range []string{filepath.Join(folder, ".pi", "mcp.json"), filepath.Join(c.Dir, "mcp.json")} {
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		root, err := parseJSONC(string(data))
		if err != nil || root == nil || root.kind != '{' {
			continue
		}
		var file struct {
			Servers map[string]json.RawMessage `json:"mcpServers"`
		}
		if json.Unmarshal(plainJSON(string(data), root), &file) == nil {
			if _, ok := file.Servers[server]; ok {
				return p, true
			}
		}
	}
	return "", false
}

// SetMCPEnabled sets the server's "enabled" in the mcp.json at path,
// every other byte of the file as it was; the file as it was is kept as
// mcp.json.bak. A file that cannot be read, does not parse or is read-only
// is left alone, with why in words.
func SetMCPEnabled(path, server string, on bool) (backup string, err error) {
	data, mode, _, err := readAgentFile(path, true)
	if err != nil {
		return "", err
	}
	out, err := setPath(string(data), []string{"mcpServers", server, "enabled"}, on)
	if err != nil {
		return "", &FileError{path, err.Error() + ", so the window does not change it.", err}
	}
	if _, err := parseJSONC(out); err != nil {
		return "", &FileError{path, "the change did not read back (" + err.Error() + "); the file was left as it is.", err}
	}
	backup = path + ".bak"
	if err := writeAtomically(backup, data, mode); err != nil {
		return "", err
	}
	if err := writeAtomically(path, []byte(out), mode); err != nil {
		return "", err
	}
	return backup, nil
}
