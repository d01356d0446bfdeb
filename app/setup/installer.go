package setup

import (
	"context"
	"sync"

	"knightcode.ai/desktop/agentsetup"
)

// outputLines is how much of npm's output an install keeps to show.
const outputLines = 200

// InstallState is how far the app's install of the agent has come.
type InstallState struct {
	Running bool
	// Done and Total are bytes on disk so far and about how many there
	// will be.
	Done, Total int64
	// Step is the last step in words.
	Step string
	// Output is the install's own lines and npm's, the last outputLines.
	Output []string
	// Err is why the last install failed (context.Canceled when the user
	// cancelled); Result is what it installed.
	Err    error
	Result *agentsetup.Result
}

// Installer runs at most one install of the agent for the whole app, and
// tells every panel that shows it how far it has come, on the UI
// goroutine. Closing the window cancels it and waits for it.
type Installer struct {
	do func(func())
	// install is agentsetup.Install; tests replace it.
	install func(context.Context, agentsetup.Options) (agentsetup.Result, error)

	mu       sync.Mutex
	state    InstallState
	cancel   context.CancelFunc
	watchers map[int]func(InstallState)
	next     int
	wg       sync.WaitGroup
}

// NewInstaller returns an installer that reports through do, which runs a
// function on the UI goroutine soon.
func NewInstaller(do func(func())) *Installer {
	return &Installer{do: do, install: agentsetup.Install, watchers: map[int]func(InstallState){}}
}

// State is the install's state now.
func (in *Installer) State() InstallState {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.snapshot()
}

func (in *Installer) snapshot() InstallState {
	s := in.state
	s.Output = append([]string(nil), s.Output...)
	return s
}

// Watch calls f on the UI goroutine with each new state; the returned
// function stops that.
func (in *Installer) Watch(f func(InstallState)) (stop func()) {
	in.mu.Lock()
	defer in.mu.Unlock()
	id := in.next
	in.next++
	in.watchers[id] = f
	return func() {
		in.mu.Lock()
		defer in.mu.Unlock()
		delete(in.watchers, id)
	}
}

// Start begins an install unless one runs.
func (in *Installer) Start() {
	in.mu.Lock()
	if in.state.Running {
		in.mu.Unlock()
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	in.cancel = cancel
	in.state = InstallState{Running: true, Step: "Starting npm…", Total: agentsetup.Current.Size}
	in.wg.Add(1)
	in.mu.Unlock()
	in.notify()
	go func() {
		defer in.wg.Done()
		defer cancel()
		res, err := in.install(ctx, agentsetup.Options{Progress: in.progress})
		in.mu.Lock()
		in.state.Running = false
		if err != nil {
			in.state.Err = err
		} else {
			in.state.Result = &res
			in.state.Done = in.state.Total
		}
		in.mu.Unlock()
		in.notify()
	}()
}

func (in *Installer) progress(p agentsetup.Progress) {
	in.mu.Lock()
	if p.Line != "" {
		in.state.Output = append(in.state.Output, p.Line)
		if n := len(in.state.Output); n > outputLines {
			in.state.Output = in.state.Output[n-outputLines:]
		}
		// The app's own steps are in words; npm's lines only go to the
		// output.
		if isStep(p.Line) {
			in.state.Step = p.Line
		}
	}
	if p.Total > 0 {
		in.state.Done, in.state.Total = p.Done, p.Total
	}
	in.mu.Unlock()
	in.notify()
}

// isStep tells agentsetup's own lines from npm's.
func isStep(line string) bool {
	for _, p := range []string{"Installing ", "Checking ", "Installed ", agentsetup.Current.String() + " is installed"} {
		if len(line) >= len(p) && line[:len(p)] == p {
			return true
		}
	}
	return false
}

// notify hands the state to the watchers on the UI goroutine.
func (in *Installer) notify() {
	in.do(func() {
		in.mu.Lock()
		s := in.snapshot()
		fs := make([]func(InstallState), 0, len(in.watchers))
		for _, f := range in.watchers {
			fs = append(fs, f)
		}
		in.mu.Unlock()
		for _, f := range fs {
			f(s)
		}
	})
}

// Cancel stops a running install; what was installed before stays.
func (in *Installer) Cancel() {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.cancel != nil {
		in.cancel()
	}
}

// Close cancels a running install and waits for it to end. It must not be
// called on the UI goroutine while an install may be waiting to report.
func (in *Installer) Close() {
	in.Cancel()
	in.wg.Wait()
}
