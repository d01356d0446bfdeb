package app

import (
	"path/filepath"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"

	"knightcode.ai/desktop/app/drafts"
	"knightcode.ai/desktop/model"
)

// openTab adds a tab started with flags, in front or behind the current.
func (w *Window) openTab(flags Flags, front bool) *Tab {
	return w.openTabWith(flags, front, nil)
}

// openTabWith opens a tab with kept as its draft (nil: the tab claims the
// one kept for its folder and session, if any).
func (w *Window) openTabWith(flags Flags, front bool, kept *drafts.Draft) *Tab {
	t := newTab(w, flags)
	t.draft.pending = kept
	w.tabs = append(w.tabs, t)
	it := container.NewTabItem("", &fyne.Container{})
	w.items[t] = it
	t.dialogs.held, t.modals.held = !front, !front
	t.start()
	w.bar.Append(it)
	if front {
		w.show(t)
	}
	w.refreshLabels()
	return t
}

// NewTab opens a tab in the current tab's folder (and host), with a new
// session: Ctrl+T.
func (w *Window) NewTab() *Tab {
	f := Flags{}
	if c := w.current; c != nil {
		f = c.flags
		f.AgentArgs = withoutSessionArgs(f.AgentArgs)
		if dir := c.started.dir; dir != "" {
			f.Dir = dir
		}
	}
	return w.openTab(f, true)
}

// withoutSessionArgs drops the agent arguments that pick a session, so a
// new tab starts a new one.
func withoutSessionArgs(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case "--session":
			i++
		case "--continue", "-c", "--resume", "-r":
		default:
			out = append(out, args[i])
		}
	}
	return out
}

// working reports whether t's agent is busy with a run or a !command.
func (t *Tab) working() bool { return t.drawn.Running || t.drawn.BashRunning }

// closeTab is Ctrl+W and the tab's close button: it asks first only when
// the tab's agent is working. The last tab closes the window.
func (w *Window) closeTab(t *Tab) {
	if t.worktree != nil {
		if t != w.current {
			w.show(t)
		}
		w.closeWorktree(t, func() { w.removeTab(t) })
		return
	}
	if !t.working() {
		w.removeTab(t)
		return
	}
	if t != w.current {
		w.show(t)
	}
	t.ask("Close this tab?", "Its agent is still working; closing the tab stops it.",
		dialogAction{label: "Cancel", isCancel: true},
		dialogAction{label: "Close tab", isDefault: true, run: func() { w.removeTab(t) }})
}

// removeTab takes t out of the window and shuts its agent down. Its
// draft is kept with it in the recently closed tabs (Ctrl+Shift+T). The
// last tab quits: its draft stays for the next start in its folder.
func (w *Window) removeTab(t *Tab) {
	if len(w.tabs) == 1 {
		w.Quit()
		return
	}
	i := w.indexOf(t)
	if i < 0 {
		return
	}
	hadDraft := t.draft.closing()
	w.closed.add(t, hadDraft)
	w.tabs = slices.Delete(w.tabs, i, i+1)
	it := w.items[t]
	delete(w.items, t)
	t.closed = true
	t.stopUI()
	t.dialogs.CloseAll()
	// Its other dialogs and popups leave the screen with it.
	t.modals.hold()
	t.hideOverlays()
	w.closing.Add(1)
	go func() {
		defer w.closing.Done()
		t.shutdownAgent()
	}()
	if w.current == t {
		w.current = nil
		w.show(w.tabs[min(i, len(w.tabs)-1)])
	}
	w.bar.Remove(it)
	// Removing re-selects by index: the bar must show the tab in front.
	if cur := w.items[w.current]; cur != nil && w.bar.Selected() != cur {
		w.bar.Select(cur)
	}
	w.refreshLabels()
	if hadDraft {
		w.current.toasts.Show("The closed tab's unsent draft is kept: Ctrl+Shift+T reopens the tab with it.", model.NoticeInfo)
	}
}

// step moves to the next (+1) or previous (-1) tab, round the ends.
func (w *Window) step(by int) {
	if n := len(w.tabs); n > 1 {
		w.show(w.tabs[(w.indexOf(w.current)+by+n)%n])
	}
}

// pick shows the n-th tab (from 1), Ctrl+1…9; 9 is the last, as in
// browsers.
func (w *Window) pick(n int) {
	switch {
	case n == 9 && len(w.tabs) > 0:
		w.show(w.tabs[len(w.tabs)-1])
	case n >= 1 && n <= len(w.tabs):
		w.show(w.tabs[n-1])
	}
}

// tabMark is what a tab's label says of its state.
type tabMark int

const (
	markNone tabMark = iota
	markWorking
	markNeedsYou
	markUnread
	markStopped
	markExited
)

func (m tabMark) icon() fyne.Resource {
	switch m {
	case markWorking:
		return theme.NewPrimaryThemedResource(theme.MediaPlayIcon())
	case markNeedsYou:
		return theme.NewWarningThemedResource(theme.QuestionIcon())
	case markUnread:
		return theme.NewSuccessThemedResource(theme.ConfirmIcon())
	case markStopped:
		return theme.MediaStopIcon()
	case markExited:
		return theme.NewErrorThemedResource(theme.ErrorIcon())
	}
	return nil
}

// markOf is t's state as its label shows it.
func (w *Window) markOf(t *Tab) tabMark {
	v := t.drawn
	switch {
	case v.Conn == model.ConnExited || v.Conn == model.ConnFailed:
		return markExited
	case t != w.current && t.dialogs.Waiting():
		return markNeedsYou
	case t.working():
		return markWorking
	case t.unread && t.stopped:
		return markStopped
	case t.unread:
		return markUnread
	}
	return markNone
}

// label is the session's name (else its first prompt's words) and the
// folder's name.
func (t *Tab) label() string {
	name := sessionLabel(t.drawn.SessionName, t.firstPrompt)
	folder := filepath.Base(t.started.dir)
	if t.started.dir == "" || folder == string(filepath.Separator) {
		folder = ""
	}
	if spec, ok := remoteSpec(t.flags); ok {
		folder = spec.Host.Name() + ":" + folder
	}
	if t.worktree != nil {
		// The worktree's folder is named after its branch: the branch says it.
		folder = "⎇ " + t.worktree.Branch
	}
	if folder == "" {
		return name
	}
	return name + " — " + folder
}

// refreshLabels brings every tab's label and mark up to date, and shows
// the bar from two tabs on.
func (w *Window) refreshLabels() {
	changed := false
	for _, t := range w.tabs {
		it := w.items[t]
		mark := w.markOf(t)
		if text := t.label(); it.Text != text || t.mark != mark || it.Icon == nil != (mark == markNone) {
			it.Text, it.Icon, t.mark = text, mark.icon(), mark
			changed = true
		}
	}
	if len(w.tabs) > 1 {
		if !w.bar.Visible() {
			w.bar.Show()
		}
	} else if w.bar.Visible() {
		w.bar.Hide()
	}
	if changed && w.bar.Visible() {
		w.bar.Refresh()
	}
}

// tabDrawn brings the tab's label, and for the tab in front the menu, up
// to date after it drew.
func (w *Window) tabDrawn(t *Tab) {
	if t.drawn.Conn != model.ConnStarting {
		w.trim.startedUp()
	}
	if t == w.current {
		w.refreshMenu()
	}
	if t.mark != w.markOf(t) || w.items[t] != nil && w.items[t].Text != t.label() {
		w.refreshLabels()
	}
}

// tabFinished follows a run that ended: behind the current tab, or while
// the window is elsewhere, it is worth a desktop notification, and behind
// an unread mark.
func (w *Window) tabFinished(t *Tab, stopped bool) {
	if t.closed || t == w.current && w.focused {
		return
	}
	if t != w.current {
		t.unread, t.stopped = true, stopped
	}
	t.draw() // the label names the session by its first prompt once drawn
	what := " finished"
	if stopped {
		what = " stopped"
	}
	w.app.SendNotification(fyne.NewNotification(appTitle, t.label()+what))
	w.refreshLabels()
}

// tabAsks follows a dialog arriving for t: behind the current tab, or
// with the window elsewhere, the user hears of it.
func (w *Window) tabAsks(t *Tab) {
	if t != w.current || !w.focused {
		t.draw()
		w.app.SendNotification(fyne.NewNotification(appTitle, t.label()+" needs you: the agent asks a question"))
	}
	w.refreshLabels()
}
