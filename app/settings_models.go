package app

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"knightcode.ai/desktop/agentsetup"
	"knightcode.ai/desktop/model"
)

// settingsPage is Settings › Models: which agent runs, its version and the
// Node that runs it, where it came from, the models it has connected, and
// "Connect a model…". The version and the Node are asked for when the page
// is first shown (ask), not when Settings opens.
func (m *modelSetup) settingsPage() (page fyne.CanvasObject, ask func()) {
	t := m.host
	st := t.started
	agent := factLabel("none found")
	if st.agent != "" {
		agent.SetText(st.agent + " — " + st.agentSource)
	}
	version := factLabel("asking the agent…")
	node := factLabel("asking…")
	if _, remote := t.controllerRemote(); remote {
		version.SetText("the agent runs over SSH: see the host")
		node.SetText("the host's")
	} else if st.agent != "" {
		path := st.agent
		asked := false
		ask = func() {
			if asked {
				return
			}
			asked = true
			t.bg.Go(func(ctx context.Context) {
				v, verr := agentsetup.RunVersion(ctx, path, nil)
				n := agentNode(ctx, path)
				t.do(func() {
					if verr != nil {
						version.SetText("it did not say: " + verr.Error())
					} else {
						version.SetText(v)
					}
					node.SetText(n)
				})
			})
		}
	} else {
		version.SetText("no agent")
		node.SetText("—")
	}
	connect := widget.NewButtonWithIcon("Connect a model…", theme.ContentAddIcon(), m.openDialog)
	connect.Importance = widget.HighImportance
	if ask == nil {
		ask = func() {}
	}
	return widget.NewForm(
		widget.NewFormItem("Agent", agent),
		widget.NewFormItem("Version", version),
		widget.NewFormItem("Runs with", node),
		widget.NewFormItem("Models", factLabel(connectedModels(t.drawn.Models))),
		widget.NewFormItem("", container.NewHBox(connect)),
	), ask
}

// factLabel is a value on a settings page: plain words that wrap.
func factLabel(text string) *widget.Label {
	l := widget.NewLabel(text)
	l.Wrapping = fyne.TextWrapWord
	return l
}

// controllerRemote is the SSH host of the tab's agent, if it runs on one.
func (h *tabHost) controllerRemote() (string, bool) {
	if h.controller == nil {
		return "", false
	}
	if spec, ok := h.controller.Remote(); ok {
		return spec.Host.Name(), true
	}
	return "", false
}

// connectedModels lists the agent's models by provider, in its order.
func connectedModels(models []model.ModelChoice) string {
	if len(models) == 0 {
		return "None: the agent lists no model. Connect one."
	}
	var providers []string
	byProvider := map[string][]string{}
	for _, m := range models {
		if _, ok := byProvider[m.Provider]; !ok {
			providers = append(providers, m.Provider)
		}
		name := m.ID
		if m.Name != "" && m.Name != m.ID {
			name = m.Name + " (" + m.ID + ")"
		}
		byProvider[m.Provider] = append(byProvider[m.Provider], name)
	}
	lines := make([]string, len(providers))
	for i, p := range providers {
		lines[i] = p + ": " + strings.Join(byProvider[p], ", ")
	}
	return strings.Join(lines, "\n")
}

// agentNode says what runs the agent: the Node the app installed it with,
// the Node a script names (its #! line), or its own program.
func agentNode(ctx context.Context, agent string) string {
	if rec, ok := agentsetup.RecordOf(agent); ok {
		return rec.Node
	}
	f, err := os.Open(agent)
	if err != nil {
		return "unknown: " + err.Error()
	}
	line, _ := bufio.NewReader(f).ReadString('\n')
	f.Close()
	if !strings.HasPrefix(line, "#!") || !strings.Contains(line, "node") {
		return "its own program"
	}
	n, err := agentsetup.SystemNode(ctx)
	if err != nil {
		return "Node from PATH, which has none: " + err.Error()
	}
	return fmt.Sprintf("Node %s at %s (the node on PATH, as its #! line asks)", n.Version, n.Path)
}
