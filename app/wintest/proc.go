package wintest

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// clockTick is USER_HZ, the unit of utime and stime in /proc: 100 on every
// Linux architecture Go supports.
const clockTick = 10 * time.Millisecond

// CPUTimes are a process's CPU times so far, read from /proc.
type CPUTimes struct {
	Process time.Duration // utime+stime of all its threads
	Main    time.Duration // utime+stime of its main thread (tid == pid)
}

// statTimes reads utime+stime from a /proc stat file.
func statTimes(path string) (time.Duration, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	// The command name is in parentheses and may hold anything: the
	// fields that matter come after the last ')'.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, fmt.Errorf("%s: no ')'", path)
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0, fmt.Errorf("%s: short", path)
	}
	// f[0] is field 3 (state): utime is field 14, stime field 15.
	u, err1 := strconv.ParseInt(f[11], 10, 64)
	s, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("%s: bad times", path)
	}
	return time.Duration(u+s) * clockTick, nil
}

// ReadCPU reads the CPU times of pid and of its main thread.
func ReadCPU(pid int) (CPUTimes, error) {
	p, err := statTimes(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return CPUTimes{}, err
	}
	m, err := statTimes(fmt.Sprintf("/proc/%d/task/%d/stat", pid, pid))
	if err != nil {
		return CPUTimes{}, err
	}
	return CPUTimes{Process: p, Main: m}, nil
}

// Memory is what /proc/PID/status says about a process's memory, in bytes.
type Memory struct {
	RSS  int64 // VmRSS
	Peak int64 // VmHWM, the highest RSS so far
}

// ReadMemory reads VmRSS and VmHWM. A process that has exited but not been
// waited for (a zombie) has neither: that is an error, not zero bytes.
func ReadMemory(pid int) (Memory, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return Memory{}, err
	}
	var m Memory
	seen := false
	for _, line := range strings.Split(string(b), "\n") {
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		f := strings.Fields(val)
		if len(f) == 0 {
			continue
		}
		n, _ := strconv.ParseInt(f[0], 10, 64)
		switch key {
		case "VmRSS":
			m.RSS, seen = n*1024, true
		case "VmHWM":
			m.Peak = n * 1024
		}
	}
	if !seen {
		return m, fmt.Errorf("/proc/%d/status: no VmRSS (the process has exited)", pid)
	}
	return m, nil
}

// procState returns the state letter of a process ("R", "S", "Z"…), its
// parent and its command line, or ok false when there is no such process.
func procState(pid int) (state string, ppid int, cmdline string, ok bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return "", 0, "", false
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return "", 0, "", false
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 2 {
		return "", 0, "", false
	}
	ppid, _ = strconv.Atoi(f[1])
	c, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	return f[0], ppid, strings.TrimSpace(strings.ReplaceAll(string(c), "\x00", " ")), true
}

// Children lists the live (not zombie) child processes of pid.
func Children(pid int) []int {
	entries, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range entries {
		n, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if st, ppid, _, ok := procState(n); ok && ppid == pid && st != "Z" {
			out = append(out, n)
		}
	}
	return out
}

// Running reports whether pid is a live process (zombies do not count).
func Running(pid int) bool {
	st, _, _, ok := procState(pid)
	return ok && st != "Z"
}

// CommandLine is the process's command line with spaces between arguments.
func CommandLine(pid int) string {
	_, _, c, _ := procState(pid)
	return c
}

// Sample is one reading of a process.
type Sample struct {
	T   time.Time
	CPU CPUTimes
	Mem Memory
}

// Sampler reads a process's CPU times and memory at a fixed interval, so
// figures can be taken over any stretch afterwards.
type Sampler struct {
	Pid  int
	mu   sync.Mutex
	s    []Sample
	stop chan struct{}
	done chan struct{}
}

// NewSampler starts sampling pid every interval until Stop or its exit.
func NewSampler(pid int, interval time.Duration) *Sampler {
	s := &Sampler{Pid: pid, stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(s.done)
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			if !s.take() {
				return
			}
			select {
			case <-s.stop:
				return
			case <-t.C:
			}
		}
	}()
	return s
}

func (s *Sampler) take() bool {
	now := time.Now()
	c, err := ReadCPU(s.Pid)
	if err != nil {
		return false
	}
	m, err := ReadMemory(s.Pid)
	if err != nil {
		return false
	}
	s.mu.Lock()
	s.s = append(s.s, Sample{T: now, CPU: c, Mem: m})
	s.mu.Unlock()
	return true
}

// Now takes a sample at once and returns it.
func (s *Sampler) Now() Sample {
	s.take()
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.s) == 0 {
		return Sample{T: time.Now()}
	}
	return s.s[len(s.s)-1]
}

// Stop ends sampling.
func (s *Sampler) Stop() {
	select {
	case <-s.stop:
	default:
		close(s.stop)
	}
	<-s.done
}

// At returns the last sample taken at or before t (the first one if none).
func (s *Sampler) At(t time.Time) Sample {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.s) == 0 {
		return Sample{}
	}
	best := s.s[0]
	for _, x := range s.s {
		if x.T.After(t) {
			break
		}
		best = x
	}
	return best
}

// Samples returns a copy of the samples so far.
func (s *Sampler) Samples() []Sample {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Sample(nil), s.s...)
}

// Usage is CPU use over a stretch of wall time.
type Usage struct {
	Wall    time.Duration
	Process time.Duration
	Main    time.Duration
}

// ProcessFrac is the process's CPU time over wall time (1 = one full core).
func (u Usage) ProcessFrac() float64 { return frac(u.Process, u.Wall) }

// MainFrac is the main thread's CPU time over wall time: how busy the UI
// thread was.
func (u Usage) MainFrac() float64 { return frac(u.Main, u.Wall) }

func frac(a, b time.Duration) float64 {
	if b <= 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// Between returns CPU use from sample a to sample b.
func Between(a, b Sample) Usage {
	return Usage{Wall: b.T.Sub(a.T), Process: b.CPU.Process - a.CPU.Process, Main: b.CPU.Main - a.CPU.Main}
}

// ThreadCPU returns the CPU time of pid's threads grouped by kind: "main"
// (the main thread, where Fyne runs its loop and GL calls), "llvmpipe"
// (Mesa's software rasteriser threads) and "other" (the Go runtime's other
// threads: goroutines off the UI, the GC).
func ThreadCPU(pid int) map[string]time.Duration {
	out := map[string]time.Duration{}
	tasks, _ := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	for _, t := range tasks {
		tid, err := strconv.Atoi(t.Name())
		if err != nil {
			continue
		}
		d, err := statTimes(fmt.Sprintf("/proc/%d/task/%d/stat", pid, tid))
		if err != nil {
			continue
		}
		comm, _ := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/comm", pid, tid))
		switch {
		case tid == pid:
			out["main"] += d
		case strings.HasPrefix(string(comm), "llvmpipe"):
			out["llvmpipe"] += d
		default:
			out["other"] += d
		}
	}
	return out
}
