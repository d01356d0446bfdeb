package pienv

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// An unreachable registry must fail loudly with npm's own words, never
// look like a skipped test.
func TestInstallReportsUnreachableRegistry(t *testing.T) {
	root := t.TempDir()
	t.Setenv("npm_config_registry", "http://127.0.0.1:1/")
	t.Setenv("npm_config_fetch_retries", "0")
	t.Setenv("npm_config_cache", filepath.Join(root, "npm-cache"))
	t.Setenv("npm_config_offline", "false")
	_, err := Install(root)
	if err == nil {
		t.Fatal("Install succeeded without a registry")
	}
	msg := err.Error()
	t.Logf("what a test would print:\n%s", msg)
	if !strings.Contains(msg, "npm is not on PATH") &&
		(!strings.Contains(msg, "npm registry could not be reached") || !strings.Contains(msg, "npm printed:") || !strings.Contains(msg, BinaryEnv)) {
		t.Errorf("unhelpful error: %s", msg)
	}
	if _, err := os.Stat(filepath.Join(root, ".cache", "pi.lock")); !os.IsNotExist(err) {
		t.Errorf("lock file left behind: %v", err)
	}
}

func TestLocateHonoursBinaryEnv(t *testing.T) {
	fake := filepath.Join(t.TempDir(), "pi")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv(BinaryEnv, fake)
	if got, err := Locate(t.TempDir()); err != nil || got != fake {
		t.Errorf("Locate = %q, %v", got, err)
	}
	t.Setenv(BinaryEnv, fake+".missing")
	if _, err := Locate(t.TempDir()); err == nil || !strings.Contains(err.Error(), BinaryEnv) {
		t.Errorf("missing $%s not reported: %v", BinaryEnv, err)
	}
}

func TestLockFileSerialises(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.lock")
	var inside, overlaps atomic.Int32
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			unlock, err := lockFile(path, time.Minute)
			if err != nil {
				t.Error(err)
				return
			}
			if inside.Add(1) > 1 {
				overlaps.Add(1)
			}
			time.Sleep(20 * time.Millisecond)
			inside.Add(-1)
			unlock()
		}()
	}
	wg.Wait()
	if overlaps.Load() != 0 {
		t.Errorf("%d holders overlapped", overlaps.Load())
	}
}

func TestLockFileBreaksStaleLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.lock")
	if err := os.WriteFile(path, []byte("12345\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
	unlock, err := lockFile(path, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	unlock()
}
