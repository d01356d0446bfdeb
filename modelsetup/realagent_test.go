package modelsetup

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"knightcode.ai/desktop/rpcconn/rpctest/llmserver"
	"knightcode.ai/desktop/rpcconn/rpctest/pienv"
)

// TestRealAgentChecksAStoredKey runs the whole cloud-provider path against
// real pi: the agent's --help says where it keeps its files; a key saved
// with SaveAPIKey lands in its auth.json, 0600; Check makes its one request
// through a separate agent, which sends that key to the provider (here the
// "openai" provider pointed at the scripted model server, as models.json
// lets a user point a provider at a proxy) and returns the reply.
func TestRealAgentChecksAStoredKey(t *testing.T) {
	if os.Getenv("KNIGHTCODE_E2E") != "1" && os.Getenv(pienv.BinaryEnv) == "" {
		t.Skip("the real agent runs with KNIGHTCODE_E2E=1 (scripts/test.sh) or " + pienv.BinaryEnv + " set")
	}
	srv := llmserver.Start(t)
	env := pienv.Setup(t, srv.URL())
	ctx := context.Background()
	cfg, err := ConfigFor(ctx, env.Binary, env.Env)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Dir != env.AgentDir || cfg.DirEnv != "PI_CODING_AGENT_DIR" {
		t.Fatalf("the agent's --help gave %+v, want %s", cfg, env.AgentDir)
	}
	data, err := os.ReadFile(cfg.ModelsFile())
	if err != nil {
		t.Fatal(err)
	}
	// The provider goes to the model server (no apiKey here: the key is
	// the stored one), with a model of its own.
	text, err := setPath(string(data), []string{"providers", "openai"}, map[string]any{
		"baseUrl": srv.URL(), "api": "openai-completions",
		"compat": map[string]any{"supportsDeveloperRole": false, "supportsStore": false, "maxTokensField": "max_tokens"},
		"models": []map[string]any{{"id": "check-model", "name": "Check Model"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg.ModelsFile(), []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	const key = "sk-e2e-check-3f9a1c"
	if err := SaveAPIKey(cfg, "openai", key); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(cfg.AuthFile()); err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("auth.json: %v %v", info, err)
	}
	res, err := Check(ctx, AgentCommand{Path: env.Binary, Dir: env.WorkDir, Env: env.Env}, "openai", "check-model")
	reqs := srv.Requests()
	var auths []string
	for _, r := range reqs {
		auths = append(auths, r.Authorization+" ("+r.Model+")")
	}
	t.Logf("%s: Check = %+v, %v; the server saw %v", pienv.Selected(), res, err, auths)
	if err != nil {
		t.Fatalf("Check: %v", err)
	}
	if res.Model != "openai/check-model" || !strings.Contains(res.Reply, "scripted") {
		t.Errorf("Check = %+v", res)
	}
	if len(reqs) != 1 || reqs[0].Authorization != "Bearer "+key {
		t.Errorf("the model server did not get the stored key: %v", auths)
	}
	// Nothing but auth.json holds the key.
	filepath.WalkDir(env.Home, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && p != cfg.AuthFile() {
			if b, _ := os.ReadFile(p); strings.Contains(string(b), key) {
				t.Errorf("%s holds the key", p)
			}
		}
		return nil
	})

	// A provider without a key: the agent lists none of its models, and
	// Check says so in words.
	_, err = Check(ctx, AgentCommand{Path: env.Binary, Dir: env.WorkDir, Env: env.Env}, "mistral", "")
	if err == nil || !strings.Contains(err.Error(), "the agent lists no mistral models") {
		t.Errorf("Check without a key: %v", err)
	}
}
