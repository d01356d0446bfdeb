// Command knightcode-desktop is a native desktop window for the KnightCode coding agent.
package main

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"
	"fyne.io/fyne/v2/widget"

	"knightcode.ai/desktop/assets"

	// Not used yet: imported so go.mod keeps the versions that resolved on
	// this platform until the real window and its dialogs use them.
	_ "github.com/kardianos/osext"
	_ "github.com/sqweek/dialog"
	_ "github.com/yuin/goldmark"
)

func main() {
	a := app.NewWithID("ai.knightcode.desktop")
	a.SetIcon(assets.Icon)
	w := a.NewWindow("KnightCode Desktop")
	w.SetContent(widget.NewLabel("KnightCode Desktop: the main window is coming."))
	w.Resize(fyne.NewSize(900, 640))
	w.ShowAndRun()
}
