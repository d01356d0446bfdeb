package app

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"knightcode.ai/desktop/internal/testsupport"
	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/rpcconn/rpctest/llmserver"
	"knightcode.ai/desktop/rpcconn/rpctest/pienv"
)

// mcpEchoServer is a tiny MCP server over stdio: one tool, echo.
const mcpEchoServer = `const rl = require("readline").createInterface({ input: process.stdin });
const send = (m) => process.stdout.write(JSON.stringify(m) + "\n");
rl.on("line", (line) => {
  let m; try { m = JSON.parse(line); } catch { return; }
  if (m.method === "initialize") send({ jsonrpc: "2.0", id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "echo", version: "1.0.0" } } });
  else if (m.method === "tools/list") send({ jsonrpc: "2.0", id: m.id, result: { tools: [{ name: "echo", description: "Echo text", inputSchema: { type: "object", properties: { text: { type: "string" } } } }] } });
  else if (m.id !== undefined) send({ jsonrpc: "2.0", id: m.id, result: {} });
});
`

func mcpPanelText(w *Tab) string {
	var text string
	onUI(func() {
		if w.commands.mcp != nil {
			text = w.commands.mcp.note.Text + "\n" + visibleTexts(w.commands.mcp.list)
		}
	})
	return text
}

// TestRealAgentMCPServers: pi 1.6.0 with two MCP servers, one that runs
// and one whose program is missing. The panel lists them with their states
// and the error, Reconnect says what the agent says, Disable writes the
// server's "enabled" into mcp.json and the restarted agent reports it
// disabled. pi 0.73.1 has no /mcp: the panel says so.
func TestRealAgentMCPServers(t *testing.T) {
	if os.Getenv("KNIGHTCODE_E2E") != "1" && os.Getenv(pienv.BinaryEnv) == "" {
		t.Skip("the real agent runs with KNIGHTCODE_E2E=1 (scripts/test.sh) or " + pienv.BinaryEnv + " set")
	}
	llm := llmserver.Start(t)
	env := pienv.Setup(t, llm.URL())
	script := filepath.Join(t.TempDir(), "echo-server.js")
	os.WriteFile(script, []byte(mcpEchoServer), 0o644)
	_, node, err := pienv.Module(env.Binary)
	if err != nil {
		t.Fatal(err)
	}
	mcpFile := filepath.Join(env.AgentDir, "mcp.json")
	os.WriteFile(mcpFile, []byte(`{"mcpServers": {"echo": {"command": "`+node+`", "args": ["`+script+`"]}, "broken": {"command": "/nonexistent/mcp-server"}}}`), 0o600)
	for _, kv := range env.Env {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	w := openWindowWith(t, Flags{Agent: env.Binary, Dir: env.WorkDir, AgentArgs: env.Args})
	testsupport.Eventually(t, "the agent's commands", func() bool {
		var n int
		onUI(func() { n = len(w.commands.agentCommands) })
		return n > 0 || !pienv.Selected().IsCurrent()
	})
	if !pienv.Selected().IsCurrent() {
		onUI(w.commands.actionMCP)
		if q := dialogSays(w); !strings.Contains(q, "lists no /mcp command") {
			t.Fatalf("%s: the window said %q", pienv.Selected(), q)
		}
		return
	}
	onUI(w.commands.actionMCP)
	testsupport.Eventually(t, "the servers listed", func() bool {
		text := mcpPanelText(w)
		return strings.Contains(text, "echo") && strings.Contains(text, "broken")
	})
	text := mcpPanelText(w)
	for _, want := range []string{"1 connected, 1 failed", "connected", "failed", "ENOENT"} {
		if !strings.Contains(text, want) {
			t.Errorf("the panel does not say %q:\n%s", want, text)
		}
	}
	// Reconnect the broken one: the agent's answer shows.
	onUI(func() {
		w.commands.mcp.run("/mcp reconnect broken", func(n model.Notice) bool { return strings.Contains(n.Text, "broken") },
			func(s string) { w.commands.mcp.note.SetText(s) })
	})
	testsupport.Eventually(t, "the reconnect's answer", func() bool { return strings.Contains(mcpPanelText(w), "failed to connect") })

	// Disable echo: mcp.json says so, and the restarted agent too.
	onUI(func() { w.commands.mcp.setEnabled("echo", false) })
	testsupport.Eventually(t, "mcp.json written", func() bool {
		b, _ := os.ReadFile(mcpFile)
		return strings.Contains(string(b), `"enabled": false`)
	})
	// Listed as disabled, with Enable, once the restarted agent answers.
	testsupport.Eventually(t, "echo disabled after the restart, with Enable", func() bool {
		var ready, busy bool
		var buttons []string
		var text string
		onUI(func() {
			ready, busy = w.session.View(nil).Status.Connected, w.commands.mcp.busy
			for _, o := range w.commands.mcp.list.Objects {
				walkButtons(o, func(b *widget.Button) { buttons = append(buttons, b.Text) })
			}
			text = visibleTexts(w.commands.mcp.list)
		})
		if ready && !busy {
			onUI(w.commands.mcp.refresh)
		}
		return strings.Contains(text, "disabled") && slices.Contains(buttons, "Enable")
	})
}

func walkButtons(o fyne.CanvasObject, f func(*widget.Button)) {
	switch x := o.(type) {
	case *widget.Button:
		f(x)
	case *fyne.Container:
		for _, ch := range x.Objects {
			walkButtons(ch, f)
		}
	}
}
