package uiloop

import "knightcode.ai/desktop/widgets/kit"

// Do and DoAndWait hand work to the UI goroutine, through kit's one route
// there (which window tests replace with kit.SetDriver).
func Do(f func()) { kit.Do(f) }

// DoAndWait hands f over and waits for it; never call it from a Fyne
// callback.
func DoAndWait(f func()) { kit.DoAndWait(f) }
