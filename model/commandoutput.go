package model

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"

	"knightcode.ai/desktop/rpcconn"
)

// An extension command run over RPC answers in notifications: pi 1.6's
// /mcp prints its servers' states as one notify, /mcp reconnect NAME its
// result. A panel that runs such a command wants that text for itself, not
// as a toast; capture holds it while the command runs.
type capture struct {
	mu      sync.Mutex
	notices []Notice
	// want tells the command's own output from what the agent says
	// meanwhile by itself (pi's "MCP servers need attention" at start).
	want func(Notice) bool
	got  chan struct{} // closed at the first notice want takes
	done bool
}

func (k *capture) add(n Notice) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.notices = append(k.notices, n)
	if !k.done && (k.want == nil || k.want(n)) {
		k.done = true
		close(k.got)
	}
}

func (k *capture) take() []Notice {
	k.mu.Lock()
	defer k.mu.Unlock()
	return append([]Notice(nil), k.notices...)
}

// outputWait bounds the wait, after the agent took the command, for the
// notification it writes before its answer: the two travel separate ways
// from the reader (answer to the call, notice through the event loop).
const outputWait = 10 * time.Second

// CommandOutput runs an extension command (text starting with "/", which
// the agent lists) and returns what it notified while it ran, instead of
// showing it, up to the notice want takes (nil: the first). Only one runs
// at a time; notices meanwhile that are not its own are taken too. A
// command that notifies nothing ends at its answer plus outputWait.
func (c *Controller) CommandOutput(ctx context.Context, text string, want func(Notice) bool) ([]Notice, error) {
	conn := c.current()
	if conn == nil {
		return nil, errors.New("the agent is not running")
	}
	k := &capture{got: make(chan struct{}), want: want}
	c.mu.Lock()
	if c.capturing != nil {
		c.mu.Unlock()
		return nil, errors.New("another command is running")
	}
	c.capturing = k
	c.mu.Unlock()
	c.session.setCapturing(true)
	defer func() {
		c.session.setCapturing(false)
		c.mu.Lock()
		c.capturing = nil
		c.mu.Unlock()
	}()
	if err := conn.Prompt(ctx, rpcconn.Prompt{Message: text}); err != nil {
		return k.take(), err
	}
	select {
	case <-k.got:
	case <-time.After(outputWait):
	case <-ctx.Done():
		return k.take(), ctx.Err()
	}
	return k.take(), nil
}

// captured hands n to a command that waits for its output; it reports
// whether one took it.
func (c *Controller) captured(n Notice) bool {
	c.mu.Lock()
	k := c.capturing
	c.mu.Unlock()
	if k == nil || n.Source == "extension_error" {
		return false
	}
	k.add(n)
	return true
}

// MCPServer is one server as pi's /mcp reports it over RPC.
type MCPServer struct {
	Name string
	// State is the first word of its state: connected, failed, disabled,
	// or what the agent says (such as needs sign-in).
	State string
	// Detail is the rest of its line (tool count, exposure); Error the
	// indented lines under it.
	Detail, Error string
}

// ParseMCPStatus reads /mcp's notification: a line a server,
// "name: state[, detail] (exposure)", and the lines under it indented:
// its error. A text that is not such a list gives nil.
func ParseMCPStatus(text string) []MCPServer {
	var out []MCPServer
	for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		if line[0] == ' ' || line[0] == '\t' {
			if len(out) == 0 {
				return nil
			}
			last := &out[len(out)-1]
			last.Error = strings.TrimSpace(last.Error + "\n" + strings.TrimSpace(line))
			continue
		}
		name, rest, ok := strings.Cut(line, ": ")
		if !ok || strings.ContainsAny(name, " \t") || name == "" {
			return nil
		}
		state, detail := rest, ""
		if i := strings.IndexAny(rest, ",("); i >= 0 {
			state, detail = strings.TrimSpace(rest[:i]), strings.TrimSpace(strings.TrimPrefix(rest[i:], ","))
		}
		out = append(out, MCPServer{Name: name, State: state, Detail: detail})
	}
	return out
}
