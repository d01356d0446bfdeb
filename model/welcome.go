package model

import "slices"

// WelcomeInfo is what the first screen of an empty conversation says: the
// folder the agent works in, the model and agent in use, the folder's
// recent sessions and the main keys.
type WelcomeInfo struct {
	// Folder is the working folder's name; FolderPath the whole of it as
	// shown (the home folder as ~).
	Folder, FolderPath string
	// Model is the model's display name, Agent the agent's name and
	// program; empty while the agent has not said.
	Model, Agent string
	// Recent are the folder's sessions, newest first, once RecentLoaded.
	Recent       []SessionRow
	RecentLoaded bool
	// Keys are pairs of a key and what it does.
	Keys [][2]string
	// Note is news worth a line of its own, such as a model just
	// connected; empty for none.
	Note string
}

// Equal reports whether w and o say the same.
func (w WelcomeInfo) Equal(o WelcomeInfo) bool {
	return w.Folder == o.Folder && w.FolderPath == o.FolderPath && w.Model == o.Model && w.Agent == o.Agent &&
		w.RecentLoaded == o.RecentLoaded && slices.Equal(w.Recent, o.Recent) && slices.Equal(w.Keys, o.Keys) && w.Note == o.Note
}
