package widgets

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// Wrapped text has no fixed height: it depends on the width it is given.
// Fyne's MinSize has no width argument, so the widgets here also answer
// heightAt(width), which lets a parent measure a child for the width it
// is about to give it instead of resizing twice and hoping it settles.
type heightForWidth interface {
	heightAt(width float32) float32
}

// objHeightAt measures any object for a width; plain Fyne widgets do not
// wrap, so their MinSize is the answer.
func objHeightAt(o fyne.CanvasObject, width float32) float32 {
	if h, ok := o.(heightForWidth); ok {
		return h.heightAt(width)
	}
	return o.MinSize().Height
}

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
