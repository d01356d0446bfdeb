package pienv

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// RepoRoot returns the nearest folder at or above dir that holds go.mod.
// Tests run in their package's folder, so this finds the module root from
// any package.
func RepoRoot(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		} else if !errors.Is(err, os.ErrNotExist) {
			return "", err
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("pienv: no go.mod in %s or above", dir)
		}
	}
}
