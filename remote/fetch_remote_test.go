package remote_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"knightcode.ai/desktop/remote"
	"knightcode.ai/desktop/remote/sshtest"
)

// lyingWC starts a server whose PATH finds a wc that answers the truth
// plus the number in HOME/wc-lie (or, with "huge" there, 2 GB).
func lyingWC(t *testing.T) *sshtest.Server {
	bin := t.TempDir()
	wc := "#!/bin/sh\nn=$(/usr/bin/wc -c)\nlie=$(cat \"$HOME/wc-lie\" 2>/dev/null || echo 0)\n" +
		"if [ \"$lie\" = huge ]; then echo 2147483648; else echo $((n + lie)); fi\n"
	if err := os.WriteFile(filepath.Join(bin, "wc"), []byte(wc), 0o755); err != nil {
		t.Fatal(err)
	}
	return sshtest.Start(t, sshtest.Options{Env: []string{"PATH=" + bin + ":/usr/bin:/bin"}})
}

func TestFetchRefusesWhatALyingHostAnnounces(t *testing.T) {
	t.Parallel()
	srv := lyingWC(t)
	h := srv.Host()
	lie := func(s string) {
		if err := os.WriteFile(srv.Home+"/wc-lie", []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	file := srv.Home + "/session.jsonl"
	data := bytes.Repeat([]byte("{\"type\":\"message\"}\n"), 1000)
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	fetch := func(paths ...string) ([][]byte, error) {
		var got [][]byte
		err := remote.FetchFiles(h, testContext(t), paths, func(_ int, d []byte) error {
			got = append(got, bytes.Clone(d))
			return nil
		})
		return got, err
	}

	lie("0")
	if got, err := fetch(file); err != nil || len(got) != 1 || !bytes.Equal(got[0], data) {
		t.Fatalf("an honest wc: %d files, %v", len(got), err)
	}

	lie("10")
	got, err := fetch(file)
	if err == nil || !strings.Contains(err.Error(), "ended after 19000 of the 19010 bytes the host announced") || len(got) != 0 {
		t.Fatalf("a host that announces more than it sends: %d files, %v", len(got), err)
	}

	lie("huge")
	if got, err = fetch(file); err == nil || !strings.Contains(err.Error(), "2147483648 bytes, over the limit of 1 GB") || len(got) != 0 {
		t.Fatalf("a host that announces 2 GB: %d files, %v", len(got), err)
	}

	// Announcing less leaves bytes where the next header belongs: reading
	// stops there and the command is ended, not drained. A FIFO nobody
	// writes is next, so draining would never end.
	lie("-2")
	fifo := srv.Home + "/never"
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	// Ending the ssh command does not end the host's shell (no pty, no
	// hangup), which goes on to open the FIFO, maybe only after the test
	// (a busy machine): a writer held while the FIFO is removed lets a cp
	// already waiting read an empty file, and one coming later finds no
	// file, so none stays behind under PID 1. O_RDWR opens a FIFO on Linux
	// without waiting for a reader.
	defer func() {
		f, err := os.OpenFile(fifo, os.O_RDWR, 0)
		os.Remove(fifo)
		if err == nil {
			f.Close()
		}
	}()
	began := time.Now()
	got, err = fetch(file, fifo)
	if err == nil || !strings.Contains(err.Error(), "where the header of file 2 of 2 belongs") || len(got) != 0 {
		t.Fatalf("a host that announces less than it sends: %d files, %v", len(got), err)
	}
	t.Logf("stopped after %v", time.Since(began).Round(time.Millisecond))
}

// ReadFile and CopyFile, with no size announced, stop at the limit.
func TestReadFileStopsAtTheLimit(t *testing.T) {
	// Not parallel: it lowers a package-wide limit, and sequential tests
	// finish before parallel ones resume.
	srv := sshtest.Start(t, sshtest.Options{})
	h := srv.Host()
	big := srv.Home + "/big.html"
	if err := os.WriteFile(big, bytes.Repeat([]byte("x"), 3<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	defer remote.SetMaxUnsizedFile(1 << 20)()
	var buf bytes.Buffer
	err := h.ReadFile(testContext(t), big, &buf)
	if err == nil || !strings.Contains(err.Error(), "larger than 1 MB") || buf.Len() != 1<<20 {
		t.Fatalf("ReadFile of 3 MB with a 1 MB limit: %d bytes, %v", buf.Len(), err)
	}
	local := filepath.Join(t.TempDir(), "big.html")
	if err := h.CopyFile(testContext(t), big, local); err == nil || !strings.Contains(err.Error(), "larger than 1 MB") {
		t.Fatalf("CopyFile of 3 MB with a 1 MB limit: %v", err)
	}
	if _, err := os.Stat(local); !os.IsNotExist(err) {
		t.Errorf("a refused copy left %s: %v", local, err)
	}
	small := srv.Home + "/small.html"
	os.WriteFile(small, []byte("<html>"), 0o644)
	if err := h.CopyFile(testContext(t), small, local); err != nil {
		t.Fatalf("a file under the limit: %v", err)
	}
}
