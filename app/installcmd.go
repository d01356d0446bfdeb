package app

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"knightcode.ai/desktop/agentsetup"
)

// installAgentCommand is --install-agent, which ./scripts/run.sh runs before
// it opens the window: when an agent is found (--agent, Settings, beside the
// app, on PATH, or installed before) it says which and installs nothing;
// otherwise it installs the current agent into the app's data folder, with
// a progress line on stderr. Ctrl+C cancels. The status is 0 when an agent
// is there at the end.
func installAgentCommand(flags Flags, savedAgent string, stderr io.Writer) int {
	if flags.SSH != "" {
		fmt.Fprintf(stderr, "knightcode-desktop: the agent runs on %s: nothing to install here\n", flags.SSH)
		return 0
	}
	if found, ok := FindAgent(flags.Agent, savedAgent); ok {
		fmt.Fprintf(stderr, "knightcode-desktop: agent: %s (%s)\n", found.Path, agentSourceWords(found.Source))
		return 0
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	line := newProgressLine(stderr)
	res, err := agentsetup.Install(ctx, agentsetup.Options{Progress: line.show})
	line.end()
	if err != nil {
		fmt.Fprintf(stderr, "knightcode-desktop: the agent could not be installed: %v\n", err)
		if err == agentsetup.ErrNoNPM {
			fmt.Fprintln(stderr, "  Install Node.js and npm (on Debian or Ubuntu: sudo apt install nodejs npm), then run this again.")
		}
		return 1
	}
	fmt.Fprintf(stderr, "knightcode-desktop: agent: %s %s (%s), run with %s\n", agentsetup.Current.Name, res.Version, res.Launcher, res.Node)
	return 0
}

// progressLine prints an install's steps, and its size as one line that
// is rewritten in place on a terminal, or every 10 % otherwise.
type progressLine struct {
	w         io.Writer
	terminal  bool
	sized     bool
	lastTenth int64
	lastShown time.Time
}

func newProgressLine(w io.Writer) *progressLine {
	p := &progressLine{w: w}
	if f, ok := w.(*os.File); ok {
		if info, err := f.Stat(); err == nil && info.Mode()&os.ModeCharDevice != 0 {
			p.terminal = true
		}
	}
	return p
}

func (p *progressLine) show(pr agentsetup.Progress) {
	if pr.Line != "" {
		p.end()
		fmt.Fprintln(p.w, "  "+pr.Line)
		return
	}
	if pr.Total <= 0 {
		return
	}
	pct := min(pr.Done*100/pr.Total, 99)
	text := fmt.Sprintf("  downloading and unpacking: %d MB of about %d MB (%d %%)", pr.Done>>20, pr.Total>>20, pct)
	switch {
	case p.terminal:
		fmt.Fprintf(p.w, "\r%s\x1b[K", text)
		p.sized = true
	case pct/10 != p.lastTenth || time.Since(p.lastShown) > 30*time.Second:
		p.lastTenth, p.lastShown = pct/10, time.Now()
		fmt.Fprintln(p.w, text)
	}
}

// end finishes a size line rewritten in place.
func (p *progressLine) end() {
	if p.sized {
		fmt.Fprintln(p.w)
		p.sized = false
	}
}
