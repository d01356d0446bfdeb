// Package uiloop owns how and when work reaches Fyne's UI goroutine for a
// tab: handing it over (Do, DoAndWait: widgets/kit's one route there),
// timers that tick only while needed, a tab's cancellable background
// workers, redraws coalesced to one per frame, and a probe that says when a
// frame was painted.
//
// It imports Fyne, widgets/kit and the standard library only; it knows
// nothing of sessions or agents.
package uiloop
