package rpctest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// Main runs the fake agent on os.Stdin and os.Stdout until stdin closes, then
// exits 0. Diagnostics go to stderr. Flags come from EnvArgs, then os.Args.
func Main() {
	args, err := envArgs(os.Getenv(EnvArgs))
	if err == nil {
		var opts options
		opts, err = parseOptions(append(args, os.Args[1:]...))
		if err == nil {
			os.Exit(serve(opts, os.Stdin, os.Stdout, os.Stderr))
		}
	}
	fmt.Fprintf(os.Stderr, "fake-knightcode: %v\n", err)
	os.Exit(2)
}

// serve is Main without the process: it returns the exit code, except where a
// misbehaviour calls for ending the process mid-stream.
func serve(opts options, stdin io.Reader, stdout, stderr io.Writer) int {
	if opts.IgnoreSIGTERM {
		signal.Ignore(syscall.SIGTERM)
	}
	for i := 1; i <= opts.StderrLines; i++ {
		fmt.Fprintf(stderr, "fake-knightcode: diagnostic line %d of %d\n", i, opts.StderrLines)
	}
	if opts.ExitAtOnce >= 0 {
		fmt.Fprintf(stderr, "fake-knightcode: fatal: could not start (asked to exit with code %d)\n", opts.ExitAtOnce)
		return opts.ExitAtOnce
	}
	if opts.NotProtocol != "" {
		fmt.Fprint(stdout, "Usage: foo [options] <file>...\n\nOptions:\n  -h, --help  show this help\n")
		switch opts.NotProtocol {
		case "exit":
			fmt.Fprintln(stderr, "foo: unknown option '--mode'")
			return 1
		case "wait":
			io.Copy(io.Discard, stdin)
			return 0
		}
	}
	if opts.GarbageFirst {
		fmt.Fprint(stdout, "Debugger listening on ws://127.0.0.1:9229/fake\n{\"partial\": \n{\"note\":\"valid JSON without a type\"}\n\n")
	}
	a, err := newAgent(opts, stdout, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "fake-knightcode: %v\n", err)
		return 1
	}
	if opts.ExitOnUSR1 >= 0 {
		exitOnUSR1(a, opts.ExitOnUSR1)
	}
	// Like the agent's slow start: commands sent meanwhile wait in the pipe.
	time.Sleep(opts.StartupDelay)
	a.readCommands(stdin)
	if opts.IgnoreStdinClose {
		fmt.Fprintln(stderr, "fake-knightcode: stdin closed; staying alive as asked")
		for {
			time.Sleep(time.Hour)
		}
	}
	// Let the record being written finish, and keep any other from starting:
	// the lock is never released because the caller exits.
	a.out.mu.Lock()
	return 0
}

// readCommands handles stdin line by line until it ends. Lines are split on
// LF only with no size limit; each is logged before it is handled so a test
// that sees an effect can also find its cause in the log.
func (a *agent) readCommands(stdin io.Reader) {
	var log io.Writer
	if a.opts.Log != "" {
		f, err := os.OpenFile(a.opts.Log, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			fmt.Fprintf(a.stderr, "fake-knightcode: --fake-log: %v\n", err)
		} else {
			defer f.Close()
			log = f
		}
	}
	r := bufio.NewReaderSize(stdin, 64<<10)
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 && a.stopsReadingAt(line) {
			// Alive and silent, as a hung agent or one stuck in a tool:
			// this line is never handled (nor logged), its stdin fills up
			// and what is written there waits.
			fmt.Fprintf(a.stderr, "fake-knightcode: stopped reading stdin at a %s command, as asked\n", a.opts.StopReadingAt)
			select {}
		}
		if len(line) > 0 {
			if log != nil {
				if line[len(line)-1] != '\n' {
					line = append(line, '\n')
				}
				log.Write(line)
			}
			if trimmed := bytes.TrimSpace(line); len(trimmed) > 0 {
				a.handleLine(trimmed)
			}
		}
		if err != nil {
			return
		}
	}
}

// stopsReadingAt says whether line is the command --fake-stop-reading-at
// names. With --fake-stop-reading-once=FILE only the run that makes FILE
// stops: a restarted fake reads on.
func (a *agent) stopsReadingAt(line []byte) bool {
	if a.opts.StopReadingAt == "" {
		return false
	}
	var cmd struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(bytes.TrimSpace(line), &cmd) != nil || cmd.Type != a.opts.StopReadingAt {
		return false
	}
	if f := a.opts.StopReadingOnce; f != "" {
		if _, err := os.Stat(f); err == nil {
			return false
		}
		os.WriteFile(f, []byte("stopped\n"), 0o644)
	}
	return true
}
