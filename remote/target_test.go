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
		{`CORP\me@host`, Target{User: `CORP\me`, Host: "host"}},
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
		{"me@host\u00a0x", "space"},
		{"me@ho\u2003st", "space"},
		{"me\u2028x@host", "space"},
		{"me@ho\u0085st", "space"},
		{"me@ho\u200bst", "invisible"}, {"me@ho\u202est", "invisible"},
	}
	for _, c := range "'`\";&<>|(){}$\\*?!~#" {
		bad = append(bad, struct{ in, says string }{"me@ho" + string(c) + "st", "the host holds"})
	}
	for _, c := range "'`\";&<>|(){}$" {
		bad = append(bad, struct{ in, says string }{"m" + string(c) + "e@host", "the user holds"})
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
	argv, err := h.Argv("echo 'hi'")
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Join(argv, " ")
	for _, want := range []string{"ssh -T ", "-o BatchMode=yes", "-F /tmp/my config", "-p 2222", "-l me", "-- box echo 'hi'"} {
		if !strings.Contains(s, want) {
			t.Errorf("argv %q lacks %q", argv, want)
		}
	}
	if argv[len(argv)-1] != "echo 'hi'" || argv[len(argv)-2] != "box" || argv[len(argv)-3] != "--" {
		t.Errorf("argv %q: want -- host 'command' last, the command one word", argv)
	}
	if argv, _ := (Host{Target: Target{Host: "box"}}).Argv("x"); strings.Contains(strings.Join(argv, " "), " -F ") || strings.Contains(strings.Join(argv, " "), " -p ") {
		t.Errorf("argv %q: -F or -p without a config or port", argv)
	}
}

// A Host built without ParseTarget is checked before ssh is run.
func TestArgvChecksTheTarget(t *testing.T) {
	for _, target := range []Target{
		{Host: "box;touch /tmp/x"},
		{Host: "-oProxyCommand=evil"},
		{Host: "box", User: "me$(id)"},
		{Host: "box\n"},
		{Host: ""},
	} {
		h := Host{Target: target}
		if argv, err := h.Argv("true"); err == nil || argv != nil || !strings.Contains(err.Error(), "not a usable ssh target") {
			t.Errorf("Argv for %+v = %q, %v", target, argv, err)
		}
		if err := h.run(t.Context(), "true", nil); err == nil || !strings.Contains(err.Error(), "not a usable ssh target") {
			t.Errorf("run for %+v: %v", target, err)
		}
		if argv := (&launcher{spec: Spec{Host: h}}).Command(); argv != nil {
			t.Errorf("the launcher for %+v gave %q", target, argv)
		}
	}
	if _, err := (Host{Target: Target{User: `CORP\me`, Host: "fe80::1%eth0"}}).Argv("true"); err != nil {
		t.Errorf("a backslash in the user and a zone in the host: %v", err)
	}
}
