package wintest

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestHelpAndBadFlags runs the app binary as a person types it in a
// terminal: -h and --help print the usage on stdout and exit 0, a bad flag
// or a stray word prints what is wrong and the usage on stderr and exits 2.
// None of them opens a window or starts an agent (there is no display).
func TestHelpAndBadFlags(t *testing.T) {
	app := appBinary(t)
	run := func(args ...string) (stdout, stderr string, code int) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, app, args...)
		// No display and an agent that does not exist: if the app got as
		// far as opening its window it would fail differently, or hang.
		cmd.Env = append(cleanEnv(), "HOME="+t.TempDir(), "PATH=/usr/bin:/bin")
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		err := cmd.Run()
		if ctx.Err() != nil {
			t.Fatalf("%q did not exit within 30 s", args)
		}
		var exit *exec.ExitError
		switch {
		case errors.As(err, &exit):
			code = exit.ExitCode()
		case err != nil:
			t.Fatal(err)
		}
		return out.String(), errOut.String(), code
	}
	for _, args := range [][]string{{"-h"}, {"--help"}} {
		out, errOut, code := run(args...)
		if code != 0 || !strings.HasPrefix(out, "usage: knightcode-desktop [--ssh [USER@]HOST[:PORT] [--ssh-config FILE]] [--agent PATH]") || !strings.Contains(out, "--ssh-config FILE") || strings.Contains(errOut, "usage:") {
			t.Fatalf("%q: exit %d\nstdout:\n%s\nstderr:\n%s", args, code, out, errOut)
		}
	}
	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{"--bogus"}, "flag provided but not defined: -bogus"},
		{[]string{"--agent"}, "flag needs an argument: -agent"},
		{[]string{"notes.txt"}, `unexpected argument "notes.txt"`},
	} {
		out, errOut, code := run(c.args...)
		if code != 2 || out != "" || strings.Count(errOut, c.says) != 1 || strings.Count(errOut, "usage: knightcode-desktop") != 1 {
			t.Fatalf("%q: exit %d\nstdout:\n%s\nstderr:\n%s", c.args, code, out, errOut)
		}
	}
}

// cleanEnv is the test's environment without the display and Fyne's
// variables.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if name == "DISPLAY" || name == "WAYLAND_DISPLAY" || name == "HOME" || name == "PATH" || strings.HasPrefix(name, "FYNE_") {
			continue
		}
		env = append(env, kv)
	}
	return env
}
