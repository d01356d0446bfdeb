package sessionindex

import (
	"os"
	"testing"

	"golang.org/x/sys/unix"
)

// evict drops a file's pages from the operating system's cache, so that
// the next read of it is from the disk.
func evict(b *testing.B, path string) {
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	if err := unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED); err != nil {
		b.Logf("fadvise: %v (the index may be in the cache)", err)
	}
}
