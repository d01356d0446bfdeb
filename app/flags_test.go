package app

import (
	"io"
	"reflect"
	"testing"
)

func TestParseFlags(t *testing.T) {
	f, err := ParseFlags([]string{"--agent", "/opt/kc", "--cwd", "/src", "--", "--provider", "local", "--model", "x"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	want := Flags{Agent: "/opt/kc", Dir: "/src", AgentArgs: []string{"--provider", "local", "--model", "x"}}
	if !reflect.DeepEqual(f, want) {
		t.Fatalf("got %+v", f)
	}
	if _, err := ParseFlags([]string{"stray"}, io.Discard); err == nil {
		t.Fatal("stray argument accepted")
	}
	if f, err := ParseFlags(nil, io.Discard); err != nil || f.Agent != "" || f.AgentArgs != nil {
		t.Fatalf("%+v %v", f, err)
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
	onPath["knightcode"] = "/usr/bin/knightcode"
	check("", "", "/usr/bin/knightcode", "knightcode on PATH")
	files["/apps/kc/knightcode"] = true
	check("", "", "/apps/kc/knightcode", "bundled with the app")
	check("", "/gone/agent", "/apps/kc/knightcode", "bundled with the app")
	files["/saved/agent"] = true
	check("", "/saved/agent", "/saved/agent", "settings")
	check("/flag/agent", "/saved/agent", "/flag/agent", "--agent")
}
