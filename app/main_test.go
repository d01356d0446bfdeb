package app

import (
	"os"
	"testing"

	"fyne.io/fyne/v2"

	"knightcode.ai/desktop/rpcconn/rpctest"
)

// TestMain lets the test binary be the fake agent too: the window tests
// start it as their agent (go-sdk's pattern).
func TestMain(m *testing.M) {
	rpctest.RunIfChild()
	os.Exit(runTests(m))
}

// runTests keeps the package's drafts in a folder of its own, not in the
// user's (Fyne's test storage is the shared temporary folder): a test that
// wants a clean keeper of its own sets draftsDir itself.
func runTests(m *testing.M) int {
	dir, err := os.MkdirTemp("", "knightcode-drafts-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	draftsDir = func(fyne.App) string { return dir }
	return m.Run()
}
