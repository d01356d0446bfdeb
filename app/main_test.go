package app

import (
	"os"
	"testing"

	"knightcode.ai/desktop/rpcconn/rpctest"
)

// TestMain lets the test binary be the fake agent too: the window tests
// start it as their agent (go-sdk's pattern).
func TestMain(m *testing.M) {
	rpctest.RunIfChild()
	os.Exit(m.Run())
}
