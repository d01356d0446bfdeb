package remote

import (
	"strings"
	"testing"

	"knightcode.ai/desktop/rpcconn"
)

// OpenSSH's own words, as its client prints them.
func TestClassifySSHStderr(t *testing.T) {
	h := Host{Target: Target{Host: "box", Port: 2222}}
	cases := []struct {
		stderr string
		kind   Kind
		says   string
	}{
		{"No ED25519 host key is known for [box]:2222 and you have requested strict checking.\r\nHost key verification failed.\r\n", HostKeyUnknown, "connect once with ssh in a terminal to accept the host key"},
		{"@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\n@    WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!     @\n@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\nHost key verification failed.\n", HostKeyChanged, "ssh-keygen -R box"},
		{"me@box: Permission denied (password,keyboard-interactive).\n", PasswordOnly, "this window cannot answer password prompts; use a key or ssh-agent"},
		{"me@box: Permission denied (password).\n", PasswordOnly, "cannot answer password prompts"},
		{"me@box: Permission denied (publickey,password).\n", AuthDenied, "ssh-add"},
		{"ssh: connect to host box port 2222: Connection refused\n", Refused, "port 2222"},
		{"ssh: connect to host box port 2222: No route to host\n", Unreachable, "cannot be reached"},
		{"ssh: connect to host box port 2222: Connection timed out\n", Unreachable, "cannot be reached"},
		{"ssh: connect to host box port 2222: Network is unreachable\n", Unreachable, "cannot be reached"},
		{"ssh: Could not resolve hostname box: Name or service not known\n", UnknownHost, "there is no host called box"},
		{"ssh: Could not resolve hostname box: Temporary failure in name resolution\n", UnknownHost, "no host called"},
		{"Connection to box closed by remote host.\n", ConnectionLost, "lost"},
		{"client_loop: send disconnect: Broken pipe\n", ConnectionLost, "lost"},
		{"Timeout, server box not responding.\n", ConnectionLost, "lost"},
		{"/home/me/.ssh/config: line 3: Bad configuration option: hostnme\n/home/me/.ssh/config: terminating, 1 bad configuration options\n", BadConfig, "configuration"},
		{"something new\n", Other, "ssh could not reach box"},
	}
	for _, c := range cases {
		e := h.classify(255, c.stderr, false)
		if e == nil || e.Kind != c.kind || !strings.Contains(e.Message, c.says) {
			t.Errorf("%q: got %+v; want %v saying %q", c.stderr, e, c.kind, c.says)
			continue
		}
		if last := lastLine(strings.TrimSpace(c.stderr)); !strings.Contains(e.Error(), strings.TrimRight(last, "\r")) {
			t.Errorf("%q: Error() %q lacks ssh's last line", c.stderr, e.Error())
		}
	}
}

func TestClassifyRemoteSide(t *testing.T) {
	h := Host{Target: Target{Host: "box"}}
	e := h.classify(1, "knightcode-remote: error folder-missing: there is no folder /src/x\n", false)
	if e == nil || e.Kind != FolderMissing || !strings.Contains(e.Message, "there is no folder /src/x") || strings.Contains(e.Error(), "knightcode-remote:") {
		t.Fatalf("got %+v", e)
	}
	// The agent's own exit, passed on by ssh, is the agent's business.
	if e := h.classify(3, "knightcode-remote: agent /usr/bin/pi\nTypeError: boom\n", true); e != nil {
		t.Fatalf("an agent's crash classified as %+v", e)
	}
	if e := h.ClassifyExit(&rpcconn.Exit{Code: 255, Expected: true, StderrTail: "Connection to box closed by remote host.\n"}); e != nil {
		t.Fatalf("an exit Close asked for classified as %+v", e)
	}
	e = h.ClassifyExit(&rpcconn.Exit{Code: 255, StderrTail: "knightcode-remote: agent /usr/bin/pi\nConnection to box closed by remote host.\n"})
	if e == nil || e.Kind != ConnectionLost || e.predicate() != "lost its connection to box (Connection to box closed by remote host.)" {
		t.Fatalf("got %+v, %q", e, e.predicate())
	}
}
