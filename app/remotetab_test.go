package app

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"knightcode.ai/desktop/internal/testsupport"
	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/remote/sshtest"
)

// TestRemoteTabChooser: "New tab on another machine…" lists the ssh
// config's hosts, browses the host's folders over ssh (into a folder with
// a space in its name) and opens a tab whose agent runs there.
func TestRemoteTabChooser(t *testing.T) {
	srv := sshtest.Start(t, sshtest.Options{})
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	srv.Exec("knightcode", fakeEnv, exe)
	base := t.TempDir()
	target := filepath.Join(base, "second project")
	if err := os.MkdirAll(filepath.Join(target, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	w := openWindowWith(t, Flags{SSH: sshtest.Alias, SSHConfig: srv.ConfigFile, Dir: t.TempDir()})

	var c *remoteTabChooser
	onUI(func() { c = w.chooseRemoteTab() })
	var host string
	var canOpen bool
	onUI(func() { host, canOpen = c.host.Text, !c.open.Disabled() })
	if host != sshtest.Alias || !canOpen {
		t.Fatalf("the chooser starts at host %q (Open tab enabled: %v), want the current tab's", host, canOpen)
	}
	onUI(func() { c.host.SetText("user@") })
	onUI(func() { canOpen = !c.open.Disabled() })
	if canOpen {
		t.Fatal("Open tab is enabled for a host that does not parse")
	}
	onUI(func() { c.host.SetText(sshtest.Alias); c.folder.SetText(base); c.browse() })
	rows := func() (names []string) {
		onUI(func() {
			for _, d := range c.folders.dirs {
				names = append(names, filepath.Base(d))
			}
		})
		return names
	}
	testsupport.Eventually(t, "the host's folder listed", func() bool { return slices.Contains(rows(), "second project") })
	i := slices.Index(rows(), "second project")
	onUI(func() { c.folders.list.OnChoose(i) })
	testsupport.Eventually(t, "into the folder", func() bool {
		var shown string
		onUI(func() { shown = c.folders.shown })
		return shown == target && slices.Contains(rows(), "src")
	})
	onUI(func() { c.folders.dlg.Submit() })
	var folder string
	onUI(func() { folder = c.folder.Text })
	if folder != target {
		t.Fatalf("the folder field says %q after Use this folder, want %q", folder, target)
	}
	onUI(func() { c.dlg.Submit() })
	tabs := w.shell.Tabs()
	if len(tabs) != 2 {
		t.Fatalf("%d tabs after Open tab", len(tabs))
	}
	next := tabs[1]
	testsupport.Eventually(t, "the new tab's agent on the host", func() bool { return next.session.View(nil).Conn == model.ConnReady })
	if spec, ok := next.controller.Remote(); !ok || spec.Dir != target || spec.Host.Name() != sshtest.Alias {
		t.Fatalf("the new tab runs %+v (remote %v)", spec, ok)
	}
	var label string
	onUI(func() { label = next.label() })
	if label != "Untitled session — "+sshtest.Alias+":second project" {
		t.Fatalf("the new tab's label is %q", label)
	}

	// Closing the tab ends its agent on the host; the other tab's stays.
	agents := func() (n int) {
		for _, p := range sshtest.Descendants(srv.PID()) {
			if pr, ok := sshtest.ReadProc(p); ok && pr.State != "Z" && len(pr.Cmdline) > 0 && pr.Cmdline[0] == exe {
				n++
			}
		}
		return n
	}
	if n := agents(); n != 2 {
		t.Fatalf("%d agents on the host with two remote tabs", n)
	}
	onUI(func() { w.shell.closeTab(next) })
	testsupport.Eventually(t, "the closed tab's agent gone from the host", func() bool { return agents() == 1 })
}
