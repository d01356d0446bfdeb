package changes

import "image/color"

// isDark says whether a background colour is dark.
func isDark(bg color.Color) bool {
	r, g, b, _ := bg.RGBA()
	return 0.299*float64(r)+0.587*float64(g)+0.114*float64(b) < 0x8000
}
