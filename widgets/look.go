package widgets

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// lookStamp identifies the look a cached layout was made with; when it
// changes, sizes and colours must be resolved again.
type lookStamp struct {
	th      fyne.Theme
	variant fyne.ThemeVariant
	text    float32
}

func lookStampOf(th fyne.Theme) lookStamp {
	return lookStamp{th: th, variant: lookVariant(), text: th.Size(theme.SizeNameText)}
}

func lookVariant() fyne.ThemeVariant {
	if a := fyne.CurrentApp(); a != nil {
		return a.Settings().ThemeVariant()
	}
	return theme.VariantDark
}

// resolveColor resolves a colour name for the variant in use.
func resolveColor(th fyne.Theme, name fyne.ThemeColorName) color.Color {
	return th.Color(name, lookVariant())
}

// withAlpha fades a theme colour, for tints that must work on both light
// and dark backgrounds.
func withAlpha(c color.Color, a uint8) color.Color {
	n := color.NRGBAModel.Convert(c).(color.NRGBA)
	n.A = a
	return n
}
