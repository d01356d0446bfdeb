package uiloop

import "fyne.io/fyne/v2"

// Do and DoAndWait hand work to the UI goroutine. Fyne's test driver runs
// such work at once on the calling goroutine, so window tests swap in
// versions that serialize it with their own UI actions.
var (
	Do        = fyne.Do
	DoAndWait = fyne.DoAndWait
)
