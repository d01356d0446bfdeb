package modelsetup

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
)

// Provider is a provider entry of models.json: an OpenAI-compatible server
// and its models.
type Provider struct {
	BaseURL string
	// APIKey is what the agent sends; a local server ignores it, but the
	// agent wants one to list the models.
	APIKey string
	Models []string
}

// LocalProvider is the entry for a server found on this computer.
func LocalProvider(s Server) Provider {
	return Provider{BaseURL: s.BaseURL, APIKey: "local", Models: s.Models}
}

// ModelsChange is what WriteProvider did.
type ModelsChange struct {
	Path string
	// Backup is the copy of the file as it was; empty when there was no
	// file.
	Backup string
}

// WriteProvider sets providers.<name> in the models.json at path, merged
// with what is there: the user's other providers, settings, comments and
// trailing commas are kept as they were. An entry of that name already
// there keeps its own fields and models; the server's address and the
// models it lists are added. The file as it was is kept beside it as
// models.json.bak. A file that cannot be read, does not parse or is
// read-only is never overwritten: the error says why in words.
func WriteProvider(path, name string, p Provider) (ModelsChange, error) {
	data, mode, exists, err := readAgentFile(path, true)
	if err != nil {
		return ModelsChange{}, err
	}
	text := string(data)
	root, err := parseJSONC(text)
	if err != nil {
		return ModelsChange{}, parseError(path, err)
	}
	entry := map[string]any{}
	if root != nil {
		if root.kind != '{' {
			return ModelsChange{}, &FileError{path, "its top level is not an object, so the window does not change it.", nil}
		}
		if provs := root.member("providers"); provs != nil {
			if provs.value.kind != '{' {
				return ModelsChange{}, &FileError{path, `its "providers" is not an object, so the window does not change it.`, nil}
			}
			if old := provs.value.member(name); old != nil {
				if err := json.Unmarshal(plainJSON(text, old.value), &entry); err != nil {
					return ModelsChange{}, &FileError{path, fmt.Sprintf("its provider %q is not an object, so the window does not change it.", name), err}
				}
			}
		}
	}
	mergeProvider(entry, p)
	out, err := setPath(text, []string{"providers", name}, entry)
	if err != nil {
		return ModelsChange{}, &FileError{path, err.Error() + ", so the window does not change it.", err}
	}
	if err := checkProvider(out, name, p); err != nil {
		return ModelsChange{}, &FileError{path, "the change did not read back as written (" + err.Error() + "); the file was left as it is.", err}
	}
	change := ModelsChange{Path: path}
	if exists {
		change.Backup = path + ".bak"
		if err := writeAtomically(change.Backup, data, mode); err != nil {
			return ModelsChange{}, err
		}
	}
	if err := writeAtomically(path, []byte(out), mode); err != nil {
		return ModelsChange{}, err
	}
	return change, nil
}

// mergeProvider puts p into an entry as the agent reads it, keeping what
// the entry already says about each model.
func mergeProvider(entry map[string]any, p Provider) {
	entry["baseUrl"] = p.BaseURL
	entry["api"] = "openai-completions"
	if _, ok := entry["apiKey"]; !ok {
		entry["apiKey"] = p.APIKey
	}
	if _, ok := entry["compat"]; !ok {
		// Local servers take the system prompt as "system" and keep no
		// stored responses (pi's docs for Ollama, vLLM, LM Studio).
		entry["compat"] = map[string]any{"supportsDeveloperRole": false, "supportsStore": false}
	}
	models, _ := entry["models"].([]any)
	have := map[string]bool{}
	for _, m := range models {
		if mm, ok := m.(map[string]any); ok {
			if id, ok := mm["id"].(string); ok {
				have[id] = true
			}
		}
	}
	for _, id := range p.Models {
		if !have[id] {
			models = append(models, map[string]any{"id": id})
		}
	}
	entry["models"] = models
}

// checkProvider reads text as the agent would and checks the provider
// holds the server and its models.
func checkProvider(text, name string, p Provider) error {
	root, err := parseJSONC(text)
	if err != nil {
		return err
	}
	var file struct {
		Providers map[string]struct {
			BaseURL string `json:"baseUrl"`
			Models  []struct {
				ID string `json:"id"`
			} `json:"models"`
		} `json:"providers"`
	}
	if err := json.Unmarshal(plainJSON(text, root), &file); err != nil {
		return err
	}
	got, ok := file.Providers[name]
	if !ok || got.BaseURL != p.BaseURL {
		return fmt.Errorf("provider %q is not there", name)
	}
	var ids []string
	for _, m := range got.Models {
		ids = append(ids, m.ID)
	}
	for _, id := range p.Models {
		if !slices.Contains(ids, id) {
			return fmt.Errorf("model %q is not there", id)
		}
	}
	return nil
}

// ConfiguredProviders lists the providers a models.json names, for
// Settings; a missing file has none.
func ConfiguredProviders(path string) ([]string, error) {
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	root, err := parseJSONC(string(data))
	if err != nil || root == nil || root.kind != '{' {
		return nil, err
	}
	provs := root.member("providers")
	if provs == nil || provs.value.kind != '{' {
		return nil, nil
	}
	var names []string
	for _, m := range provs.value.members {
		names = append(names, m.key)
	}
	return names, nil
}
