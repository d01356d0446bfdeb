package app

import (
	"sync"

	"golang.design/x/clipboard"
)

var (
	clipOnce sync.Once
	clipErr  error
)

// clipboardImage returns the image on the system clipboard, as PNG, if
// there is one. Fyne's clipboard only carries text.
func clipboardImage() ([]byte, bool) {
	clipOnce.Do(func() { clipErr = clipboard.Init() })
	if clipErr != nil {
		return nil, false
	}
	data := clipboard.Read(clipboard.FmtImage)
	return data, len(data) > 0
}
