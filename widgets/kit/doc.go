// Package kit is what the window's widgets are built from: the app's look
// (colours resolved per theme, tints), widgets that lay themselves out
// (SelfLaying, WidthLaying) and the renderers for them, windowing (only the
// rows near the viewport become objects: RowWindow, WindowedParts,
// DrawnLines), small buttons and tags, lists that answer the keyboard
// (KeyList), the Esc/Enter contract of dialogs (DialogKeys), text fitting
// and wrapping, monospace lines, and the one route to the UI goroutine
// (Do, DoAndWait, After, Later and InBackground for work split over frames
// or moved off it, Tick for the one ticker), which tests swap with one
// SetDriver.
//
// It may import Fyne, the Fyne-free model package and internal/nth; no
// other package of the app. Every widget package imports it.
package kit
