//go:build !linux

package app

// watchFolder has no watch to offer here (see folderwatch.go).
func watchFolder(root string, changed func()) (stop func(), err error) {
	return nil, errNoWatch
}
