// Package assets holds the resources compiled into the binary, so the app
// needs no files beside the executable to show its icon.
package assets

import (
	_ "embed"

	"fyne.io/fyne/v2"
)

//go:embed icon.png
var iconPNG []byte

// Icon is the application icon, rendered from icon.svg at 512×512.
// Regenerate it with: rsvg-convert -w 512 -h 512 icon.svg -o icon.png
var Icon fyne.Resource = fyne.NewStaticResource("icon.png", iconPNG)
