package app

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// exportToOpen says whether path may go to the system's default program:
// an .html or .htm regular file.
func exportToOpen(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	switch strings.ToLower(filepath.Ext(abs)) {
	case ".html", ".htm":
	default:
		return "", fmt.Errorf("%s is not an HTML file; only HTML exports are opened", abs)
	}
	info, err := os.Stat(abs)
	switch {
	case os.IsNotExist(err):
		return "", fmt.Errorf("%s does not exist", abs)
	case err != nil:
		return "", fmt.Errorf("%s cannot be read: %w", abs, err)
	case !info.Mode().IsRegular():
		return "", fmt.Errorf("%s is not a regular file", abs)
	}
	return abs, nil
}

// openExport opens an exported session in the browser: only an HTML file
// that is there and is a regular file goes to the system's default
// program, which opens other names with whatever program they name.
func (f *agentFiles) openExport(path string) {
	abs, err := exportToOpen(path)
	if err == nil {
		u, uerr := storageURL(abs)
		if err = uerr; err == nil {
			err = f.app.OpenURL(u)
		}
	}
	if err != nil {
		f.message("Cannot open the export", sentence(err.Error()))
	}
}
