package app

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"knightcode.ai/desktop/app/drafts"
)

// openTabsFile, in the app's storage, holds the tabs open when the app
// last quit. (A file of its own, not a preference: Fyne reloads its
// preferences file when it changes, and a write at quit raced that
// reload and lost the tabs.)
const openTabsFile = "open-tabs.json"

// savedTab is a tab to reopen: how its agent was started and its session
// file.
type savedTab struct {
	Flags   Flags  `json:"flags"`
	Session string `json:"session,omitempty"`
}

// reopenBar offers, at start, to reopen the tabs that were open when the
// app last quit, when there were several (one session is a click away on
// the first screen's recent list).
type reopenBar struct {
	w     *Window
	box   *fyne.Container
	text  *widget.Label
	saved []savedTab
	// remembered: the tabs were saved for the next start, once.
	remembered bool
}

func newReopenBar(w *Window) *reopenBar {
	r := &reopenBar{w: w, text: widget.NewLabel("")}
	reopen := widget.NewButtonWithIcon("Reopen", theme.ContentUndoIcon(), r.reopen)
	reopen.Importance = widget.HighImportance
	dismiss := widget.NewButtonWithIcon("", theme.CancelIcon(), r.dismiss)
	dismiss.Importance = widget.LowImportance
	r.box = container.NewBorder(nil, nil, nil, container.NewHBox(reopen, dismiss), r.text)
	r.box.Hide()
	return r
}

// offer shows the bar when tabs were saved and the command line named no
// folder or host of its own.
func (r *reopenBar) offer(flags Flags) {
	if err := r.load(); err != nil || len(r.saved) < 2 || len(flags.Dirs) > 0 || flags.SSH != "" {
		r.saved = nil
		return
	}
	r.text.SetText(fmt.Sprintf("%d tabs were open when KnightCode last quit.", len(r.saved)))
	r.box.Show()
}

// reopen opens the saved tabs; the fresh tab the app started with goes if
// nothing happened in it yet (a draft it brought back goes back to the
// keeper first, for the reopened tab of its session to claim).
func (r *reopenBar) reopen() {
	fresh := r.w.current
	if fresh != nil && (len(fresh.drawn.Items) > 0 || fresh.working() || !fresh.draft.release()) {
		fresh = nil
	}
	var first *Tab
	for _, s := range r.saved {
		t := r.w.openSaved(s, false, nil)
		if first == nil {
			first = t
		}
	}
	r.dismiss()
	if first != nil {
		r.w.show(first)
	}
	if fresh != nil {
		r.w.removeTab(fresh)
	}
}

func (r *reopenBar) dismiss() {
	r.saved = nil
	r.box.Hide()
}

// remember saves the open tabs for the next start, the first time it is
// called.
func (r *reopenBar) remember(tabs []*Tab) {
	if r.remembered {
		return
	}
	r.remembered = true
	var saved []savedTab
	for _, t := range tabs {
		saved = append(saved, t.savedTab())
	}
	data, err := json.Marshal(saved)
	if err != nil {
		return
	}
	f, err := r.w.app.Storage().Save(openTabsFile)
	if err != nil {
		if f, err = r.w.app.Storage().Create(openTabsFile); err != nil {
			fmt.Fprintln(os.Stderr, "knightcode-desktop: cannot keep the open tabs:", err)
			return
		}
	}
	defer f.Close()
	if _, err := f.Write(data); err != nil {
		fmt.Fprintln(os.Stderr, "knightcode-desktop: cannot keep the open tabs:", err)
	}
}

// savedTab is how t is opened again: its flags, with the folder it works
// in, and its session file.
func (t *Tab) savedTab() savedTab {
	f := t.flags
	f.Dirs = nil
	f.AgentArgs = withoutSessionArgs(f.AgentArgs)
	if _, remote := remoteSpec(f); !remote && t.started.dir != "" {
		f.Dir = t.started.dir
	}
	return savedTab{Flags: f, Session: t.session.SessionFile()}
}

// openSaved opens s again as a tab, with kept as its draft (nil: the
// tab claims one kept for its folder and session, if any).
func (w *Window) openSaved(s savedTab, front bool, kept *drafts.Draft) *Tab {
	f := s.Flags
	f.Dirs = nil
	f.AgentArgs = withoutSessionArgs(f.AgentArgs)
	if s.Session != "" {
		f.AgentArgs = append(f.AgentArgs, "--session", s.Session)
	}
	return w.openTabWith(f, front, kept)
}

// load reads the tabs saved at the last quit.
func (r *reopenBar) load() error {
	f, err := r.w.app.Storage().Open(openTabsFile)
	if err != nil {
		return err
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, &r.saved)
}
