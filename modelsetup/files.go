package modelsetup

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// FileError says why an agent file was left as it is, in words for the
// window.
type FileError struct {
	Path string
	// Words say what is wrong and what to do.
	Words string
	Err   error
}

func (e *FileError) Error() string { return e.Path + ": " + e.Words }
func (e *FileError) Unwrap() error { return e.Err }

// readAgentFile reads a file the agent owns. A file that is missing reads
// as empty; one that cannot be read is an error that leaves it alone, and
// so is a read-only one about to be changed (forWrite), even for root,
// which could write it anyway.
func readAgentFile(path string, forWrite bool) (data []byte, mode fs.FileMode, exists bool, err error) {
	info, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0o600, false, nil
	}
	if err != nil {
		return nil, 0, false, &FileError{path, "it could not be looked at (" + err.Error() + "), so it was left as it is.", err}
	}
	if !info.Mode().IsRegular() {
		return nil, 0, false, &FileError{path, "it is not a plain file, so it was left as it is.", nil}
	}
	data, err = os.ReadFile(path)
	if err != nil {
		return nil, 0, false, &FileError{path, "it could not be read (" + err.Error() + "), so it was left as it is.", err}
	}
	if forWrite && info.Mode().Perm()&0o222 == 0 {
		return nil, 0, false, &FileError{path, "it is read-only, so the window does not change it. Make it writable and try again, or make the change by hand.", fs.ErrPermission}
	}
	return data, info.Mode().Perm(), true, nil
}

// writeAtomically replaces path with data in one step (a temporary file in
// the same folder, renamed over it), with the given permissions, so the
// agent never reads half a file and a failed write leaves the old one.
func writeAtomically(path string, data []byte, mode fs.FileMode) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return &FileError{path, "its folder could not be made (" + err.Error() + ").", err}
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+"-*")
	if err != nil {
		return &FileError{path, "it could not be written (" + err.Error() + ").", err}
	}
	name := tmp.Name()
	ok := false
	defer func() {
		if !ok {
			tmp.Close()
			os.Remove(name)
		}
	}()
	if err := tmp.Chmod(mode); err != nil {
		return &FileError{path, "its permissions could not be set (" + err.Error() + ").", err}
	}
	if _, err := tmp.Write(data); err != nil {
		return &FileError{path, "it could not be written (" + err.Error() + ").", err}
	}
	if err := tmp.Sync(); err != nil {
		return &FileError{path, "it could not be written (" + err.Error() + ").", err}
	}
	if err := tmp.Close(); err != nil {
		return &FileError{path, "it could not be written (" + err.Error() + ").", err}
	}
	if err := os.Rename(name, path); err != nil {
		return &FileError{path, "it could not be replaced (" + err.Error() + ").", err}
	}
	ok = true
	return nil
}

func parseError(path string, err error) error {
	return &FileError{path, fmt.Sprintf("it does not parse (%v), so the agent cannot read it either. The window does not overwrite it: fix it, or move it away, and try again.", err), err}
}
