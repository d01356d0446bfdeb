package app

import (
	"errors"

	native "github.com/sqweek/dialog"
)

// askNative runs one of the platform's file or folder dialogs (ask), which
// block, off the UI goroutine; then, on it, chosen gets the path, a
// cancel does nothing, and where the platform has no dialog fallback
// shows Fyne's. The goroutine is not one of the tab's workers, and not
// waited for on quit or when the tab closes: the platform's dialog cannot
// be cancelled from here, so a wait would last until the user answers it;
// what it hands to the UI after the window closed is dropped.
func (h *tabHost) askNative(ask func() (string, error), chosen func(path string), fallback func()) {
	go func() {
		path, err := ask()
		h.do(func() {
			switch {
			case err == nil:
				chosen(path)
			case errors.Is(err, native.ErrCancelled):
			default:
				fallback()
			}
		})
	}()
}
