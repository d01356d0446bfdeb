// Command benchui measures the app's UI under Xvfb side by side with bare
// Fyne windows, and prints every figure of issue 9's benchmarks beside the
// floor measured in the same run, with its target. It never fails on a
// figure: a missed target is a line in the table, not an exit status.
// scripts/bench-ui.sh builds what it needs, starts the displays and runs it.
//
//	benchui -app BIN -fake BIN -bare BIN -big FILE -small FILE -floor-display :N [-out DIR] [-only PHASES]
//
// Two floors run for the whole benchmark: the bare window (a Label, never
// focused: "floor unfocused") at x=1280 of DISPLAY, beside the app at x=0;
// and the bare window with a multi-line Entry, focused, on a display of
// its own (-floor-display: every X display has one input focus, so the app
// and the floor can both be focused, and measured, at the same time; its
// cursor blinks all along: "floor focused").
//
// CPU figures come from /proc: utime+stime of the process, and of its main
// thread (/proc/PID/task/PID/stat). Fyne's event loop and its GL drawing
// run on the main OS thread, so main-thread CPU time over wall time is how
// busy the UI goroutine was.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"knightcode.ai/desktop/app/wintest"
)

type config struct {
	app, fake, bare string
	big, small      string
	out             string
	display         string
	floorDisplay    string
	rate            float64
	deltas          int
	lines, words    int
	word, mixedLine string
	nkeys           int
	idle            time.Duration
	quiet           time.Duration
	echoWait        time.Duration
	termWait        time.Duration
	agentRuns       int
	maxRSS          int64
	only            string
}

// phase is a part of the benchmark that -only can pick by name.
type phase struct {
	name, title string
	run         func(*bench) error
}

var phases = []phase{
	{"calibrate", "the fake agent's stream rate, without a window", (*bench).calibrate},
	{"empty", "empty session: RSS, focused idle, idle after the last input, keypress → echo", (*bench).emptySession},
	{"stream", "streaming a long reply at the paced rate", (*bench).stream},
	{"lines", "a 500-line reply", (*bench).linesReply},
	{"bigtext", "a 500-line reply at a model's pace (12 s): CPU-seconds over the floor's", (*bench).bigText},
	{"words", "a 50,000-word reply", (*bench).wordsReply},
	{"word", "a reply of one huge word", (*bench).wordReply},
	{"mixedline", "a reply of one huge line of mixed text", (*bench).mixedLineReply},
	{"big", "the 12,000-entry session", (*bench).bigSession},
	{"small", "the 150-entry (0.6 MB) session, focused and unfocused", (*bench).idleSmall},
	{"tabs", "eight tabs: unfocused idle, RSS per tab, Ctrl+Tab to its frame", (*bench).tabs},
	{"diff", "the changes pane on a 20,000-line diff: git answered → painted", (*bench).bigDiff},
}

func phaseNames() []string {
	var names []string
	for _, p := range phases {
		names = append(names, p.name)
	}
	return names
}

func main() {
	if os.Getenv(paceFakeEnv) != "" {
		os.Exit(runPacer(os.Args[1:]))
	}
	var c config
	flag.StringVar(&c.app, "app", "", "the app binary (built with -tags migrated_fynedo)")
	flag.StringVar(&c.fake, "fake", "", "the fake agent binary")
	flag.StringVar(&c.bare, "bare", "", "the barewindow binary")
	flag.StringVar(&c.big, "big", "", "the big session file (gensession -entries 12000)")
	flag.StringVar(&c.small, "small", "", "the small session file (about 0.6 MB)")
	flag.StringVar(&c.out, "out", "", "folder for traces, logs and screenshots (default: a temporary one)")
	flag.StringVar(&c.floorDisplay, "floor-display", "", "a second X display, for the focused floor window")
	flag.Float64Var(&c.rate, "rate", 2400, "message_update events a second to stream")
	flag.IntVar(&c.deltas, "deltas", 50000, "deltas in the streamed reply")
	flag.IntVar(&c.lines, "lines", 500, "lines of the long-lines reply")
	flag.IntVar(&c.words, "words", 50000, "words of the long-words reply")
	flag.StringVar(&c.word, "word", "8MiB", "the size of the one-word reply")
	flag.StringVar(&c.mixedLine, "mixedline", "1MiB", "the size of the mixed-line reply")
	flag.IntVar(&c.nkeys, "keys", 100, "keys to send for keypress-to-echo")
	flag.DurationVar(&c.idle, "idle", 8*time.Second, "how long to measure focused idle CPU (1 s after an input; under 9 s, "+
		"since the cursor stops blinking 10 s after the last input)")
	flag.DurationVar(&c.quiet, "quiet", 10*time.Second, "how long to measure idle CPU 12 s after the last input")
	flag.DurationVar(&c.echoWait, "echo-wait", 20*time.Second, "how long to wait for a key to echo after a huge reply")
	flag.DurationVar(&c.termWait, "term-wait", 10*time.Second, "how long to wait for the app to exit on SIGTERM before killing it")
	flag.IntVar(&c.agentRuns, "agent-runs", 3, "times to time the agent alone answering get_messages (the median counts)")
	maxRSSMB := flag.Int64("max-rss-mb", 6000, "kill the app in the word and mixedline phases past this RSS")
	flag.StringVar(&c.only, "only", "", "run only these phases, comma-separated: "+strings.Join(phaseNames(), ", "))
	flag.Parse()
	c.maxRSS = *maxRSSMB * 1e6
	for name, v := range map[string]string{"-app": c.app, "-fake": c.fake, "-bare": c.bare, "-big": c.big, "-small": c.small} {
		if v == "" {
			fmt.Fprintf(os.Stderr, "benchui: %s is required\n", name)
			os.Exit(2)
		}
	}
	if c.only != "" {
		for _, name := range strings.Split(c.only, ",") {
			if name != "idle" && !slices.Contains(phaseNames(), name) {
				fmt.Fprintf(os.Stderr, "benchui: no phase %q; the phases: %s\n", name, strings.Join(phaseNames(), ", "))
				os.Exit(2)
			}
		}
	}
	c.display = os.Getenv("DISPLAY")
	if c.display == "" {
		fmt.Fprintln(os.Stderr, "benchui: DISPLAY is not set (scripts/bench-ui.sh starts Xvfb)")
		os.Exit(2)
	}
	if c.floorDisplay == "" || c.floorDisplay == c.display {
		fmt.Fprintln(os.Stderr, "benchui: -floor-display must name a second X display (scripts/bench-ui.sh starts one)")
		os.Exit(2)
	}
	if c.out == "" {
		dir, err := os.MkdirTemp("", "bench-ui-")
		check(err)
		c.out = dir
	}
	check(os.MkdirAll(c.out, 0o755))
	b := &bench{config: c}
	defer b.cleanup()
	if err := b.run(); err != nil {
		b.cleanup()
		fmt.Fprintln(os.Stderr, "benchui:", err)
		os.Exit(1)
	}
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchui:", err)
		os.Exit(1)
	}
}

type bench struct {
	config
	x        *wintest.X // the app's display
	fx       *wintest.X // the focused floor's display
	procs    []*wintest.Proc
	rows     []row
	bareWin  *window // floor unfocused: a Label, never focused
	entryWin *window // floor focused: an Entry, focused, on its own display
	floorKey *keyStats
	phase    string // the phase running, for the rows
}

// window is a started program, its X window and its sampler.
type window struct {
	p       *wintest.Proc
	id      string
	x       *wintest.X // its display
	s       *wintest.Sampler
	tr      *wintest.TraceTail
	dir     string
	paceLog string // the pacer's log, when the app runs behind it
}

// selected says whether a phase is to run (-only).
func (b *bench) selected(name string) bool {
	if b.only == "" {
		return true
	}
	picked := strings.Split(b.only, ",")
	return slices.Contains(picked, name) || (name == "small" && slices.Contains(picked, "idle"))
}

// loadavg is the first three fields of /proc/loadavg: other work on the
// machine skews every figure here.
func loadavg() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

func (b *bench) cleanup() {
	for _, p := range b.procs {
		if !p.Exited() {
			p.Signal(os.Interrupt)
			if _, err := p.Wait(10 * time.Second); err != nil {
				p.Kill()
			}
		}
	}
	b.procs = nil
}

func (b *bench) logf(format string, args ...any) {
	fmt.Printf("  "+format+"\n", args...)
}

func (b *bench) run() error {
	x, err := wintest.DialX(b.display)
	if err != nil {
		return err
	}
	b.x = x
	defer x.Close()
	fx, err := wintest.DialX(b.floorDisplay)
	if err != nil {
		return fmt.Errorf("the floor's display: %w", err)
	}
	b.fx = fx
	defer fx.Close()
	fmt.Printf("benchui: display %s (%dx%d), floor display %s, output in %s\n", b.display, x.Width, x.Height, b.floorDisplay, b.out)
	if x.Width < 2480 {
		fmt.Printf("benchui: warning: the screen is %d wide; the app and the bare window will overlap (2480 wanted)\n", x.Width)
	}
	if b.idle+time.Second >= 10*time.Second {
		fmt.Printf("benchui: warning: -idle %v runs into the 10 s cursor-blink timeout: focused idle would be partly unfocused-like\n", b.idle)
	}
	start := time.Now()
	fmt.Printf("benchui: load average at start: %s\n", loadavg())

	fmt.Println("\n== floors")
	if b.bareWin, err = b.startBare("bare", false, b.display, b.x, 1280); err != nil {
		return err
	}
	if b.entryWin, err = b.startBare("bare-entry", true, b.floorDisplay, b.fx, 0); err != nil {
		return err
	}
	if err := b.entryWin.p.Focus(b.entryWin.id); err != nil {
		return err
	}
	time.Sleep(time.Second)
	if shot := filepath.Join(b.entryWin.dir, "screen.png"); wintest.Screenshot(b.floorDisplay, shot) == nil {
		b.logf("screenshot of the focused floor: %s", shot)
	}

	for _, p := range phases {
		if !b.selected(p.name) {
			continue
		}
		fmt.Printf("\n== %s: %s\n", p.name, p.title)
		b.phase = p.name
		t0 := time.Now()
		if err := p.run(b); err != nil {
			return fmt.Errorf("%s: %w", p.name, err)
		}
		b.logf("(%s took %v)", p.name, time.Since(t0).Round(time.Second))
	}
	fmt.Printf("\nbenchui: load average at the end: %s; %v in all\n", loadavg(), time.Since(start).Round(time.Second))
	b.print()
	return nil
}

func (b *bench) start(name, binary, display string, args []string, env ...string) (*window, error) {
	dir := filepath.Join(b.out, name)
	os.RemoveAll(dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	tr := filepath.Join(dir, "trace.txt")
	p, err := wintest.Start(wintest.AppOptions{Binary: binary, Args: args, Dir: dir, Display: display, Trace: tr, Env: env})
	if err != nil {
		return nil, err
	}
	b.procs = append(b.procs, p)
	return &window{p: p, s: wintest.NewSampler(p.Pid, 20*time.Millisecond), tr: wintest.NewTraceTail(tr), dir: dir}, nil
}

func (b *bench) startBare(name string, entry bool, display string, x *wintest.X, at int) (*window, error) {
	title := "Bare window"
	args := []string{"-title", title, "-size", "1200x800"}
	if entry {
		title = "Bare entry"
		args = []string{"-title", title, "-size", "1200x800", "-entry"}
	}
	w, err := b.start(name, b.bare, display, args)
	if err != nil {
		return nil, err
	}
	w.x = x
	if w.id, err = w.p.FindWindow(title, 30*time.Second); err != nil {
		return nil, err
	}
	if _, err := w.p.Xdotool("windowmove", "--sync", w.id, fmt.Sprint(at), "0"); err != nil {
		return nil, err
	}
	b.logf("%s: pid %d, window %s at x=%d of %s", name, w.p.Pid, w.id, at, display)
	return w, nil
}

// startApp starts the app against agent with agent arguments and waits for
// its window.
func (b *bench) startApp(name, agent string, env []string, agentArgs ...string) (*window, error) {
	dir := filepath.Join(b.out, name)
	args := wintest.AppArgs(agent, "", append([]string{"--fake-log=" + filepath.Join(dir, "fake-log.jsonl")}, agentArgs...)...)
	w, err := b.start(name, b.app, b.display, args, env...)
	if err != nil {
		return nil, err
	}
	w.x = b.x
	if w.id, err = w.p.FindWindow("KnightCode", 60*time.Second); err != nil {
		return nil, err
	}
	b.logf("%s: pid %d, window %s", name, w.p.Pid, w.id)
	return w, nil
}

// startPaced starts the app with an empty session behind the pacer, which
// notes when each reply's last text delta went out, and waits until it has
// loaded and gone quiet.
func (b *bench) startPaced(name string) (*window, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	paceLog := filepath.Join(b.out, name, "pace-log.txt")
	w, err := b.startApp(name, self, append(b.paceEnv(), paceLogEnv+"="+paceLog), "--no-session")
	if err != nil {
		return nil, err
	}
	w.paceLog = paceLog
	if _, ok := w.tr.WaitMark("history", time.Time{}, nil, 60*time.Second, 20*time.Millisecond); !ok {
		return nil, fmt.Errorf("%s: no history mark", name)
	}
	settle(w, 20*time.Second)
	return w, nil
}

func (b *bench) stop(w *window) {
	if w.p.Exited() {
		w.s.Stop()
		return
	}
	w.p.Signal(os.Interrupt)
	if code, err := w.p.Wait(15 * time.Second); err != nil || code != 0 {
		b.logf("warning: %s exited %d (%v)", w.dir, code, err)
		w.p.Kill()
	}
	w.s.Stop()
}

// settle waits until the app has done what it was doing, at most max: a
// second with the main thread under 5 % and the process under 10 % of a
// core or, for an app whose idle is busier than that, two seconds in a
// row without a "draw" mark and with the main thread steady (within 3
// points) and under 80 % (a UI thread stuck in one long step has no draw
// marks either).
func settle(w *window, max time.Duration) time.Duration {
	start := time.Now()
	prev := w.s.Now()
	prevMain := -1.0
	for time.Since(start) < max {
		time.Sleep(time.Second)
		cur := w.s.Now()
		u := wintest.Between(prev, cur)
		w.tr.Poll()
		drew := w.tr.Marks.Count("draw", prev.T, cur.T) > 0
		prev = cur
		if u.MainFrac() < 0.05 && u.ProcessFrac() < 0.10 {
			break
		}
		m := u.MainFrac()
		if !drew && m < 0.8 && prevMain >= 0 && m-prevMain < 0.03 && prevMain-m < 0.03 {
			break
		}
		prevMain = m
		if drew || m >= 0.8 {
			prevMain = -1
		}
	}
	return time.Since(start)
}

// measure returns the CPU use of each window over d.
func measure(d time.Duration, ws ...*window) []wintest.Usage {
	a := make([]wintest.Sample, len(ws))
	for i, w := range ws {
		a[i] = w.s.Now()
	}
	time.Sleep(d)
	out := make([]wintest.Usage, len(ws))
	for i, w := range ws {
		out[i] = wintest.Between(a[i], w.s.Now())
	}
	return out
}

// rss is the settled RSS of w and the floors'.
func (b *bench) rss(w *window, max time.Duration) (app, bare, entry wintest.Memory) {
	settle(w, max)
	time.Sleep(time.Second)
	return w.s.Now().Mem, b.bareWin.s.Now().Mem, b.entryWin.s.Now().Mem
}

// screenshot saves the app's display.
func (b *bench) screenshot(w *window) {
	shot := filepath.Join(w.dir, "screen.png")
	if err := wintest.Screenshot(b.display, shot); err == nil {
		b.logf("screenshot: %s", shot)
	} else {
		b.logf("screenshot failed: %v", err)
	}
}
