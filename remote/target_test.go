package remote

import (
	"strings"
	"testing"
)

func TestParseTarget(t *testing.T) {
	good := []struct {
		in   string
		want Target
	}{
		{"host", Target{Host: "host"}},
		{"me@host", Target{User: "me", Host: "host"}},
		{"me@host:2222", Target{User: "me", Host: "host", Port: 2222}},
		{"build.example.com:22", Target{Host: "build.example.com", Port: 22}},
		{"  me@host  ", Target{User: "me", Host: "host"}},
		{"ssh://me@host:2200/", Target{User: "me", Host: "host", Port: 2200}},
		{"first.last@corp@host", Target{User: "first.last@corp", Host: "host"}},
		{"[::1]:2222", Target{Host: "::1", Port: 2222}},
		{"me@[fe80::1%eth0]", Target{User: "me", Host: "fe80::1%eth0"}},
		{"::1", Target{Host: "::1"}},
		{"10.0.0.7", Target{Host: "10.0.0.7"}},
	}
	for _, c := range good {
		got, err := ParseTarget(c.in)
		if err != nil || got != c.want {
			t.Errorf("ParseTarget(%q) = %+v, %v; want %+v", c.in, got, err, c.want)
			continue
		}
		if again, err := ParseTarget(got.String()); err != nil || again != got {
			t.Errorf("ParseTarget(%q.String() = %q) = %+v, %v", c.in, got.String(), again, err)
		}
	}
	bad := []struct{ in, says string }{
		{"", "no host"},
		{"me@", "no host"},
		{"@host", "nothing before @"},
		{"host:", "port"},
		{"host:0", "port"},
		{"host:65536", "port"},
		{"host:ssh", "port"},
		{"-oProxyCommand=evil", "cannot start with -"},
		{"-l@host", "cannot start with -"},
		{"my host", "space"},
		{"me@ho\nst", "control"},
		{"[::1", "no ]"},
		{"[::1]x", "only :port"},
		{"a/b", "not a host name"},
	}
	for _, c := range bad {
		got, err := ParseTarget(c.in)
		if err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("ParseTarget(%q) = %+v, %v; want an error saying %q", c.in, got, err, c.says)
		}
	}
}

func TestArgv(t *testing.T) {
	h := Host{Target: Target{User: "me", Host: "box", Port: 2222}, ConfigFile: "/tmp/my config"}
	argv := h.Argv("echo 'hi'")
	s := strings.Join(argv, " ")
	for _, want := range []string{"ssh -T ", "-o BatchMode=yes", "-F /tmp/my config", "-p 2222", "-l me", "-- box echo 'hi'"} {
		if !strings.Contains(s, want) {
			t.Errorf("argv %q lacks %q", argv, want)
		}
	}
	if argv[len(argv)-1] != "echo 'hi'" || argv[len(argv)-2] != "box" || argv[len(argv)-3] != "--" {
		t.Errorf("argv %q: want -- host 'command' last, the command one word", argv)
	}
	if argv := (Host{Target: Target{Host: "box"}}).Argv("x"); strings.Contains(strings.Join(argv, " "), " -F ") || strings.Contains(strings.Join(argv, " "), " -p ") {
		t.Errorf("argv %q: -F or -p without a config or port", argv)
	}
}
