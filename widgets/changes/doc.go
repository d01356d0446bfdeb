// Package changes holds the Fyne widgets of the changes pane: the list of
// files a folder has changed (FileList) and one file's diff (DiffView).
// They take plain data and report what the user does through callbacks;
// they know nothing of git or of the model: app/ converts into them.
// It may import Fyne, widgets/kit and widgets/markdown.
package changes
