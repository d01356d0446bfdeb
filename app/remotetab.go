package app

import (
	"context"
	"path"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"knightcode.ai/desktop/remote"
	"knightcode.ai/desktop/widgets/kit"
	"knightcode.ai/desktop/widgets/palette"
)

// listTimeout bounds one remote folder listing: ssh's own connect timeout
// plus a slow host.
const listTimeout = 30 * time.Second

// remoteTabChooser is "New tab on another machine…": a host from the ssh
// config or typed as [user@]host[:port], then a folder there (browsed over
// ssh); the new tab's agent runs on that host.
type remoteTabChooser struct {
	tab    *Tab
	config string // the ssh config, as the current tab uses it
	dlg    *keyDialog
	host   *kit.DialogEntry
	folder *kit.DialogEntry
	note   *widget.Label
	open   *kit.DialogButton
	// folders is the folder browser last opened.
	folders *remoteFolders
}

// actionRemoteTab opens the chooser.
func (t *Tab) actionRemoteTab() { t.chooseRemoteTab() }

func (t *Tab) chooseRemoteTab() *remoteTabChooser {
	c := &remoteTabChooser{tab: t, config: t.flags.SSHConfig}
	hosts, err := remote.Hosts(c.config)
	k := newKeyDialog(t.win, t.modals)
	c.dlg = k
	c.host = kit.NewDialogEntry(k.Keys())
	c.host.SetPlaceHolder("[user@]host[:port]")
	c.folder = kit.NewDialogEntry(k.Keys())
	c.folder.SetPlaceHolder("your home folder there")
	if t.flags.SSH != "" {
		c.host.SetText(t.flags.SSH)
	}
	c.note = widget.NewLabel("")
	c.note.Wrapping = fyne.TextWrapWord
	c.note.Importance = widget.LowImportance

	configName := "~/.ssh/config"
	if c.config != "" {
		configName = c.config
	}
	var hostList fyne.CanvasObject
	switch {
	case err != nil:
		hostList = widget.NewLabel("Cannot read " + configName + ": " + err.Error())
	case len(hosts) == 0:
		hostList = widget.NewLabel("No hosts in " + configName + ": type one above.")
	default:
		list := palette.NewOptionList(hosts, k.Keys())
		list.OnSelect = func(i int) { c.host.SetText(hosts[i]) }
		list.OnChoose = func(i int) {
			c.host.SetText(hosts[i])
			t.win.Canvas().Focus(c.folder)
		}
		rows := min(len(hosts), 5)
		hostList = container.NewGridWrap(fyne.NewSize(440, float32(rows)*38), list)
	}
	browse := widget.NewButtonWithIcon("Browse…", theme.FolderOpenIcon(), c.browse)
	fromConfig := widget.NewLabel("Hosts in " + configName)
	fromConfig.Importance = widget.LowImportance
	content := container.NewVBox(
		widget.NewForm(widget.NewFormItem("Host", c.host)),
		fromConfig, hostList,
		widget.NewForm(widget.NewFormItem("Folder", container.NewBorder(nil, nil, nil, browse, c.folder))),
		c.note)
	k.focus = c.host
	k.build("New tab on another machine", content,
		dialogAction{label: "Cancel", isCancel: true},
		dialogAction{label: "Open tab", icon: theme.ConfirmIcon(), isDefault: true, run: c.openTab})
	c.open = k.button("Open tab")
	c.host.OnChanged = func(string) { c.check() }
	c.check()
	k.Resize(fyne.NewSize(520, 0).Max(k.dlg.MinSize()))
	k.Show()
	return c
}

// target is the typed host, checked.
func (c *remoteTabChooser) target() (remote.Target, error) {
	return remote.ParseTarget(strings.TrimSpace(c.host.Text))
}

// check lets Open tab go only with a host that parses, and says why not.
func (c *remoteTabChooser) check() {
	_, err := c.target()
	switch {
	case strings.TrimSpace(c.host.Text) == "":
		c.open.Disable()
		c.note.SetText("The agent runs there over ssh with your keys and config; nothing is installed on the host.")
	case err != nil:
		c.open.Disable()
		c.note.SetText(err.Error())
	default:
		c.open.Enable()
		c.note.SetText("The agent runs there over ssh with your keys and config; nothing is installed on the host.")
	}
}

func (c *remoteTabChooser) remoteHost() remote.Host {
	t, _ := c.target()
	return remote.Host{Target: t, ConfigFile: c.config}
}

// openTab opens the tab; an agent the current tab runs on the same host
// is used again, with its arguments.
func (c *remoteTabChooser) openTab() {
	w := c.tab
	target := strings.TrimSpace(c.host.Text)
	f := Flags{SSH: target, SSHConfig: c.config, Dir: strings.TrimSpace(c.folder.Text)}
	if w.flags.SSH == target {
		f.Agent, f.AgentArgs = w.flags.Agent, withoutSessionArgs(w.flags.AgentArgs)
	}
	w.shell.openTab(f, true)
}

// remoteFolders browses a host's folders in a dialog over the chooser:
// Enter or a double click goes in, ".." up, "Use this folder" takes the
// one shown.
type remoteFolders struct {
	tab   *Tab
	host  remote.Host
	dlg   *keyDialog
	where *widget.Label
	list  *palette.OptionList
	use   *kit.DialogButton
	// shown is the folder listed, dirs what its rows lead to.
	shown string
	dirs  []string
}

// browse starts at the typed folder, else the home folder there.
func (c *remoteTabChooser) browse() {
	if _, err := c.target(); err != nil {
		c.note.SetText("Type a host first: " + err.Error())
		return
	}
	w := c.tab
	b := &remoteFolders{tab: w, host: c.remoteHost()}
	c.folders = b
	k := newKeyDialog(w.win, w.modals)
	b.dlg = k
	b.where = widget.NewLabel("")
	b.where.Wrapping = fyne.TextWrapWord
	b.list = palette.NewOptionList(nil, k.Keys())
	b.list.OnChoose = func(i int) {
		if i >= 0 && i < len(b.dirs) {
			b.load(b.dirs[i])
		}
	}
	k.focus = b.list.Focusable()
	hint := widget.NewLabel("↑ ↓ pick · Enter goes in · Esc cancels")
	hint.Importance = widget.LowImportance
	k.build("A folder on "+b.host.Name(), container.NewBorder(b.where, hint, nil, nil,
		container.NewGridWrap(fyne.NewSize(440, 8*38), b.list)),
		dialogAction{label: "Cancel", isCancel: true},
		dialogAction{label: "Use this folder", icon: theme.ConfirmIcon(), isDefault: true, run: func() {
			if b.shown != "" {
				c.folder.SetText(b.shown)
			}
		}})
	// Nothing to use until a folder is listed.
	b.use = k.button("Use this folder")
	b.use.Disable()
	k.Resize(fyne.NewSize(480, 0).Max(k.dlg.MinSize()))
	k.Show()
	b.load(strings.TrimSpace(c.folder.Text))
}

// load lists dir over ssh, off the UI goroutine.
func (b *remoteFolders) load(dir string) {
	w := b.tab
	b.where.SetText("Listing " + orHome(dir) + " on " + b.host.Name() + "…")
	w.bg.Go(func(ctx context.Context) {
		ctx, cancel := context.WithTimeout(ctx, listTimeout)
		defer cancel()
		abs, files, err := b.host.ReadDir(ctx, dir)
		w.do(func() {
			if err != nil {
				b.where.SetText(b.host.Classify(err).Error())
				return
			}
			b.show(abs, files)
		})
	})
}

// show lists abs: its parent, then its folders (hidden ones left out).
func (b *remoteFolders) show(abs string, files []remote.File) {
	b.shown = abs
	b.dirs = b.dirs[:0]
	var names []string
	if abs != "/" {
		b.dirs, names = append(b.dirs, path.Dir(abs)), append(names, "..")
	}
	for _, f := range files {
		if f.Dir && !strings.HasPrefix(f.Name(), ".") {
			b.dirs, names = append(b.dirs, f.Path), append(names, f.Name()+"/")
		}
	}
	b.where.SetText(b.host.Name() + ":" + abs)
	b.list.SetOptions(names)
	b.use.Enable()
}

func orHome(dir string) string {
	if dir == "" {
		return "your home folder"
	}
	return dir
}
