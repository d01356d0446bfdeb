package remote

import (
	"errors"
	"fmt"
	"io"
)

// maxUnsizedFile bounds a copy whose size nobody announced (ReadFile,
// CopyFile). A variable so that tests can lower it.
var maxUnsizedFile int64 = 4 << 30

var errTooLarge = errors.New("remote files: the file is larger than the limit")

// cappedWriter passes at most left bytes on to w; past that it fails and
// calls stop, which ends the command writing to it.
type cappedWriter struct {
	w    io.Writer
	left int64
	stop func()
	over bool
}

func (c *cappedWriter) Write(p []byte) (int, error) {
	if int64(len(p)) > c.left {
		n, err := c.w.Write(p[:c.left])
		c.left -= int64(n)
		c.over = true
		c.stop()
		if err == nil {
			err = errTooLarge
		}
		return n, err
	}
	n, err := c.w.Write(p)
	c.left -= int64(n)
	return n, err
}

// byteSize words a limit: "4 GB", "1 MB", "512 bytes".
func byteSize(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}
