package app

import (
	"bytes"
	"io"
	"reflect"
	"strings"
	"testing"
)

func TestParseFlags(t *testing.T) {
	f, err := ParseFlags([]string{"--agent", "/opt/kc", "--cwd", "/src", "--", "--provider", "local", "--model", "x"}, io.Discard, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	want := Flags{Agent: "/opt/kc", Dir: "/src", Dirs: []string{"/src"}, AgentArgs: []string{"--provider", "local", "--model", "x"}}
	if !reflect.DeepEqual(f, want) {
		t.Fatalf("got %+v", f)
	}
	// --cwd twice: a tab for each folder, the first one's also in Dir.
	f, err = ParseFlags([]string{"--cwd", "/a", "--cwd", "/b c"}, io.Discard, io.Discard)
	if err != nil || f.Dir != "/a" || !reflect.DeepEqual(f.folders(), []string{"/a", "/b c"}) {
		t.Fatalf("two folders: %+v %v", f, err)
	}
	if got := (Flags{}).folders(); !reflect.DeepEqual(got, []string{""}) {
		t.Fatalf("no --cwd: folders %q, want the default folder's one tab", got)
	}
	if _, err := ParseFlags([]string{"stray"}, io.Discard, io.Discard); err == nil {
		t.Fatal("stray argument accepted")
	}
	if f, err := ParseFlags(nil, io.Discard, io.Discard); err != nil || f.Agent != "" || f.AgentArgs != nil {
		t.Fatalf("%+v %v", f, err)
	}
}

// TestCommandLineHelpAndMistakes: -h and --help print the usage on stdout
// and exit 0; a bad flag or a stray argument prints what is wrong and the
// usage on stderr, once, and exits 2. Nothing else starts.
func TestCommandLineHelpAndMistakes(t *testing.T) {
	for _, args := range [][]string{{"-h"}, {"--help"}, {"-help"}, {"--agent", "x", "--help"}} {
		var out, errOut bytes.Buffer
		_, status, ok := parseCommandLine(args, &out, &errOut)
		if ok || status != 0 {
			t.Fatalf("%q: ok %v status %d, want exit 0", args, ok, status)
		}
		if !strings.HasPrefix(out.String(), usageLine) || !strings.Contains(out.String(), "--cwd DIR") || errOut.Len() != 0 {
			t.Fatalf("%q: stdout %q, stderr %q", args, out.String(), errOut.String())
		}
	}
	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{"--bogus"}, "flag provided but not defined: -bogus"},
		{[]string{"--agent"}, "flag needs an argument: -agent"},
		{[]string{"stray"}, `unexpected argument "stray": put agent arguments after --`},
		{[]string{"--cwd", "/src", "oops", "--", "x"}, `unexpected argument "oops"`},
		{[]string{"--ssh", "box:notaport"}, "--ssh: "},
		{[]string{"--ssh-config", "/tmp/c"}, "--ssh-config needs --ssh"},
	} {
		var out, errOut bytes.Buffer
		_, status, ok := parseCommandLine(c.args, &out, &errOut)
		msg := errOut.String()
		if ok || status != 2 || out.Len() != 0 {
			t.Fatalf("%q: ok %v status %d stdout %q, want exit 2", c.args, ok, status, out.String())
		}
		if !strings.HasPrefix(msg, "knightcode-desktop: "+c.says) || strings.Count(msg, usageLine) != 1 || strings.Count(msg, c.says) != 1 {
			t.Fatalf("%q: stderr %q", c.args, msg)
		}
	}
	if f, status, ok := parseCommandLine([]string{"--cwd", "/src"}, io.Discard, io.Discard); !ok || status != 0 || f.Dir != "/src" {
		t.Fatalf("good flags: %+v %d %v", f, status, ok)
	}
	f, _, ok := parseCommandLine([]string{"--ssh", "me@box:2222", "--ssh-config", "/c", "--cwd", "/srv/app", "--", "--model", "q"}, io.Discard, io.Discard)
	spec, remote := remoteSpec(f)
	if !ok || !remote || spec.Host.Target.User != "me" || spec.Host.Target.Host != "box" || spec.Host.Target.Port != 2222 ||
		spec.Host.ConfigFile != "/c" || spec.Dir != "/srv/app" || strings.Join(spec.Args, " ") != "--model q" {
		t.Fatalf("--ssh flags: %+v → %+v", f, spec)
	}
}

func TestFindAgentOrder(t *testing.T) {
	files := map[string]bool{}
	onPath := map[string]string{}
	l := lookup{
		execFolder: func() (string, error) { return "/apps/kc", nil },
		lookPath: func(name string) (string, error) {
			if p, ok := onPath[name]; ok {
				return p, nil
			}
			return "", io.EOF
		},
		isFile: func(p string) bool { return files[p] },
		dataAgent: func() (string, bool) {
			return "/home/u/.local/share/knightcode-desktop/agent/bin/pi", files["/home/u/.local/share/knightcode-desktop/agent/bin/pi"]
		},
	}
	check := func(flagPath, saved, wantPath, wantSource string) {
		t.Helper()
		got, ok := l.find(flagPath, saved)
		if wantPath == "" {
			if ok {
				t.Fatalf("found %+v, want nothing", got)
			}
			return
		}
		if !ok || got.Path != wantPath || got.Source != wantSource {
			t.Fatalf("got %+v (%v), want %s from %s", got, ok, wantPath, wantSource)
		}
	}
	check("", "", "", "")
	onPath["pi"] = "/usr/bin/pi"
	check("", "", "/usr/bin/pi", "pi on PATH")
	// The app's own install goes before a pi on PATH, whose release
	// the app may not know, and after a knightcode on PATH.
	files["/home/u/.local/share/knightcode-desktop/agent/bin/pi"] = true
	check("", "", "/home/u/.local/share/knightcode-desktop/agent/bin/pi", "installed by the app")
	onPath["knightcode"] = "/usr/bin/knightcode"
	check("", "", "/usr/bin/knightcode", "knightcode on PATH")
	// A bundle's agent folder beside the app.
	files["/apps/kc/agent/bin/pi"] = true
	check("", "", "/apps/kc/agent/bin/pi", "bundled with the app")
	files["/apps/kc/knightcode"] = true
	check("", "", "/apps/kc/knightcode", "bundled with the app")
	check("", "/gone/agent", "/apps/kc/knightcode", "bundled with the app")
	files["/saved/agent"] = true
	check("", "/saved/agent", "/saved/agent", "settings")
	check("/flag/agent", "/saved/agent", "/flag/agent", "--agent")
}
