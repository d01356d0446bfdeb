// Package sessions is for finding one's way through sessions: the
// SessionBrowser (this folder's or all sessions, newest first, searchable)
// and the SessionTree of a session's branches with fork points.
//
// It may import Fyne, model and widgets/kit.
package sessions
