package app

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

// LoadAttachment reads and decodes an image file. Errors are
// *AttachmentError naming the path.
func LoadAttachment(path string) (Attachment, error) {
	return imgLoad(context.Background(), path, imgDefaultLimits)
}

func imgLoad(ctx context.Context, path string, lim imgLimits) (Attachment, error) {
	data, err := imgReadFile(path)
	if err != nil {
		return Attachment{}, err
	}
	a, err := imgDecode(ctx, filepath.Base(path), data, lim)
	if ae, ok := errors.AsType[*AttachmentError](err); ok {
		ae.Name = path // the base name alone is ambiguous when many files are dropped
	}
	return a, err
}

// imgReadFile checks the file before reading so that a folder, a device or a
// huge video dropped by mistake fails fast instead of filling memory.
func imgReadFile(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, imgUnreadable(path, err)
	}
	switch {
	case fi.IsDir():
		return nil, attachErr(path, AttachFolder, "this is a folder, not an image file", nil)
	case !fi.Mode().IsRegular():
		return nil, attachErr(path, AttachUnreadable, "not a regular file", nil)
	case fi.Size() > attachMaxFileSize:
		return nil, imgFileTooLarge(path, fi.Size())
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, imgUnreadable(path, err)
	}
	defer f.Close()
	// The limit still applies in case the file grew since Stat.
	buf := bytes.NewBuffer(make([]byte, 0, fi.Size()+bytes.MinRead))
	if _, err := buf.ReadFrom(io.LimitReader(f, attachMaxFileSize+1)); err != nil {
		return nil, imgUnreadable(path, err)
	}
	if buf.Len() > attachMaxFileSize {
		return nil, imgFileTooLarge(path, int64(buf.Len()))
	}
	return buf.Bytes(), nil
}

func imgFileTooLarge(path string, size int64) error {
	return attachErr(path, AttachTooLarge, fmt.Sprintf("the file is too large (%s; the limit is %s)",
		formatByteSize(int(size)), formatByteSize(attachMaxFileSize)), nil)
}

// imgUnreadable words the OS error for people: the path is already in the
// message, so only the cause is kept.
func imgUnreadable(path string, err error) error {
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
	return attachErr(path, AttachUnreadable, reason, err)
}

// LoadAttachments decodes files on at most workers goroutines (0 picks a
// default) and returns when all are done; call it off the UI goroutine.
// each is called exactly once per path, with its index, one call at a time
// (never concurrently) but from worker goroutines, in completion order. Once
// ctx is done, files not yet started report ctx.Err().
func LoadAttachments(ctx context.Context, paths []string, workers int, each func(i int, a Attachment, err error)) {
	imgLoadAll(ctx, paths, workers, imgDefaultLimits, each)
}

func imgLoadAll(ctx context.Context, paths []string, workers int, lim imgLimits, each func(int, Attachment, error)) {
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
				a, err := imgLoad(ctx, paths[i], lim)
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
