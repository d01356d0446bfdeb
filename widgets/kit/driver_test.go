package kit

import (
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"knightcode.ai/desktop/internal/testsupport"
)

// receive waits for what a route handed over, bounded so that a route that
// never delivers ends the test instead of hanging it.
func receive(t *testing.T, ch <-chan string, what string) string {
	t.Helper()
	select {
	case got := <-ch:
		return got
	case <-time.After(testsupport.GoneWait):
		t.Fatalf("%s: nothing within %v", what, testsupport.GoneWait)
		return ""
	}
}

// One SetDriver call routes every way to the UI goroutine: Do, DoAndWait,
// Later, InBackground, and what is built on Do (After, Tick).
func TestOneDriverSwapRoutesEveryWay(t *testing.T) {
	routed := make(chan string, 16)
	via := func(name string) func(func()) {
		return func(f func()) { routed <- name; f() }
	}
	defer SetDriver(Driver{
		Do:        via("do"),
		DoAndWait: via("wait"),
		Later:     via("later"),
		InBackground: func(work, done func()) {
			routed <- "background"
			work()
			done()
		},
	})()
	ran := make(chan string, 16)
	Do(func() { ran <- "Do" })
	DoAndWait(func() { ran <- "DoAndWait" })
	Later(func() { ran <- "Later" })
	InBackground(func() {}, func() { ran <- "InBackground" })
	for _, want := range [][2]string{{"do", "Do"}, {"wait", "DoAndWait"}, {"later", "Later"}, {"background", "InBackground"}} {
		if got := receive(t, routed, want[1]); got != want[0] {
			t.Fatalf("%s went through the driver's %q, want %q", want[1], got, want[0])
		}
		if got := receive(t, ran, want[1]); got != want[1] {
			t.Fatalf("ran %q, want %q", got, want[1])
		}
	}
	After(time.Millisecond, func() {})
	if got := receive(t, routed, "After"); got != "do" {
		t.Fatalf("After went through %q, want do", got)
	}
	stop := Tick(nil, time.Millisecond, func() {})
	got := receive(t, routed, "Tick")
	stop()
	if got != "do" {
		t.Fatalf("Tick went through %q, want do", got)
	}
}

// A driver without its own Later and InBackground still routes them: on
// a goroutine, through its Do, never inside the call.
func TestLaterAndInBackgroundDefaultToTheDriversDo(t *testing.T) {
	handed := make(chan func(), 4)
	defer SetDriver(Driver{Do: func(f func()) { handed <- f }})()
	var ran []string
	Later(func() { ran = append(ran, "later") })
	var worked atomic.Bool
	InBackground(func() { worked.Store(true) }, func() { ran = append(ran, "done") })
	if len(ran) != 0 {
		t.Fatalf("ran %v inside the calls", ran)
	}
	for range 2 {
		select {
		case f := <-handed:
			f()
		case <-time.After(testsupport.GoneWait):
			t.Fatalf("only %v handed to Do within %v", ran, testsupport.GoneWait)
		}
	}
	// The two goroutines may hand over in either order.
	slices.Sort(ran)
	if !slices.Equal(ran, []string{"done", "later"}) {
		t.Fatalf("ran %v", ran)
	}
	if !worked.Load() {
		t.Fatal("done was handed over before work ran")
	}
	WaitBackground()
}

// After Halt, WaitBackground joins the background work still running, and
// what it hands over is dropped; nothing new starts.
func TestWaitBackgroundJoinsWorkAfterHalt(t *testing.T) {
	var reached atomic.Int32
	defer SetDriver(Driver{Do: func(f func()) { reached.Add(1); f() }})()
	release := make(chan struct{})
	var finished atomic.Bool
	InBackground(func() {
		<-release
		finished.Store(true)
	}, func() { t.Error("done ran after Halt") })
	Halt()
	Later(func() { t.Error("a step ran after Halt") })
	waited := make(chan struct{})
	go func() {
		WaitBackground()
		close(waited)
	}()
	select {
	case <-waited:
		t.Fatal("WaitBackground returned while work ran")
	default:
	}
	close(release)
	select {
	case <-waited:
	case <-time.After(testsupport.GoneWait):
		t.Fatalf("WaitBackground did not return within %v of the work's end", testsupport.GoneWait)
	}
	if !finished.Load() {
		t.Fatal("WaitBackground returned before the work ended")
	}
	if n := reached.Load(); n != 0 {
		t.Fatalf("%d hand-overs reached the driver after Halt", n)
	}
}
