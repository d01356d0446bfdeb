// Package sshtest owns a real OpenSSH server for tests of package remote:
// Debian's /usr/sbin/sshd started on 127.0.0.1 at a free port as the
// current user (root or not), with a host key, a user key, an
// authorized_keys, a known_hosts and a client config (for ssh -F) generated
// into the test's temporary folder. Nothing reads or writes the machine's
// own ~/.ssh: the client config names every file, and sshd's
// AuthorizedKeysFile is in the folder.
//
// The remote sessions get a HOME of their own in the folder (sshd's SetEnv),
// whose .profile puts HOME/bin first on a login shell's PATH (and only
// /usr/bin and /bin after it): tests put the "remote" agents there.
//
// Without sshd, ssh or ssh-keygen the test is skipped, saying how to
// install them, unless KNIGHTCODE_E2E=1, when it fails. The server and
// every process under it are ended when the test ends. Linux only (it reads
// /proc).
//
// It imports the standard library and package remote.
package sshtest

import (
	"bufio"
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"knightcode.ai/desktop/remote"
)

// Alias is the Host entry of the client config that names the server.
const Alias = "sshtest"

// Options change the server or the client's view of it.
type Options struct {
	// PasswordOnly makes the server refuse keys and offer only passwords.
	PasswordOnly bool
	// UnknownHostKey leaves the client's known_hosts empty.
	UnknownHostKey bool
	// Env are more KEY=VALUE variables for the remote sessions.
	Env []string
	// Profile is more shell text for HOME/.profile, run after PATH is set.
	Profile string
}

// Server is a running sshd.
type Server struct {
	t testing.TB
	// Dir holds everything: keys, configs, the log and Home.
	Dir string
	// Home is HOME of the remote sessions; Bin is Home/bin, first on a
	// login shell's PATH there.
	Home, Bin string
	Port      int
	User      string
	// ConfigFile is the client config (ssh -F); KnownHosts its
	// known_hosts; IdentityFile the user's private key.
	ConfigFile, KnownHosts, IdentityFile string

	cmd     *exec.Cmd
	logPath string
	done    chan struct{}
}

// Programs are the OpenSSH programs the fixture needs.
var Programs = struct{ SSHD, SSH, Keygen string }{"/usr/sbin/sshd", "ssh", "ssh-keygen"}

// E2E reports whether KNIGHTCODE_E2E=1 asks for failures instead of skips.
func E2E() bool { return os.Getenv("KNIGHTCODE_E2E") == "1" }

// Skip skips t (or fails it under KNIGHTCODE_E2E=1) with the reason.
func Skip(t testing.TB, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if E2E() {
		t.Fatalf("%s (KNIGHTCODE_E2E=1: not skipping)", msg)
		return
	}
	t.Skip(msg)
}

// Available says why the fixture cannot run here, or "".
func Available() string {
	if runtime.GOOS != "linux" {
		return "sshtest runs sshd on Linux only"
	}
	if _, err := os.Stat(Programs.SSHD); err != nil {
		return fmt.Sprintf("no %s: install openssh-server (apt-get install -y openssh-server openssh-client)", Programs.SSHD)
	}
	for _, p := range []string{Programs.SSH, Programs.Keygen} {
		if _, err := exec.LookPath(p); err != nil {
			return fmt.Sprintf("no %s on PATH: install openssh-client (apt-get install -y openssh-client)", p)
		}
	}
	return ""
}

// Start runs sshd for the test and stops it, and everything under it, when
// the test ends.
func Start(t testing.TB, opts Options) *Server {
	t.Helper()
	if why := Available(); why != "" {
		Skip(t, "%s", why)
		return nil
	}
	u, err := user.Current()
	if err != nil {
		t.Fatalf("sshtest: %v", err)
	}
	s := &Server{t: t, Dir: t.TempDir(), User: u.Username}
	s.Home = filepath.Join(s.Dir, "home")
	s.Bin = filepath.Join(s.Home, "bin")
	s.ConfigFile = filepath.Join(s.Dir, "ssh_config")
	s.KnownHosts = filepath.Join(s.Dir, "known_hosts")
	s.IdentityFile = filepath.Join(s.Dir, "id_ed25519")
	s.logPath = filepath.Join(s.Dir, "sshd.log")
	if err := os.MkdirAll(s.Bin, 0o755); err != nil {
		t.Fatal(err)
	}
	profile := "PATH=\"$HOME/bin:/usr/bin:/bin\"; export PATH\n" + opts.Profile + "\n"
	s.must(os.WriteFile(filepath.Join(s.Home, ".profile"), []byte(profile), 0o644))
	hostKey := filepath.Join(s.Dir, "host_ed25519")
	s.keygen(hostKey, "sshtest-host")
	s.keygen(s.IdentityFile, "sshtest-user")
	pub, err := os.ReadFile(s.IdentityFile + ".pub")
	s.must(err)
	s.must(os.WriteFile(filepath.Join(s.Dir, "authorized_keys"), pub, 0o600))
	if os.Geteuid() == 0 {
		// sshd running as root confines its unprivileged half to this
		// (empty) folder; Debian's package normally creates it.
		s.must(os.MkdirAll("/run/sshd", 0o755))
	}

	var lastLog string
	for attempt := 0; attempt < 5; attempt++ {
		s.Port = freePort(t)
		s.writeServerConfig(hostKey, opts)
		if s.start() {
			break
		}
		lastLog = s.Log()
		s.cmd = nil
	}
	if s.cmd == nil {
		t.Fatalf("sshtest: sshd did not start; its log:\n%s", lastLog)
	}
	t.Cleanup(s.Stop)

	hostPub, err := os.ReadFile(hostKey + ".pub")
	s.must(err)
	known := ""
	if !opts.UnknownHostKey {
		f := strings.Fields(string(hostPub))
		// The alias line serves connections through a proxy (Delayed),
		// which use HostKeyAlias.
		known = fmt.Sprintf("[127.0.0.1]:%d %s %s\n%s %s %s\n", s.Port, f[0], f[1], Alias, f[0], f[1])
	}
	s.must(os.WriteFile(s.KnownHosts, []byte(known), 0o600))
	s.writeClientConfig()
	return s
}

func (s *Server) must(err error) {
	s.t.Helper()
	if err != nil {
		s.t.Fatalf("sshtest: %v", err)
	}
}

func (s *Server) keygen(path, comment string) {
	s.t.Helper()
	out, err := exec.Command(Programs.Keygen, "-q", "-t", "ed25519", "-N", "", "-C", comment, "-f", path).CombinedOutput()
	if err != nil {
		s.t.Fatalf("sshtest: ssh-keygen: %v\n%s", err, out)
	}
}

func freePort(t testing.TB) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("sshtest: %v", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func (s *Server) writeServerConfig(hostKey string, opts Options) {
	auth := "PubkeyAuthentication yes\nPasswordAuthentication no\nKbdInteractiveAuthentication no\n"
	if opts.PasswordOnly {
		auth = "PubkeyAuthentication no\nPasswordAuthentication yes\nKbdInteractiveAuthentication yes\n"
	}
	env := append([]string{"HOME=" + s.Home}, opts.Env...)
	for i, e := range env {
		env[i] = strconv.Quote(e)
	}
	cfg := fmt.Sprintf(`Port %d
ListenAddress 127.0.0.1
HostKey %s
PidFile none
AuthorizedKeysFile %s
StrictModes no
UsePAM no
PermitRootLogin prohibit-password
AllowUsers %s
%sPermitUserEnvironment no
SetEnv %s
AcceptEnv none
AllowTcpForwarding no
AllowAgentForwarding no
X11Forwarding no
PrintMotd no
PrintLastLog no
MaxStartups 64
MaxSessions 64
LoginGraceTime 30
LogLevel VERBOSE
`, s.Port, hostKey, filepath.Join(s.Dir, "authorized_keys"), s.User, auth, strings.Join(env, " "))
	s.must(os.WriteFile(filepath.Join(s.Dir, "sshd_config"), []byte(cfg), 0o600))
}

func (s *Server) writeClientConfig() {
	cfg := fmt.Sprintf(`Host %s
	HostName 127.0.0.1
	Port %d
	User %s

Host *
	IdentityFile %s
	IdentitiesOnly yes
	IdentityAgent none
	AddKeysToAgent no
	UserKnownHostsFile %s
	GlobalKnownHostsFile /dev/null
	UpdateHostKeys no
	HashKnownHosts no
	ControlMaster no
	ControlPath none
	ConnectTimeout 10
`, Alias, s.Port, s.User, s.IdentityFile, s.KnownHosts)
	s.must(os.WriteFile(s.ConfigFile, []byte(cfg), 0o600))
}

// start runs sshd and waits until it listens; false if it exited (the
// port was taken).
func (s *Server) start() bool {
	log, err := os.Create(s.logPath)
	s.must(err)
	cmd := exec.Command(Programs.SSHD, "-D", "-e", "-f", filepath.Join(s.Dir, "sshd_config"))
	cmd.Stdout, cmd.Stderr = log, log
	ownGroup(cmd)
	if err := cmd.Start(); err != nil {
		log.Close()
		s.t.Fatalf("sshtest: %v", err)
	}
	log.Close()
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	// Generous: sshd starts in milliseconds, but not on a busy machine.
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		select {
		case <-done:
			return false
		case <-time.After(10 * time.Millisecond):
		}
		if strings.Contains(s.Log(), "Server listening on") {
			s.cmd, s.done = cmd, done
			return true
		}
	}
	cmd.Process.Kill()
	<-done
	s.t.Fatalf("sshtest: sshd did not listen within a minute; its log:\n%s", s.Log())
	return false
}

// Log is what sshd has logged so far.
func (s *Server) Log() string {
	b, _ := os.ReadFile(s.logPath)
	return string(b)
}

// PID is the listening sshd's process id.
func (s *Server) PID() int { return s.cmd.Process.Pid }

// Host is how package remote reaches the server: the Alias through the
// client config.
func (s *Server) Host() remote.Host {
	return remote.Host{Target: remote.Target{Host: Alias}, ConfigFile: s.ConfigFile}
}

// Program writes an executable shell script named name into Bin, with
// body after "#!/bin/sh", and returns its path.
func (s *Server) Program(name, body string) string {
	s.t.Helper()
	p := filepath.Join(s.Bin, name)
	s.must(os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755))
	return p
}

// Exec writes a program named name into Bin that runs argv with env
// (KEY=VALUE) added to the environment, passing its own arguments on: a
// session on the server starts from a clean environment, and what a test
// prepared (an agent's home, the test binary as a fake agent) goes in this
// way. It returns the program's path.
func (s *Server) Exec(name string, env []string, argv ...string) string {
	s.t.Helper()
	var b strings.Builder
	for _, kv := range env {
		b.WriteString("export " + remote.QuoteShell(kv) + "\n")
	}
	b.WriteString("exec " + remote.QuoteCommand(argv...) + ` "$@"`)
	return s.Program(name, b.String())
}

// Stop ends sshd and every process under it. Tests call it through
// Cleanup; calling it earlier is allowed.
func (s *Server) Stop() {
	if s.cmd == nil {
		return
	}
	// Deepest first, so that each parent still reaps its children rather
	// than leaving zombies for init.
	for _, p := range slices.Backward(append([]int{s.PID()}, Descendants(s.PID())...)) {
		kill(p, syscall.SIGKILL)
	}
	<-s.done
	s.cmd = nil
}

// Sessions are the sshd processes that serve connections: the listener's
// children and their sshd children (not the shells and agents under them).
func (s *Server) Sessions() []int {
	var out []int
	for _, p := range Descendants(s.PID()) {
		if info, ok := ReadProc(p); ok && info.Comm == "sshd" {
			out = append(out, p)
		}
	}
	return out
}

// KillSessions sends sig to every sshd process serving a connection, as a
// server going away or an administrator ending the session does; the shells
// and agents under them are left to notice.
func (s *Server) KillSessions(sig syscall.Signal) int {
	pids := s.Sessions()
	for _, p := range slices.Backward(pids) {
		kill(p, sig)
	}
	return len(pids)
}

// Proc is a process as /proc shows it.
type Proc struct {
	PID, PPID, PGID int
	// State is the one-letter state: R, S, Z (a zombie, which has ended)…
	State   string
	Comm    string
	Cmdline []string
}

// Alive reports a process that has not ended (a zombie has).
func (p Proc) Alive() bool { return p.State != "Z" && p.State != "X" }

// ReadProc reads /proc/pid; false when there is no such process.
func ReadProc(pid int) (Proc, bool) {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return Proc{}, false
	}
	// pid (comm) state ppid pgrp …; comm may hold spaces and parens.
	open, end := bytes.IndexByte(stat, '('), bytes.LastIndexByte(stat, ')')
	if open < 0 || end < open {
		return Proc{}, false
	}
	p := Proc{PID: pid, Comm: string(stat[open+1 : end])}
	f := strings.Fields(string(stat[end+1:]))
	if len(f) < 3 {
		return Proc{}, false
	}
	p.State = f[0]
	p.PPID, _ = strconv.Atoi(f[1])
	p.PGID, _ = strconv.Atoi(f[2])
	if cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid)); err == nil {
		p.Cmdline = strings.Split(strings.TrimRight(string(cmdline), "\x00"), "\x00")
	}
	return p, true
}

// Alive reports whether the process pid is running (not a zombie).
func Alive(pid int) bool {
	p, ok := ReadProc(pid)
	return ok && p.Alive()
}

// Descendants lists the processes under pid, children first.
func Descendants(pid int) []int {
	children := map[int][]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		n, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if p, ok := ReadProc(n); ok {
			children[p.PPID] = append(children[p.PPID], n)
		}
	}
	var out []int
	queue := []int{pid}
	for len(queue) > 0 {
		c := children[queue[0]]
		queue = queue[1:]
		slices.Sort(c)
		out = append(out, c...)
		queue = append(queue, c...)
	}
	return out
}

// WaitGone waits up to d for the process pid to end; false if it did not.
func WaitGone(pid int, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for {
		if !Alive(pid) {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// ProcessesWith lists the live processes whose command line holds word:
// for finding agents left behind.
func ProcessesWith(word string) []Proc {
	var out []Proc
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		n, err := strconv.Atoi(e.Name())
		if err != nil || n == os.Getpid() {
			continue
		}
		if p, ok := ReadProc(n); ok && p.Alive() && slices.ContainsFunc(p.Cmdline, func(a string) bool { return strings.Contains(a, word) }) {
			out = append(out, p)
		}
	}
	return out
}

// SSH runs the system ssh with the client config against the server and
// returns its combined output: for checking the fixture itself.
func (s *Server) SSH(args ...string) (string, error) {
	argv := append([]string{"-T", "-o", "BatchMode=yes", "-F", s.ConfigFile, Alias}, args...)
	out, err := exec.Command(Programs.SSH, argv...).CombinedOutput()
	return string(out), err
}

// LogLines returns sshd's log lines that contain word.
func (s *Server) LogLines(word string) []string {
	var out []string
	sc := bufio.NewScanner(strings.NewReader(s.Log()))
	for sc.Scan() {
		if strings.Contains(sc.Text(), word) {
			out = append(out, sc.Text())
		}
	}
	return out
}
