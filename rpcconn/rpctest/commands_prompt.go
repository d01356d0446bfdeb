package rpctest

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

func (a *agent) cmdPrompt(c *command) (any, error) {
	if name, ok := a.extensionCommand(c.Message); ok {
		// Extension commands run at once, even while streaming, and the
		// prompt is answered only when they finish, dialogs included.
		go a.runExtensionCommand(c, name)
		return nil, errDeferred
	}
	text := expandTemplate(c.Message)
	sc := parseScript(text)
	a.mu.Lock()
	if a.run != nil {
		defer a.mu.Unlock()
		switch c.StreamingBehavior {
		case "steer":
			a.enqueueLocked(&a.steering, text, c.Images)
			return nil, nil
		case "followUp":
			a.enqueueLocked(&a.followUp, text, c.Images)
			return nil, nil
		case "":
			return nil, errorf("Agent is already processing. Specify streamingBehavior ('steer' or 'followUp') to queue the message.")
		}
		return nil, errorf("Invalid streamingBehavior: %s", c.StreamingBehavior)
	}
	if a.currentModel() == nil {
		a.mu.Unlock()
		return nil, errorf("No model selected. Choose one with set_model.")
	}
	r := newRun(sc)
	a.run = r
	a.mu.Unlock()

	resp := a.responseFor(c, nil, nil)
	if sc.noIDResponse {
		resp.ID = nil
	}
	if sc.outOfOrder {
		r.promptResponse = func() { a.out.send(resp) }
	} else {
		a.out.send(resp)
	}
	go a.runSession(r, turnMessage{queuedMessage{text, c.Images}, sc})
	return nil, errDeferred
}

func (a *agent) cmdSteer(c *command) (any, error)    { return a.queueCommand(c, &a.steering) }
func (a *agent) cmdFollowUp(c *command) (any, error) { return a.queueCommand(c, &a.followUp) }

// queueCommand queues even while idle, as the agent does: the message waits
// for the next run.
func (a *agent) queueCommand(c *command, q *[]queuedMessage) (any, error) {
	if _, ok := a.extensionCommand(c.Message); ok {
		return nil, errorf("Extension commands are not allowed in %s; send them with prompt", c.typ())
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.enqueueLocked(q, expandTemplate(c.Message), c.Images)
	return nil, nil
}

func (a *agent) enqueueLocked(q *[]queuedMessage, text string, images []imageContent) {
	*q = append(*q, queuedMessage{text, images})
	a.emitQueueLocked()
}

func (a *agent) cmdClearQueue(c *command) (any, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	data := obj("steering", queueTexts(a.steering), "followUp", queueTexts(a.followUp))
	if len(a.steering)+len(a.followUp) > 0 {
		a.steering, a.followUp = nil, nil
		a.emitQueueLocked()
	}
	return data, nil
}

// cmdAbort stops whatever runs: the run (answered after its agent_end),
// a manual compaction, an extension command's dialog. Queued messages stay
// queued.
func (a *agent) cmdAbort(c *command) (any, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.cancels.cancelAll()
	r := a.run
	if r == nil {
		return nil, nil
	}
	r.cancel()
	if r.ended {
		return nil, nil
	}
	r.aborts = append(r.aborts, c)
	return nil, errDeferred
}

// abortAndWait stops the run, if any, and waits until it has settled, as
// commands that replace the session do first.
func (a *agent) abortAndWait() {
	a.mu.Lock()
	r := a.run
	a.mu.Unlock()
	if r != nil {
		r.cancel()
		<-r.done
	}
}

type commandInfo struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Source      string `json:"source"`
	Location    string `json:"location,omitempty"`
	Path        string `json:"path,omitempty"`
	// SourceInfo replaces Location and Path on the older agent.
	SourceInfo any `json:"sourceInfo,omitempty"`
}

var fakeCommands = []commandInfo{
	{Name: "fake-hello", Description: "Show a notification", Source: "extension", Path: "/fake/extensions/fake-ext.ts"},
	{Name: "fake-ask", Description: "Ask a yes/no question, then notify the answer", Source: "extension", Path: "/fake/extensions/fake-ext.ts"},
	{Name: "review", Description: "Review the code in this folder", Source: "prompt", Location: "project", Path: "/fake/project/.knightcode/agent/prompts/review.md"},
	{Name: "skill:fake-search", Description: "Search with a fake engine", Source: "skill", Location: "user", Path: "/fake/home/.knightcode/agent/skills/fake-search/SKILL.md"},
}

func (a *agent) cmdGetCommands(c *command) (any, error) {
	list := fakeCommands
	if name := a.opts.TUICommand; name != "" {
		list = append(list[:len(list):len(list)], tuiCommand(name))
	}
	cmds := make([]commandInfo, len(list))
	for i, fc := range list {
		cmds[i] = fc
		if a.opts.Older {
			scope := fc.Location
			if scope == "" {
				scope = "user"
			}
			cmds[i].SourceInfo = obj("path", fc.Path, "source", "local", "scope", scope, "origin", "top-level")
			cmds[i].Location, cmds[i].Path = "", ""
		}
	}
	return obj("commands", cmds), nil
}

// tuiCommand is --fake-tui-command's listing, as pi 1.6 lists /llama.
func tuiCommand(name string) commandInfo {
	return commandInfo{Name: name, Description: "Manage a terminal-only thing", Source: "extension", Path: "/fake/extensions/" + name + ".ts"}
}

func (a *agent) extensionCommand(text string) (string, bool) {
	rest, ok := strings.CutPrefix(strings.TrimSpace(text), "/")
	if !ok {
		return "", false
	}
	name, _, _ := strings.Cut(rest, " ")
	if name == "fake-exit" {
		return name, true // unlisted: the fault tests' way to end the agent
	}
	if name != "" && name == a.opts.TUICommand {
		return name, true
	}
	for _, fc := range fakeCommands {
		if fc.Source == "extension" && fc.Name == name {
			return name, true
		}
	}
	return "", false
}

// expandTemplate turns /review and /skill:fake-search into the text the
// model would receive; anything else is sent as typed.
func expandTemplate(text string) string {
	if rest, ok := strings.CutPrefix(text, "/review"); ok && (rest == "" || rest[0] == ' ') {
		return "Review the code in this folder and list the problems you find." + rest
	}
	if rest, ok := strings.CutPrefix(text, "/skill:fake-search"); ok && (rest == "" || rest[0] == ' ') {
		return "Use the fake-search skill to search for:" + rest
	}
	return text
}

func (a *agent) runExtensionCommand(c *command, name string) {
	if name == "fake-exit" {
		a.exitAsked(c.Message)
		return
	}
	if name == a.opts.TUICommand {
		// pi 1.6's /llama, word for word but for the name: it notifies
		// and succeeds.
		a.emit(obj("type", "extension_ui_request", "id", newUUID(), "method", "notify",
			"message", "/"+name+" is available in interactive mode", "notifyType", "warning"))
		a.respond(c, nil, nil)
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer a.track(a.cancels, cancel)()
	message := "Hello from /fake-hello"
	if name == "fake-ask" {
		message = "You said " + a.dialog(ctx, dialogSpec{method: "confirm"})
	}
	a.emit(obj("type", "extension_ui_request", "id", newUUID(), "method", "notify",
		"message", message, "notifyType", "info"))
	a.respond(c, nil, nil)
}

// exitAsked is /fake-exit [CODE]: an extension ends the agent's process
// with CODE (default 0) at once, mid-stream if a run streams, its tools
// left as they are: an agent that exits by itself (0) or crashes.
func (a *agent) exitAsked(message string) {
	code := 0
	if f := strings.Fields(message); len(f) > 1 {
		if n, err := strconv.Atoi(f[1]); err == nil {
			code = n
		}
	}
	fmt.Fprintf(a.stderr, "fake-knightcode: /fake-exit: exiting with code %d\n", code)
	a.out.exit(code)
}
