package app

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// appTheme applies the light/dark choice and text size over Fyne's theme.
type appTheme struct {
	base    fyne.Theme
	variant *fyne.ThemeVariant
	scale   float32
}

func newAppTheme(s Settings) fyne.Theme {
	t := &appTheme{base: theme.DefaultTheme(), scale: float32(s.TextScale)}
	if t.scale < 0.5 || t.scale > 3 {
		t.scale = 1
	}
	switch s.Theme {
	case ThemeLight:
		v := theme.VariantLight
		t.variant = &v
	case ThemeDark:
		v := theme.VariantDark
		t.variant = &v
	}
	return t
}

func (t *appTheme) Color(n fyne.ThemeColorName, v fyne.ThemeVariant) color.Color {
	if t.variant != nil {
		v = *t.variant
	}
	return t.base.Color(n, v)
}

func (t *appTheme) Font(s fyne.TextStyle) fyne.Resource { return t.base.Font(s) }

func (t *appTheme) Icon(n fyne.ThemeIconName) fyne.Resource { return t.base.Icon(n) }

func (t *appTheme) Size(n fyne.ThemeSizeName) float32 {
	size := t.base.Size(n)
	switch n {
	case theme.SizeNameText, theme.SizeNameHeadingText, theme.SizeNameSubHeadingText, theme.SizeNameCaptionText:
		return size * t.scale
	}
	return size
}
