package kit

import (
	"os"
	"path/filepath"
	"strings"
)

// DisplayPath shows a folder the way people write it: the home folder as ~.
func DisplayPath(dir string) string {
	home, err := os.UserHomeDir()
	if err != nil || home == "" || home == "/" {
		return dir
	}
	if dir == home {
		return "~"
	}
	if rest, ok := strings.CutPrefix(dir, home+string(filepath.Separator)); ok {
		return "~" + string(filepath.Separator) + rest
	}
	return dir
}
