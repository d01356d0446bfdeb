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
