package app

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

// watchFolder watches root and the folders below it (not .git's, which
// the app's own git work writes in) with inotify, and calls changed once
// changes stop for a moment; folders made later are watched too. stop
// ends it.
func watchFolder(root string, changed func()) (stop func(), err error) {
	fd, err := unix.InotifyInit1(unix.IN_CLOEXEC | unix.IN_NONBLOCK)
	if err != nil {
		return nil, err
	}
	// Non-blocking and wrapped in an os.File, the read parks in Go's poller
	// and Close wakes it: no thread held, no timer.
	f := os.NewFile(uintptr(fd), "inotify")
	w := &inotifyWatch{fd: fd, dirs: map[int]string{}, q: &quieted{f: changed}}
	_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		if d.Name() == ".git" || d.Name() == "node_modules" {
			return filepath.SkipDir // the app's own git work; what builds fill
		}
		if !w.add(p) {
			return filepath.SkipAll
		}
		return nil
	})
	go w.read(f)
	var once sync.Once
	return func() {
		once.Do(func() {
			f.Close()
			w.q.stop()
		})
	}, nil
}

type inotifyWatch struct {
	fd   int
	mu   sync.Mutex
	dirs map[int]string // watch descriptor → folder
	q    *quieted
}

const watchMask = unix.IN_CREATE | unix.IN_DELETE | unix.IN_MODIFY | unix.IN_CLOSE_WRITE |
	unix.IN_MOVED_FROM | unix.IN_MOVED_TO | unix.IN_ATTRIB | unix.IN_DELETE_SELF

// add watches dir, reporting false once watchDirsMax folders are watched.
func (w *inotifyWatch) add(dir string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.dirs) >= watchDirsMax {
		return false
	}
	if wd, err := unix.InotifyAddWatch(w.fd, dir, watchMask); err == nil {
		w.dirs[wd] = dir
	}
	return true
}

func (w *inotifyWatch) read(f *os.File) {
	buf := make([]byte, 64*1024)
	for {
		n, err := f.Read(buf)
		if err != nil {
			return // closed
		}
		for off := 0; off+unix.SizeofInotifyEvent <= n; {
			ev := (*unix.InotifyEvent)(unsafe.Pointer(&buf[off]))
			name := ""
			if ev.Len > 0 {
				raw := buf[off+unix.SizeofInotifyEvent : off+unix.SizeofInotifyEvent+int(ev.Len)]
				name = strings.TrimRight(string(raw), "\x00")
			}
			off += unix.SizeofInotifyEvent + int(ev.Len)
			if ev.Mask&unix.IN_ISDIR != 0 && ev.Mask&(unix.IN_CREATE|unix.IN_MOVED_TO) != 0 && name != ".git" && name != "node_modules" {
				w.mu.Lock()
				parent := w.dirs[int(ev.Wd)]
				w.mu.Unlock()
				if parent != "" {
					w.add(filepath.Join(parent, name))
				}
			}
			if ev.Mask&unix.IN_IGNORED != 0 {
				w.mu.Lock()
				delete(w.dirs, int(ev.Wd))
				w.mu.Unlock()
				continue
			}
			w.q.poke()
		}
	}
}
