package pienv

import (
	"os"
	"path/filepath"
	"testing"
)

// UIExtensionPath is the test extension that drives every extension UI
// method, relative to the repository root.
const UIExtensionPath = "rpcconn/rpctest/pienv/testdata/ui-extension.ts"

// Binary returns pi for a test, installing it on first use. A missing
// agent fails the test rather than skipping it: an end-to-end suite that
// quietly skips proves nothing.
func Binary(t testing.TB) string {
	t.Helper()
	bin, err := Locate(testRoot(t))
	if err != nil {
		t.Fatalf("%v", err)
	}
	return bin
}

// Setup prepares pi in the test's temporary folder against the model
// server at baseURL (llmserver's URL()).
func Setup(t testing.TB, baseURL string, opts ...Option) *Env {
	t.Helper()
	env, err := Prepare(Binary(t), t.TempDir(), baseURL, opts...)
	if err != nil {
		t.Fatalf("%v", err)
	}
	return env
}

// UIExtension returns the absolute path of the UI test extension, for
// WithExtension.
func UIExtension(t testing.TB) string {
	t.Helper()
	path := filepath.Join(testRoot(t), filepath.FromSlash(UIExtensionPath))
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("pienv: %v", err)
	}
	return path
}

func testRoot(t testing.TB) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatalf("pienv: %v", err)
	}
	root, err := RepoRoot(wd)
	if err != nil {
		t.Fatalf("%v", err)
	}
	return root
}
