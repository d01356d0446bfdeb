package app

import (
	"sync"
	"sync/atomic"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"

	"knightcode.ai/desktop/app/drafts"
	"knightcode.ai/desktop/app/setup"
	"knightcode.ai/desktop/internal/trace"
	"knightcode.ai/desktop/model"
)

// appTitle keeps the window recognisable whatever else the title says.
const appTitle = "KnightCode"

// Window is the main window: a row of tabs, each a session with its own
// agent, and the menu, keys and drops that act on the tab in front. It
// holds no session state of its own.
type Window struct {
	app fyne.App
	win fyne.Window

	tabs    []*Tab
	current *Tab
	// trim gives the start-up's garbage back once the first tab is up.
	trim *startTrim
	// bar is the row of tab labels, shown from two tabs on; only the
	// current tab's view is in the canvas (area).
	bar   *container.DocTabs
	items map[*Tab]*container.TabItem
	area  *fyne.Container
	// reopen offers the tabs open when the app last quit.
	reopen *reopenBar
	// actions are the menu's shortcuts by name, for the prompt editors,
	// which have the focus most of the time.
	actions map[string]func()
	// menu is the main menu; stopItem and abortRetryItem are enabled
	// while the tab in front has something to stop or a retry to abort
	// (refreshMenu).
	menu                     *fyne.MainMenu
	stopItem, abortRetryItem *fyne.MenuItem

	// focused tracks whether the window is in front, for desktop
	// notifications.
	focused   bool
	quitOnce  sync.Once
	loopEnded atomic.Bool
	// exitOnHang is set by Run, the app's own process: there a quit that
	// hangs anywhere ends the process after quitBound (exitUnlessGone).
	// Tests quitting windows in theirs leave it unset.
	exitOnHang bool
	// loopReturned is closed by Run once ShowAndRun returned (nil
	// outside Run); shutdownOnce runs the shutdown after the loop once.
	loopReturned chan struct{}
	shutdownOnce sync.Once
	// closing counts the agents of closed tabs still shutting down: the
	// app does not exit before they are gone.
	closing sync.WaitGroup
	// quitting is the goroutine Quit starts to stop the agents and end
	// the loop: shutdown waits for it too.
	quitting sync.WaitGroup
	// installer is the app's one install of the agent, shown by every
	// tab that has none.
	installer *setup.Installer
	// trust holds the answers about folders' own agent files.
	trust *trustStore
	// drafts keeps the tabs' unsent drafts (nil when it cannot: said in
	// the first tab); closed are the tabs to reopen.
	drafts *drafts.Keeper
	closed closedTabs
	// draftsFrozen is set once the drafts were kept for the next start:
	// the app is ending, and what changes now is not the user's doing.
	draftsFrozen atomic.Bool
}

// NewWindow builds the main window with a tab for each folder of flags
// (one, the default, for none).
func NewWindow(a fyne.App, flags Flags) *Window {
	w := &Window{app: a, items: map[*Tab]*container.TabItem{}, focused: true, trim: newStartTrim()}
	w.win = a.NewWindow(appTitle)
	w.installer = setup.NewInstaller(w.do)
	w.trust = &trustStore{prefs: a.Preferences()}
	w.closed.w = w
	drafts, draftsErr := openDrafts(draftsDir(a))
	w.drafts = drafts
	w.installer.Watch(func(s setup.InstallState) {
		if s.Result != nil {
			for _, t := range w.tabs {
				t.agentSetup.installed()
			}
		}
	})
	w.bar = container.NewDocTabs()
	w.bar.CreateTab = func() *container.TabItem {
		w.NewTab()
		return nil // the tab is already in the bar
	}
	w.bar.OnSelected = func(it *container.TabItem) {
		if t := w.tabOf(it); t != nil && t != w.current {
			w.show(t)
		}
	}
	w.bar.CloseIntercept = func(it *container.TabItem) {
		if t := w.tabOf(it); t != nil {
			w.closeTab(t)
		}
	}
	w.bar.Hide()
	w.area = container.NewStack()
	w.reopen = newReopenBar(w)
	w.win.SetContent(container.New(atLeast{minWindowSize},
		container.NewBorder(container.NewVBox(w.bar, w.reopen.box), nil, nil, nil, w.area)))
	w.bindKeys()
	w.win.Resize(fyne.NewSize(1200, 800))
	w.win.SetCloseIntercept(w.requestQuit)
	w.win.SetOnDropped(func(pos fyne.Position, uris []fyne.URI) { w.current.composer.onDropped(pos, uris) })
	a.Lifecycle().SetOnEnteredForeground(func() {
		w.focused = true
		// Files may have changed in another program meanwhile.
		if t := w.current; t != nil && t.right != nil {
			t.right.changedFiles()
		}
	})
	a.Lifecycle().SetOnExitedForeground(func() { w.focused = false })
	for i, dir := range flags.folders() {
		f := flags
		f.Dir = dir
		if i > 0 {
			f.AgentArgs = withoutSessionArgs(f.AgentArgs)
		}
		w.openTab(f, i == 0)
	}
	w.reopen.offer(flags)
	if draftsErr != nil {
		w.current.session.Notice(model.NoticeWarning, draftsErr.Error()+"; what you type is not kept if the app ends.")
	}
	return w
}

// ShowAndRun shows the window and runs the app until it quits. The window
// is made titled "KnightCode": GLFW names the X11 window class after the
// title a window is made with, and that is the desktop entry's
// StartupWMClass. The tab's title follows at once.
func (w *Window) ShowAndRun() {
	title := w.win.Title()
	w.win.SetTitle(appTitle)
	w.win.Show()
	w.win.SetTitle(title)
	w.app.Run()
}

// Window is the Fyne window.
func (w *Window) Window() fyne.Window { return w.win }

// Current is the tab in front.
func (w *Window) Current() *Tab { return w.current }

// Tabs are the open tabs, in their order in the bar.
func (w *Window) Tabs() []*Tab { return w.tabs }

func (w *Window) isCurrent(t *Tab) bool { return w.current == t }

// bindKeys routes the window's keys to the tab in front: the menu's
// shortcuts, Ctrl+C and Ctrl+Home/End for the transcript, and the keys
// that reach the canvas with nothing focused.
func (w *Window) bindKeys() {
	c := w.win.Canvas()
	c.SetOnTypedKey(func(ev *fyne.KeyEvent) { w.current.typedKey(ev) })
	c.AddShortcut(&fyne.ShortcutCopy{}, func(fyne.Shortcut) { w.current.copySelection() })
	for _, key := range []fyne.KeyName{fyne.KeyHome, fyne.KeyEnd} {
		c.AddShortcut(&desktop.CustomShortcut{KeyName: key, Modifier: fyne.KeyModifierShortcutDefault},
			func(s fyne.Shortcut) {
				w.current.chat.ScrollKey(s.(*desktop.CustomShortcut).KeyName, fyne.KeyModifierShortcutDefault)
			})
	}
	w.menu = w.buildMenu()
	w.win.SetMainMenu(w.menu)
	w.bindShortcuts(w.menu)
	w.refreshMenu()
}

// runShortcut runs a menu shortcut the focused prompt editor did not use.
func (w *Window) runShortcut(s fyne.Shortcut) bool {
	if action := w.actions[s.ShortcutName()]; action != nil {
		action()
		return true
	}
	return false
}

// onTab makes a menu action of a tab's method: it acts on the tab in
// front when it runs.
func (w *Window) onTab(f func(*Tab)) func() {
	return func() {
		if w.current != nil {
			f(w.current)
		}
	}
}

// show brings t to the front: its view replaces the other's in the canvas,
// its title and keyboard focus follow, and its waiting dialogs open.
func (w *Window) show(t *Tab) {
	if old := w.current; old != nil && old != t {
		old.dialogs.Hold()
		old.modals.hold()
		old.hideOverlays()
	}
	w.current = t
	t.unread = false
	w.refreshMenu()
	w.area.Objects = []fyne.CanvasObject{t.view}
	w.area.Refresh()
	if it := w.items[t]; it != nil && w.bar.Selected() != it {
		w.bar.Select(it)
	}
	title := t.title
	if title == "" {
		// Not drawn yet: the folder is known already.
		title = windowTitle("", "", "", t.where(false))
	}
	w.win.SetTitle(title)
	t.composer.focusEditor()
	t.modals.release()
	t.dialogs.Release()
	w.refreshLabels()
	t.Invalidate()
	if trace.Enabled() {
		trace.Mark("tab", w.indexOf(t))
		// The benchmark times the switch to the frame that shows it: the
		// probe marks "painted" at the next paint.
		t.probe.Wait(0, func() {}, t.drawn.Rev)
	}
}

func (w *Window) indexOf(t *Tab) int {
	for i, o := range w.tabs {
		if o == t {
			return i
		}
	}
	return -1
}

func (w *Window) tabOf(it *container.TabItem) *Tab {
	for t, i := range w.items {
		if i == it {
			return t
		}
	}
	return nil
}
