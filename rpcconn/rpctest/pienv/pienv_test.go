package pienv

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"knightcode.ai/desktop/rpcconn/rpctest/llmserver"
)

// TestGetState is the smallest proof that the pieces fit: pi is installed,
// reads the isolated configuration and answers on stdout.
func TestGetState(t *testing.T) {
	t.Parallel()
	srv := llmserver.Start(t)
	env := Setup(t, srv.URL())

	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	cmd := env.Command(ctx, "--mode", "rpc")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if _, err := stdin.Write([]byte(`{"id":"a","type":"get_state"}` + "\n")); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("read response: %v; stderr:\n%s", err, stderr.String())
	}

	var resp struct {
		ID      string `json:"id"`
		Type    string `json:"type"`
		Command string `json:"command"`
		Success bool   `json:"success"`
		Data    struct {
			Model struct {
				ID            string   `json:"id"`
				Provider      string   `json:"provider"`
				BaseURL       string   `json:"baseUrl"`
				Reasoning     bool     `json:"reasoning"`
				Input         []string `json:"input"`
				ContextWindow int      `json:"contextWindow"`
				MaxTokens     int      `json:"maxTokens"`
			} `json:"model"`
			MessageCount int `json:"messageCount"`
		} `json:"data"`
	}
	if err := json.Unmarshal([]byte(line), &resp); err != nil {
		t.Fatalf("response %q: %v", line, err)
	}
	m := resp.Data.Model
	if resp.ID != "a" || resp.Type != "response" || resp.Command != "get_state" || !resp.Success {
		t.Errorf("response = %s", line)
	}
	if m.ID != ReasonerModel || m.Provider != Provider || m.BaseURL != srv.URL() || !m.Reasoning ||
		!slices.Equal(m.Input, []string{"text", "image"}) || m.ContextWindow != 32000 || m.MaxTokens != 4096 {
		t.Errorf("model = %+v", m)
	}

	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Errorf("pi exited with %v after stdin closed; stderr:\n%s", err, stderr.String())
	}
}

func TestPromptStreamsFromLocalServer(t *testing.T) {
	t.Parallel()
	srv := llmserver.Start(t)
	a := startAgent(t, Setup(t, srv.URL()))
	a.send(map[string]any{"id": "p", "type": "prompt", "message": "[[think]] [[markdown]] hello",
		"images": []map[string]any{{"type": "image", "mimeType": "image/png", "data": onePixelPNG}}})
	seen := a.agentEnd()

	if got := textDeltas(seen); !strings.Contains(got, "# Streaming check") || !strings.Contains(got, "```go") {
		t.Errorf("streamed text = %q", got)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("model server saw %d requests", len(reqs))
	}
	r := reqs[0]
	if r.Model != ReasonerModel || !r.Stream || !r.IncludeUsage || r.MaxTokensField != "max_tokens" || r.Reply != "markdown" {
		t.Errorf("request = model %q stream %v usage %v max via %q reply %q", r.Model, r.Stream, r.IncludeUsage, r.MaxTokensField, r.Reply)
	}
	// The default thinking level of a reasoning model is medium.
	if !r.HasImages || r.ReasoningEffort != "medium" || r.MaxTokens != 4096 {
		t.Errorf("images %v, reasoning_effort %q, max_tokens %d", r.HasImages, r.ReasoningEffort, r.MaxTokens)
	}
	// supportsDeveloperRole false: the system prompt goes as "system".
	if len(r.Messages) < 2 || r.Messages[0].Role != "system" {
		t.Errorf("first message role %q", r.Messages[0].Role)
	}
	if !slices.Contains(r.Tools, "bash") {
		t.Errorf("tools = %v", r.Tools)
	}
}

const onePixelPNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="

func TestPlainModelAndSessionDir(t *testing.T) {
	t.Parallel()
	srv := llmserver.Start(t)
	env := Setup(t, srv.URL(), WithModel(PlainModel), WithSessionDir(""))
	if env.SessionDir == "" || slices.Contains(env.Args, "--no-session") || !slices.Contains(env.Args, "--session-dir") {
		t.Fatalf("args = %v", env.Args)
	}
	a := startAgent(t, env)
	a.send(map[string]any{"id": "s", "type": "get_state"})
	data, _ := a.response("s")["data"].(map[string]any)
	model, _ := data["model"].(map[string]any)
	if model["id"] != PlainModel || model["reasoning"] != false || data["thinkingLevel"] != "off" {
		t.Errorf("state = %v", data)
	}
	a.send(map[string]any{"id": "p", "type": "prompt", "message": "hi"})
	a.agentEnd()
	files, _ := filepath.Glob(filepath.Join(env.SessionDir, "*", "*.jsonl"))
	files2, _ := filepath.Glob(filepath.Join(env.SessionDir, "*.jsonl"))
	if len(files)+len(files2) == 0 {
		t.Errorf("no session file under %s", env.SessionDir)
	}
}

func TestUIExtensionCommands(t *testing.T) {
	t.Parallel()
	srv := llmserver.Start(t)
	a := startAgent(t, Setup(t, srv.URL(), WithExtension(UIExtension(t))))

	a.send(map[string]any{"id": "c", "type": "get_commands"})
	data, _ := a.response("c")["data"].(map[string]any)
	commands, _ := data["commands"].([]any)
	var names []string
	for _, c := range commands {
		if m, ok := c.(map[string]any); ok {
			names = append(names, m["name"].(string))
		}
	}
	if !slices.Contains(names, "ask") || !slices.Contains(names, "decorate") {
		t.Fatalf("commands = %v", names)
	}

	a.send(map[string]any{"id": "d", "type": "prompt", "message": "/decorate"})
	status := a.uiRequest("setStatus")
	widget := a.uiRequest("setWidget")
	title := a.uiRequest("setTitle")
	editor := a.uiRequest("set_editor_text")
	a.response("d")
	if status["statusKey"] != "knight" || status["statusText"] != "Decorated" {
		t.Errorf("setStatus = %v", status)
	}
	if lines, _ := widget["widgetLines"].([]any); widget["widgetKey"] != "knight" || len(lines) != 2 {
		t.Errorf("setWidget = %v", widget)
	}
	if title["title"] != "KnightCode test title" || editor["text"] != "Text from /decorate" {
		t.Errorf("setTitle = %v, set_editor_text = %v", title, editor)
	}

	a.send(map[string]any{"id": "q", "type": "prompt", "message": "/ask"})
	sel := a.uiRequest("select")
	if opts, _ := sel["options"].([]any); sel["title"] != "Pick a color" || len(opts) != 3 {
		t.Errorf("select = %v", sel)
	}
	a.send(map[string]any{"type": "extension_ui_response", "id": sel["id"], "value": "green"})
	conf := a.uiRequest("confirm")
	a.send(map[string]any{"type": "extension_ui_response", "id": conf["id"], "confirmed": true})
	in := a.uiRequest("input")
	a.send(map[string]any{"type": "extension_ui_response", "id": in["id"], "value": "Ann"})
	ed := a.uiRequest("editor")
	if ed["prefill"] != "line one\nline two" {
		t.Errorf("editor = %v", ed)
	}
	a.send(map[string]any{"type": "extension_ui_response", "id": ed["id"], "cancelled": true})
	note := a.uiRequest("notify")
	if want := `select="green" confirm=true input="Ann" editor=cancelled`; note["message"] != want {
		t.Errorf("notify message = %q, want %q", note["message"], want)
	}
	a.response("q")
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("extension commands reached the model %d times", n)
	}
}

func TestUIExtensionGuardsBash(t *testing.T) {
	t.Parallel()
	srv := llmserver.Start(t)
	a := startAgent(t, Setup(t, srv.URL(), WithExtension(UIExtension(t))))

	a.send(map[string]any{"id": "y", "type": "prompt", "message": "[[bash:echo knight-$((6*7))]]"})
	conf := a.uiRequest("confirm")
	if conf["title"] != "Allow bash?" || conf["message"] != "echo knight-$((6*7))" {
		t.Errorf("confirm = %v", conf)
	}
	a.send(map[string]any{"type": "extension_ui_response", "id": conf["id"], "confirmed": true})
	seen := a.agentEnd()
	if got := textDeltas(seen); got != "Tool output was: knight-42" {
		t.Errorf("allowed run answered %q", got)
	}

	a.send(map[string]any{"id": "n", "type": "prompt", "message": "[[bash:echo nope]]"})
	conf = a.uiRequest("confirm")
	a.send(map[string]any{"type": "extension_ui_response", "id": conf["id"], "confirmed": false})
	seen = a.agentEnd()
	if got := textDeltas(seen); !strings.Contains(got, "Blocked by user") {
		t.Errorf("blocked run answered %q", got)
	}
	reqs := srv.Requests()
	if len(reqs) != 4 || reqs[1].Reply != "tool-result" || reqs[3].Reply != "tool-result" {
		t.Errorf("model saw %d requests", len(reqs))
	}
}

func TestPrepareIsHermetic(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "leak")
	t.Setenv("PI_CODING_AGENT_DIR", "/somewhere/else")
	env, err := Prepare("/bin/true", t.TempDir(), "http://127.0.0.1:1/v1", WithArgs("--thinking", "high"), WithExtension("x.ts"))
	if err != nil {
		t.Fatal(err)
	}
	joined := strings.Join(env.Env, "\n")
	for _, want := range []string{"HOME=" + env.Home, KeyEnv + "=", "PI_OFFLINE=1", "PI_SKIP_VERSION_CHECK=1", "PI_TELEMETRY=0", "LANG=C.UTF-8", "PI_CODING_AGENT_DIR=" + env.AgentDir} {
		if !strings.Contains(joined, want) {
			t.Errorf("Env lacks %s", want)
		}
	}
	if strings.Contains(joined, "leak") || strings.Contains(joined, "/somewhere/else") {
		t.Errorf("Env inherits the caller's settings:\n%s", joined)
	}
	wantArgs := []string{"--provider", "local", "--model", "local-reasoner", "--no-skills", "--no-prompt-templates", "--no-context-files", "--no-session"}
	if !slices.Equal(env.Args[:len(wantArgs)], wantArgs) {
		t.Errorf("Args = %v", env.Args)
	}
	rest := env.Args[len(wantArgs):]
	if len(rest) != 4 || rest[0] != "-e" || !filepath.IsAbs(rest[1]) || rest[2] != "--thinking" {
		t.Errorf("extra args = %v", rest)
	}

	var models struct {
		Providers map[string]struct {
			BaseURL string         `json:"baseUrl"`
			API     string         `json:"api"`
			APIKey  string         `json:"apiKey"`
			Compat  map[string]any `json:"compat"`
			Models  []struct {
				ID        string   `json:"id"`
				Reasoning bool     `json:"reasoning"`
				Input     []string `json:"input"`
				Cost      struct {
					Input, Output float64
				} `json:"cost"`
			} `json:"models"`
		} `json:"providers"`
	}
	data, err := os.ReadFile(filepath.Join(env.AgentDir, "models.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &models); err != nil {
		t.Fatal(err)
	}
	p := models.Providers["local"]
	if p.BaseURL != "http://127.0.0.1:1/v1" || p.API != "openai-completions" || p.APIKey != KeyEnv ||
		p.Compat["maxTokensField"] != "max_tokens" || p.Compat["supportsUsageInStreaming"] != true || len(p.Models) != 2 {
		t.Errorf("provider = %+v", p)
	}
	if m := p.Models[0]; m.ID != ReasonerModel || !m.Reasoning || len(m.Input) != 2 || m.Cost.Input != 1 || m.Cost.Output != 2 {
		t.Errorf("reasoner = %+v", m)
	}
	if m := p.Models[1]; m.ID != PlainModel || m.Reasoning || len(m.Input) != 1 {
		t.Errorf("plain = %+v", m)
	}
}

func TestRepoRoot(t *testing.T) {
	root, err := RepoRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Errorf("root %s: %v", root, err)
	}
	if _, err := RepoRoot(t.TempDir()); err == nil {
		t.Error("found a go.mod above a temp dir")
	}
}
