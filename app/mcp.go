package app

import (
	"context"
	"os"
	"slices"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/modelsetup"
)

// mcpPanel is the tab's panel of its agent's MCP servers, through what
// pi's RPC mode offers (measured on pi 1.6.0): "/mcp" notifies each
// server's state and error, "/mcp reconnect|login|logout NAME" act on one.
// Enabling and disabling is the interactive /mcp's only; the panel does it
// by setting "enabled" in the mcp.json that defines the server and
// restarting the agent, and says how to do it by hand where it cannot.
type mcpPanel struct {
	host *tabHost
	// restart starts the tab's agent again, to read a changed mcp.json.
	restart func()
	k       *keyDialog
	list    *fyne.Container
	note    *widget.Label
	busy    bool
	closed  bool
}

// refresh asks /mcp for the servers' states.
func (p *mcpPanel) refresh() {
	p.run("/mcp", isMCPStatus, func(text string) {
		servers := model.ParseMCPStatus(text)
		if servers == nil {
			p.list.Objects = nil
			p.note.SetText(text)
		} else {
			p.note.SetText(mcpSummary(servers))
			p.list.Objects = nil
			for _, s := range servers {
				p.list.Add(p.row(s))
			}
		}
		p.list.Refresh()
	})
}

// isMCPStatus tells /mcp's answer from what the agent says by itself
// meanwhile: the list of servers, or that there are none.
func isMCPStatus(n model.Notice) bool {
	return model.ParseMCPStatus(n.Text) != nil || strings.HasPrefix(n.Text, "No MCP servers")
}

// run has the agent run command and hands what it notified, up to the
// notice want takes, to done on the UI goroutine; one at a time. Of
// several notices the last is the command's own.
func (p *mcpPanel) run(command string, want func(model.Notice) bool, done func(text string)) {
	t := p.host
	if p.busy || t.controller == nil {
		return
	}
	p.busy = true
	c := t.controller
	t.bg.Go(func(ctx context.Context) {
		notices, err := c.CommandOutput(ctx, command, want)
		var texts []string
		for _, n := range notices {
			if want == nil || want(n) {
				texts = append(texts, n.Text)
			}
		}
		t.do(func() {
			p.busy = false
			if p.closed {
				return
			}
			if err != nil {
				p.note.SetText(command + ": " + err.Error())
				return
			}
			if len(texts) == 0 {
				p.note.SetText(command + ": the agent said nothing.")
				return
			}
			done(strings.Join(texts, "\n"))
		})
	})
}

// row is one server: its name, state and error, and what can be done.
func (p *mcpPanel) row(s model.MCPServer) fyne.CanvasObject {
	name := widget.NewLabelWithStyle(s.Name, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	state := widget.NewLabel(strings.TrimSpace(s.State + " " + s.Detail))
	switch s.State {
	case "connected":
		state.Importance = widget.SuccessImportance
	case "failed":
		state.Importance = widget.DangerImportance
	case "disabled":
		state.Importance = widget.LowImportance
	default:
		state.Importance = widget.WarningImportance
	}
	var buttons []fyne.CanvasObject
	act := func(label, verb string) {
		buttons = append(buttons, widget.NewButton(label, func() {
			p.run("/mcp "+verb+" "+s.Name, func(n model.Notice) bool { return strings.Contains(n.Text, s.Name) }, func(text string) {
				p.note.SetText(text)
				p.refreshSoon()
			})
		}))
	}
	if s.State != "disabled" {
		act("Reconnect", "reconnect")
	}
	if strings.Contains(s.State+s.Error, "sign") || strings.Contains(s.State+s.Error, "auth") {
		act("Sign in", "login")
	}
	if s.State == "disabled" {
		buttons = append(buttons, widget.NewButton("Enable", func() { p.setEnabled(s.Name, true) }))
	} else {
		buttons = append(buttons, widget.NewButton("Disable", func() { p.setEnabled(s.Name, false) }))
	}
	objs := []fyne.CanvasObject{container.NewBorder(nil, nil, name, container.NewHBox(buttons...), state)}
	if s.Error != "" {
		e := factLabel(s.Error)
		e.Importance = widget.DangerImportance
		e.TextStyle = fyne.TextStyle{Monospace: true}
		objs = append(objs, e)
	}
	return container.NewVBox(objs...)
}

// refreshSoon asks again once the action's own command is done.
func (p *mcpPanel) refreshSoon() {
	p.host.do(p.refresh)
}

// setEnabled turns a server on or off in the mcp.json that defines it and
// restarts the agent, which reads the file at start; the panel asks again
// once the agent is back.
func (p *mcpPanel) setEnabled(server string, on bool) {
	t := p.host
	if _, remote := t.controller.Remote(); remote {
		p.note.SetText("Enabling and disabling is not offered over RPC, and this agent's files are on its host: set \"enabled\" of " + server + " in mcp.json there, then restart the agent.")
		return
	}
	opts := t.controller.Options()
	t.bg.Go(func(ctx context.Context) {
		cfg, err := modelsetup.ConfigFor(ctx, opts.Path, append(os.Environ(), opts.Env...))
		var path string
		var found bool
		if err == nil && cfg.Known() {
			path, found = modelsetup.MCPServerFile(cfg, opts.Dir, server)
		}
		if found {
			_, err = modelsetup.SetMCPEnabled(path, server, on)
		}
		t.do(func() {
			switch {
			case err != nil:
				p.note.SetText(err.Error())
			case !found:
				p.note.SetText(server + " is not in an mcp.json the window can find (an extension may add it): enabling and disabling is not offered over RPC.")
			default:
				what := "Disabled "
				if on {
					what = "Enabled "
				}
				p.note.SetText(what + server + " in " + path + ". The agent restarts to read it; Refresh once it is back.")
				p.restart()
			}
		})
	})
}

// mcpSummary counts the servers by state.
func mcpSummary(servers []model.MCPServer) string {
	counts := map[string]int{}
	var order []string
	for _, s := range servers {
		if counts[s.State] == 0 {
			order = append(order, s.State)
		}
		counts[s.State]++
	}
	var parts []string
	for _, st := range order {
		parts = append(parts, strconv.Itoa(counts[st])+" "+st)
	}
	return strings.Join(parts, ", ") + "."
}

// hasCommand reports whether the agent lists the command (name without /).
func (c *tabCommands) hasCommand(name string) bool {
	return slices.ContainsFunc(c.agentCommands, func(c model.PaletteItem) bool { return c.Title == "/"+name })
}

// actionMCP opens the panel (palette, Agent menu).
func (c *tabCommands) actionMCP() {
	if !c.needAgent() {
		return
	}
	if !c.hasCommand("mcp") {
		c.message("MCP servers", "This agent lists no /mcp command, so it offers no MCP servers over RPC. "+
			"pi 1.6 does: add a server with pi mcp add NAME -- COMMAND in a terminal (or in ~/.pi/agent/mcp.json), then restart the agent.")
		return
	}
	p := &mcpPanel{host: c.tabHost, restart: c.restart, list: container.NewVBox(), note: factLabel("Asking the agent…")}
	c.mcp = p
	p.k = newKeyDialog(c.win, c.modals)
	byHand := inUseLabel("Adding and removing servers is not offered over RPC: use pi mcp add NAME -- COMMAND (or --url URL) and pi mcp remove NAME in a terminal, or edit mcp.json, then restart the agent.")
	content := container.NewBorder(p.note, byHand, nil, nil, container.NewVScroll(p.list))
	p.k.build("MCP servers", content,
		dialogAction{label: "Refresh", icon: theme.ViewRefreshIcon(), keepOpen: true, run: p.refresh},
		dialogAction{label: "Close", isDefault: true, isCancel: true})
	p.k.onClosed = func() { p.closed = true }
	p.k.Resize(fyne.NewSize(720, 520))
	p.k.Show()
	p.refresh()
}
