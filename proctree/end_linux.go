package proctree

import (
	"os"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// BecomeSubreaper makes this process the child subreaper of its descendants:
// an orphan of an agent (a tool whose agent was killed) is re-parented to
// the app rather than to init, so End can reap it.
func BecomeSubreaper() error { return SetSubreaper(true) }

// SetSubreaper turns the child subreaper attribute on or off.
func SetSubreaper(on bool) error {
	v := 0
	if on {
		v = 1
	}
	return unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, uintptr(v), 0, 0, 0)
}

func isSubreaper() bool {
	var v int32
	err := unix.Prctl(unix.PR_GET_CHILD_SUBREAPER, uintptr(unsafe.Pointer(&v)), 0, 0, 0)
	return err == nil && v != 0
}

// pollEvery is how often End looks again whether the processes have gone.
const pollEvery = 10 * time.Millisecond

// killWait bounds the wait for SIGKILLed processes to disappear.
const killWait = 2 * time.Second

// End ends an agent's processes: those carrying tag, those of process group
// pgid (the agent's; 0 for none), and every session and group a tagged
// process leads. It sends them SIGTERM, waits up to grace for them to go,
// then SIGKILLs the rest and waits for them to disappear. Adopted zombies
// (the app being their subreaper) are reaped; no other child is waited for.
// It never signals this process or its own group.
func End(tag string, pgid int, grace time.Duration) {
	s := newSweep(tag, pgid)
	if s.scan() == 0 {
		return
	}
	s.signalAll(syscall.SIGTERM)
	if s.waitGone(grace, syscall.SIGTERM) {
		return
	}
	s.signalAll(syscall.SIGKILL)
	s.waitGone(killWait, syscall.SIGKILL)
}

// sweep is the set End works on. Leaders are group and session ids found
// so far: they are kept when their leader is gone, so what it left in its
// group or session is still found.
type sweep struct {
	tag     string
	self    int
	ownPgid int
	reaper  bool
	leaders map[int]bool
	members []proc
}

func newSweep(tag string, pgid int) *sweep {
	s := &sweep{tag: tag, self: os.Getpid(), ownPgid: syscall.Getpgrp(), reaper: isSubreaper(), leaders: map[int]bool{}}
	if pgid > 1 && pgid != s.ownPgid {
		s.leaders[pgid] = true
	}
	return s
}

// scan finds the live members and reaps adopted zombies; it returns how
// many live members there are.
func (s *sweep) scan() int {
	procs := allProcs()
	if s.tag != "" {
		for _, p := range procs {
			if p.pid != s.self && !p.zombie && tagOf(p.pid) == s.tag {
				s.leaders[p.pid] = true
			}
		}
	}
	s.members = s.members[:0]
	for _, p := range procs {
		if p.pid == s.self || p.pid <= 1 {
			continue
		}
		in := s.leaders[p.pid] || s.leaders[p.pgid] || s.leaders[p.sid]
		if !in || p.pgid == s.ownPgid {
			continue
		}
		if p.zombie {
			s.reap(p)
			continue
		}
		s.members = append(s.members, p)
	}
	return len(s.members)
}

// reap collects a zombie this process adopted as subreaper. Only members'
// pids are waited for, so no other child's exit status is taken.
func (s *sweep) reap(p proc) {
	if s.reaper && p.ppid == s.self {
		var ws syscall.WaitStatus
		_, _ = syscall.Wait4(p.pid, &ws, syscall.WNOHANG, nil)
	}
}

func (s *sweep) signalAll(sig syscall.Signal) {
	for _, p := range s.members {
		// The start time is checked again so a pid reused meanwhile is
		// left alone.
		if now, ok := readProc(p.pid); ok && now.start == p.start {
			_ = syscall.Kill(p.pid, sig)
		}
	}
}

// waitGone polls until no member is left or d passes; a process that
// appears meanwhile (a tool forked late) gets sig too.
func (s *sweep) waitGone(d time.Duration, sig syscall.Signal) bool {
	deadline := time.Now().Add(d)
	seen := map[int]bool{}
	for _, p := range s.members {
		seen[p.pid] = true
	}
	for {
		if s.scan() == 0 {
			return true
		}
		for _, p := range s.members {
			if !seen[p.pid] {
				seen[p.pid] = true
				_ = syscall.Kill(p.pid, sig)
			}
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(pollEvery)
	}
}

// orphanGrace is how long EndOrphans lets a left-over process end on SIGTERM.
const orphanGrace = 2 * time.Second

// EndOrphans ends the processes whose tag names an app that no longer runs
// (that app was killed, or crashed, before it could end its agents). Call it
// once at start; it returns when they are gone.
func EndOrphans() {
	dead := map[string]bool{}
	for _, p := range allProcs() {
		if p.zombie || p.pid == os.Getpid() {
			continue
		}
		tag := tagOf(p.pid)
		if tag == "" || dead[tag] {
			continue
		}
		pid, start, ok := owner(tag)
		if !ok {
			continue
		}
		if app, running := readProc(pid); running && !app.zombie && app.start == start {
			continue
		}
		dead[tag] = true
	}
	for tag := range dead {
		End(tag, 0, orphanGrace)
	}
}
