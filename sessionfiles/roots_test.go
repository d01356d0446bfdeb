package sessionfiles

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestSessionRoots(t *testing.T) {
	home := t.TempDir()
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	check := func(name string, args []string, want ...string) {
		t.Helper()
		if got := sessionRoots(args, home, getenv); !slices.Equal(got, want) {
			t.Errorf("%s: got %q\nwant %q", name, got, want)
		}
	}
	kc := filepath.Join(home, ".knightcode", "agent", "sessions")
	pi := filepath.Join(home, ".pi", "agent", "sessions")

	check("defaults", nil, kc, pi)
	check("--session-dir", []string{"--model", "x", "--session-dir", "/s/one", "-c"}, "/s/one")
	check("--session-dir=", []string{"--session-dir=/s/two"}, "/s/two")
	check("last wins", []string{"--session-dir", "/s/one", "--session-dir=/s/two"}, "/s/two")
	check("without a value", []string{"--session-dir"}, kc, pi)
	check("relative, as given", []string{"--session-dir", "rel"}, "rel")

	env["PI_CODING_AGENT_DIR"] = "~/alt"
	check("agent dir", nil, kc, filepath.Join(home, "alt", "sessions"))
	env["PI_CODING_AGENT_SESSION_DIR"] = "/pi/sessions"
	env["KNIGHTCODE_CODING_AGENT_DIR"] = "/kc/agent"
	check("session dir variable", nil, filepath.Join("/kc/agent", "sessions"), "/pi/sessions")
	check("the argument wins", []string{"--session-dir", "/s/one"}, "/s/one")

	clear(env)
	settings := filepath.Join(home, ".pi", "agent", "settings.json")
	if err := os.MkdirAll(filepath.Dir(settings), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(settings, []byte(`{"quietStartup":true,"sessionDir":"~/from-settings"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	check("settings.json", nil, kc, filepath.Join(home, "from-settings"))
	env["PI_CODING_AGENT_SESSION_DIR"] = "/pi/sessions"
	check("the variable wins over settings", nil, kc, "/pi/sessions")
	env["KNIGHTCODE_CODING_AGENT_SESSION_DIR"] = "/pi/sessions/"
	check("duplicates dropped", nil, "/pi/sessions/")
}

// TestListSessionsRelativeRoot: a relative --session-dir is the agent's,
// taken from its working folder.
func TestListSessionsRelativeRoot(t *testing.T) {
	l := newSessionLayout(t)
	cwd := filepath.Dir(l.flat)
	l.put(t, l.flat, "flat.jsonl", "", []byte(`{"type":"session","version":3,"id":"f","timestamp":"2025-01-01T00:00:00.000Z","cwd":"`+cwd+`"}`+"\n"))
	infos, _, err := List(t.Context(), Roots([]string{"--session-dir", "flat"}, "/nowhere"), cwd, false)
	if err != nil || len(infos) != 1 || infos[0].ID != "f" {
		t.Errorf("ListSessions = %+v, %v", infos, err)
	}
}
