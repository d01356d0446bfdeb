// Package drafts keeps what the user has not sent yet: each tab's draft
// (editor text, attached images, queued and held messages) on disk beside
// the open tabs, so that a crash, a signal, a closed tab or a dead agent
// loses nothing. It owns the file drafts.json in the folder it is given
// (written debounced and atomically: a temporary file renamed over it),
// the copies of attached images under draft-images/<content-hash>/, and
// the rules for finding a tab's draft again (Claim) and for forgetting
// old ones (60 days, images no draft refers to).
//
// Another process (a second instance of the app) may keep its drafts in
// the same folder: each write merges under a lock file (see mergeLocked).
//
// It imports the standard library and internal/filelock only: no Fyne,
// no model. The window decides when to Set, Close, Claim and Flush.
package drafts
