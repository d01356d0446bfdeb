package images

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync"
)

// Load reads and decodes an image file. Errors are
// *AttachmentError naming the path.
func Load(path string) (Attachment, error) {
	return loadFile(context.Background(), path, defaultLimits)
}

func loadFile(ctx context.Context, path string, lim sizeLimits) (Attachment, error) {
	data, err := readFile(path)
	if err != nil {
		return Attachment{}, err
	}
	a, err := decodeImage(ctx, filepath.Base(path), data, lim)
	if ae, ok := errors.AsType[*AttachmentError](err); ok {
		ae.Name = path // the base name alone is ambiguous when many files are dropped
	}
	return a, err
}

// readFile checks the file before reading so that a folder, a device or a
// huge video dropped by mistake fails fast instead of filling memory.
func readFile(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, Unreadable(path, err)
	}
	switch {
	case fi.IsDir():
		return nil, newAttachmentError(path, AttachFolder, "this is a folder, not an image file", nil)
	case !fi.Mode().IsRegular():
		return nil, newAttachmentError(path, AttachUnreadable, "not a regular file", nil)
	case fi.Size() > maxFileSize:
		return nil, fileTooLarge(path, fi.Size())
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, Unreadable(path, err)
	}
	defer f.Close()
	// The limit still applies in case the file grew since Stat.
	buf := bytes.NewBuffer(make([]byte, 0, fi.Size()+bytes.MinRead))
	if _, err := buf.ReadFrom(io.LimitReader(f, maxFileSize+1)); err != nil {
		return nil, Unreadable(path, err)
	}
	if buf.Len() > maxFileSize {
		return nil, fileTooLarge(path, int64(buf.Len()))
	}
	return buf.Bytes(), nil
}

func fileTooLarge(path string, size int64) error {
	return newAttachmentError(path, AttachTooLarge, fmt.Sprintf("the file is too large (%s; the limit is %s)",
		formatByteSize(int(size)), formatByteSize(maxFileSize)), nil)
}

// Unreadable words the OS error for people: the path is already in the
// message, so only the cause is kept.
func Unreadable(path string, err error) error {
	var reason string
	switch pe, isPath := errors.AsType[*fs.PathError](err); {
	case errors.Is(err, fs.ErrNotExist):
		reason = "the file doesn't exist"
	case errors.Is(err, fs.ErrPermission):
		reason = "can't read the file: permission denied"
	case isPath:
		reason = "can't read the file: " + pe.Err.Error()
	default:
		reason = "can't read the file: " + err.Error()
	}
	return newAttachmentError(path, AttachUnreadable, reason, err)
}

// LoadAll decodes files on at most workers goroutines (0 picks a
// default) and returns when all are done; call it off the UI goroutine.
// each is called exactly once per path, with its index, one call at a time
// (never concurrently) but from worker goroutines, in completion order. Once
// ctx is done, files not yet started report ctx.Err().
func LoadAll(ctx context.Context, paths []string, workers int, each func(i int, a Attachment, err error)) {
	loadAll(ctx, paths, workers, defaultLimits, each)
}

func loadAll(ctx context.Context, paths []string, workers int, lim sizeLimits, each func(int, Attachment, error)) {
	if workers <= 0 {
		// Each worker may hold a decoded photo of a few hundred MB at
		// worst, so parallelism is capped below the core count.
		workers = min(4, max(1, runtime.GOMAXPROCS(0)/2))
	}
	workers = min(workers, len(paths))
	var mu sync.Mutex
	report := func(i int, a Attachment, err error) {
		mu.Lock()
		defer mu.Unlock()
		each(i, a, err)
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := range next {
				if err := ctx.Err(); err != nil {
					report(i, Attachment{}, err)
					continue
				}
				a, err := loadFile(ctx, paths[i], lim)
				report(i, a, err)
			}
		})
	}
	for i := range paths {
		next <- i
	}
	close(next)
	wg.Wait()
}
