package app

import (
	"testing"
	"time"
)

// A shutdown that hangs does not keep the app from exiting: the bound
// returns (after printing the goroutines), one that ends is waited for.
func TestShutdownWithinBound(t *testing.T) {
	hang := make(chan struct{})
	defer close(hang)
	if shutdownWithin(50*time.Millisecond, func() { <-hang }) {
		t.Fatal("a hanging shutdown was reported finished")
	}
	ran := false
	if !shutdownWithin(time.Minute, func() { ran = true }) || !ran {
		t.Fatal("a shutdown that ends was not waited for")
	}
}

// The last resort after a quit signal exits once its bound has passed, and
// not when disarmed before.
func TestExitUnlessGone(t *testing.T) {
	exited := make(chan struct{})
	exitUnlessGone(10*time.Millisecond, func() { close(exited) })
	select {
	case <-exited:
	case <-time.After(time.Minute):
		t.Fatal("the bound passed and nothing exited")
	}
	disarm := exitUnlessGone(time.Hour, func() { t.Error("exited though disarmed") })
	if !disarm() {
		t.Fatal("disarming an armed bound reported it had fired")
	}
}
