package modelsetup

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteProviderMergesWithTheUsersFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "models.json")
	orig := `// my providers
{
  "providers": {
    "work": {
      "baseUrl": "https://llm.example.com/v1",
      "api": "openai-completions",
      "apiKey": "WORK_KEY", /* an env var */
      "models": [{"id": "big", "contextWindow": 200000},],
    },
    "ollama": {
      "baseUrl": "http://localhost:11434/v1",
      "apiKey": "mine",
      "models": [{"id": "llama3:8b", "reasoning": true}]
    },
  },
}
`
	if err := os.WriteFile(path, []byte(orig), 0o640); err != nil {
		t.Fatal(err)
	}
	s := Server{Name: "Ollama", BaseURL: "http://127.0.0.1:11434/v1", Provider: "ollama", Models: []string{"llama3:8b", "qwen2.5-coder:7b"}}
	change, err := WriteProvider(path, s.Provider, LocalProvider(s))
	if err != nil {
		t.Fatal(err)
	}
	if change.Backup != path+".bak" {
		t.Fatalf("backup = %q", change.Backup)
	}
	if bak, _ := os.ReadFile(change.Backup); string(bak) != orig {
		t.Errorf("the backup is not the file as it was:\n%s", bak)
	}
	data, _ := os.ReadFile(path)
	out := string(data)
	for _, kept := range []string{"// my providers", `"apiKey": "WORK_KEY", /* an env var */`, `"models": [{"id": "big", "contextWindow": 200000},],`} {
		if !strings.Contains(out, kept) {
			t.Errorf("the user's text %q is gone:\n%s", kept, out)
		}
	}
	var file struct {
		Providers map[string]struct {
			BaseURL string           `json:"baseUrl"`
			APIKey  string           `json:"apiKey"`
			Models  []map[string]any `json:"models"`
		} `json:"providers"`
	}
	root, _ := parseJSONC(out)
	if err := json.Unmarshal(plainJSON(out, root), &file); err != nil {
		t.Fatal(err)
	}
	o := file.Providers["ollama"]
	if o.BaseURL != s.BaseURL || o.APIKey != "mine" || len(o.Models) != 2 || o.Models[0]["reasoning"] != true || o.Models[1]["id"] != "qwen2.5-coder:7b" {
		t.Errorf("ollama = %+v: want the new address, the user's key and model settings, and the new model", o)
	}
	if file.Providers["work"].BaseURL != "https://llm.example.com/v1" {
		t.Errorf("the other provider changed: %+v", file.Providers["work"])
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o640 {
		t.Errorf("mode = %v, want the file's own 0640", info.Mode().Perm())
	}
	names, err := ConfiguredProviders(path)
	if err != nil || strings.Join(names, ",") != "work,ollama" {
		t.Errorf("ConfiguredProviders = %v, %v", names, err)
	}
}

func TestWriteProviderNewFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "agent", "models.json")
	change, err := WriteProvider(path, "lmstudio", Provider{BaseURL: "http://127.0.0.1:1234/v1", APIKey: "local", Models: []string{"m"}})
	if err != nil || change.Backup != "" {
		t.Fatalf("%+v, %v", change, err)
	}
	info, err := os.Stat(path)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("new file: %v %v", info, err)
	}
	var file map[string]map[string]map[string]any
	data, _ := os.ReadFile(path)
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatalf("a new file is plain JSON: %v\n%s", err, data)
	}
	if p := file["providers"]["lmstudio"]; p["api"] != "openai-completions" || p["apiKey"] != "local" || p["compat"] == nil {
		t.Errorf("entry = %v", p)
	}
}

func TestWriteProviderLeavesABrokenFileAlone(t *testing.T) {
	path := filepath.Join(t.TempDir(), "models.json")
	broken := "{\n  \"providers\": {\n    \"a\": {\"baseUrl\": \"x\"\n  }\n}\n"
	os.WriteFile(path, []byte(broken), 0o600)
	_, err := WriteProvider(path, "ollama", Provider{BaseURL: "http://127.0.0.1:11434/v1", Models: []string{"m"}})
	var fe *FileError
	if !errors.As(err, &fe) || !strings.Contains(err.Error(), "does not parse (line 6, column 1") || !strings.Contains(err.Error(), "does not overwrite it") {
		t.Fatalf("err = %v", err)
	}
	if data, _ := os.ReadFile(path); string(data) != broken {
		t.Error("a file that does not parse was changed")
	}
	if _, err := os.Stat(path + ".bak"); !errors.Is(err, fs.ErrNotExist) {
		t.Error("a backup was made of a file that was not changed")
	}
}

func TestWriteProviderLeavesAReadOnlyFileAlone(t *testing.T) {
	path := filepath.Join(t.TempDir(), "models.json")
	orig := `{"providers": {}}`
	os.WriteFile(path, []byte(orig), 0o444)
	_, err := WriteProvider(path, "ollama", Provider{BaseURL: "http://127.0.0.1:11434/v1", Models: []string{"m"}})
	if !errors.Is(err, fs.ErrPermission) || !strings.Contains(err.Error(), "read-only") {
		t.Fatalf("err = %v", err)
	}
	if data, _ := os.ReadFile(path); string(data) != orig {
		t.Error("a read-only file was changed (root can write it: the window must not)")
	}
}

func TestAPIKeyIsStoredOwnerOnlyAndMerged(t *testing.T) {
	c := Config{Dir: filepath.Join(t.TempDir(), "agent")}
	os.MkdirAll(c.Dir, 0o755)
	os.WriteFile(c.AuthFile(), []byte(`{"anthropic": {"type": "oauth", "access": "tok"}}`), 0o644)
	const key = "sk-test-0123456789"
	if err := SaveAPIKey(c, "openai", "  "+key+"\n"); err != nil {
		t.Fatal(err)
	}
	info, _ := os.Stat(c.AuthFile())
	if info.Mode().Perm() != 0o600 {
		t.Errorf("auth.json mode = %v, want 0600", info.Mode().Perm())
	}
	var creds map[string]map[string]string
	data, _ := os.ReadFile(c.AuthFile())
	if err := json.Unmarshal(data, &creds); err != nil {
		t.Fatal(err)
	}
	if creds["openai"]["key"] != key || creds["openai"]["type"] != "api_key" || creds["anthropic"]["access"] != "tok" {
		t.Errorf("auth.json = %s", data)
	}
	names, err := StoredCredentials(c)
	if err != nil || strings.Join(names, ",") != "anthropic,openai" {
		t.Errorf("StoredCredentials = %v, %v", names, err)
	}
	// Nothing but auth.json holds the key.
	filepath.WalkDir(filepath.Dir(c.Dir), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && p != c.AuthFile() {
			if b, _ := os.ReadFile(p); strings.Contains(string(b), key) {
				t.Errorf("%s holds the key", p)
			}
		}
		return nil
	})
	if err := RemoveAPIKey(c, "openai"); err != nil {
		t.Fatal(err)
	}
	if names, _ := StoredCredentials(c); strings.Join(names, ",") != "anthropic" {
		t.Errorf("after remove: %v", names)
	}
	for _, bad := range []string{"", "!cat /etc/passwd", "a\nb"} {
		if err := SaveAPIKey(c, "openai", bad); !errors.Is(err, ErrBadKey) {
			t.Errorf("key %q: err = %v", bad, err)
		}
	}
}

func TestAPIKeyLeavesABrokenAuthFileAlone(t *testing.T) {
	c := Config{Dir: t.TempDir()}
	os.WriteFile(c.AuthFile(), []byte("{oops"), 0o600)
	if err := SaveAPIKey(c, "openai", "sk-x"); err == nil || !strings.Contains(err.Error(), "does not parse") {
		t.Fatalf("err = %v", err)
	}
	if data, _ := os.ReadFile(c.AuthFile()); string(data) != "{oops" {
		t.Error("a broken auth.json was changed")
	}
}
