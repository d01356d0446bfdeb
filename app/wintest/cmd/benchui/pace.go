package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"syscall"
	"time"
)

// The fake agent paces its deltas with time.Sleep(--fake-delay), and on
// these machines any sleep from about 50 µs up lasts 1.1-1.6 ms: the fake
// alone streams some 700 message_update/s at --fake-delay=400us, and ~15,000/s
// with no delay. So the stream benchmark runs the fake with no delay behind
// this pacer, which relays its stdout and lets message_update records out at
// an exact average rate (a few at a time, as each wake-up allows: providers
// burst too). Everything else passes at once, in order.
//
// The app runs the pacer as its agent: benchui re-executes itself when
// these variables are set, with the app's agent arguments.
const (
	paceFakeEnv = "KNIGHTCODE_BENCH_PACE_FAKE" // the fake agent to run
	paceRateEnv = "KNIGHTCODE_BENCH_PACE_RATE" // message_update records a second
)

// runPacer runs the fake named by paceFakeEnv with args and relays its
// stdout at the paced rate; it returns the fake's exit status.
func runPacer(args []string) int {
	rate, err := strconv.ParseFloat(os.Getenv(paceRateEnv), 64)
	if err != nil || rate <= 0 {
		fmt.Fprintf(os.Stderr, "benchui pacer: bad %s\n", paceRateEnv)
		return 2
	}
	cmd := exec.Command(os.Getenv(paceFakeEnv), args...)
	cmd.Stdin, cmd.Stderr = os.Stdin, os.Stderr
	cmd.Env = os.Environ()
	out, err := cmd.StdoutPipe()
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchui pacer:", err)
		return 1
	}
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "benchui pacer:", err)
		return 1
	}
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, syscall.SIGTERM, syscall.SIGINT)
	go func() {
		for s := range signals {
			cmd.Process.Signal(s)
		}
	}()

	type line struct {
		b   []byte
		due time.Time
	}
	lines := make(chan line, 1<<16)
	go func() {
		defer close(lines)
		interval := time.Duration(float64(time.Second) / rate)
		var next time.Time
		r := bufio.NewReaderSize(out, 1<<20)
		for {
			b, err := r.ReadBytes('\n')
			if len(b) > 0 {
				now := time.Now()
				due := now
				if bytes.HasPrefix(b, []byte(`{"type":"message_update"`)) {
					// A stream keeps its pace; one that paused starts afresh.
					if next.Before(now.Add(-10 * interval)) {
						next = now
					}
					due = next
					next = next.Add(interval)
				}
				lines <- line{b, due}
			}
			if err != nil {
				return
			}
		}
	}()
	w := bufio.NewWriterSize(os.Stdout, 1<<20)
	for l := range lines {
		if wait := time.Until(l.due); wait > 0 {
			if err := w.Flush(); err != nil {
				break
			}
			time.Sleep(wait)
		}
		w.Write(l.b)
		if len(lines) == 0 {
			if err := w.Flush(); err != nil {
				break
			}
		}
	}
	w.Flush()
	err = cmd.Wait()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	if err != nil {
		return 1
	}
	return 0
}
