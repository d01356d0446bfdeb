package wintest

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestOfflineChatOpensNoNetworkSocket runs a whole chat with the fake agent
// while strace records every socket the app (and anything it starts) opens,
// inside a network namespace without interfaces when we may create one. The
// app needs the X server's unix socket and the agent's pipes, nothing else:
// no fonts, icons or update checks fetched.
func TestOfflineChatOpensNoNetworkSocket(t *testing.T) {
	requireWindow(t)
	strace, err := exec.LookPath("strace")
	if err != nil {
		if e2e() {
			t.Fatal("strace is needed (scripts/setup-system.sh installs it)")
		}
		t.Skip("strace not installed")
	}
	app := appBinary(t)
	dir := t.TempDir()
	straceLog := filepath.Join(dir, "sockets.txt")
	var prefix []string
	if os.Geteuid() == 0 {
		if unshare, err := exec.LookPath("unshare"); err == nil {
			// A fresh network namespace has only a loopback that is down:
			// any attempt to reach a network fails there.
			prefix = []string{unshare, "--net", "--"}
		}
	}
	// strace -D traces from a detached grandchild, so the app keeps the
	// wrapper's pid and the harness finds its window by pid as usual.
	wrapper := filepath.Join(dir, "offline-app")
	script := "#!/bin/sh\nexec " + strings.Join(append(prefix, strace, "-D", "-f", "-qq", "-e", "trace=socket,connect", "-o", straceLog, app), " ") + " \"$@\"\n"
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	s := startApp(t, wrapper)
	s.send("offline [[markdown]] [[tool:bash:seq 5]]")
	s.waitRunEnd(60 * time.Second)
	s.screen("offline-chat")
	s.p.Kill()
	s.p.Wait(10 * time.Second)

	data, err := os.ReadFile(straceLog)
	if err != nil {
		t.Fatal(err)
	}
	calls := strings.Split(strings.TrimSpace(string(data)), "\n")
	family := regexp.MustCompile(`(socket|connect)\([^,]*?(AF_[A-Z0-9]+)`)
	var unix, other int
	for _, c := range calls {
		m := family.FindStringSubmatch(c)
		if m == nil {
			continue
		}
		switch m[2] {
		case "AF_UNIX", "AF_LOCAL", "AF_NETLINK":
			unix++
		default:
			other++
			t.Errorf("network socket: %s", c)
		}
	}
	if unix == 0 {
		t.Fatalf("strace saw no socket at all (not even X11's); its log:\n%s", data)
	}
	t.Logf("%d local socket calls, %d network ones (namespace isolation: %v)", unix, other, len(prefix) > 0)
}
