package kit

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// LookStamp identifies the look a cached layout was made with; when it
// changes, sizes and colours must be resolved again.
type LookStamp struct {
	th      fyne.Theme
	variant fyne.ThemeVariant
	text    float32
}

// LookStampOf is the look th and the current theme variant make now.
func LookStampOf(th fyne.Theme) LookStamp {
	return LookStamp{th: th, variant: lookVariant(), text: th.Size(theme.SizeNameText)}
}

func lookVariant() fyne.ThemeVariant {
	if a := fyne.CurrentApp(); a != nil {
		return a.Settings().ThemeVariant()
	}
	return theme.VariantDark
}

// ResolveColor resolves a colour name for the variant in use.
func ResolveColor(th fyne.Theme, name fyne.ThemeColorName) color.Color {
	return th.Color(name, lookVariant())
}

// WithAlpha fades a theme colour, for tints that must work on both light
// and dark backgrounds.
func WithAlpha(c color.Color, a uint8) color.Color {
	n := color.NRGBAModel.Convert(c).(color.NRGBA)
	n.A = a
	return n
}

// Tint is c at alpha a: a background that takes the hue of a theme colour
// and works on light and dark backgrounds alike.
func Tint(c color.Color, a uint8) color.Color {
	n := color.NRGBAModel.Convert(c).(color.NRGBA)
	n.A = a
	return n
}
