package widgettest

import (
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
)

// fixedVariant pins the default theme to light or dark: the test app
// reports a variant that is neither, and golden masters must not depend
// on the machine's preference.
type fixedVariant struct {
	fyne.Theme
	variant fyne.ThemeVariant
}

func (f *fixedVariant) Color(n fyne.ThemeColorName, _ fyne.ThemeVariant) color.Color {
	return f.Theme.Color(n, f.variant)
}

// InVariant is the default theme, always in variant v.
func InVariant(v fyne.ThemeVariant) fyne.Theme {
	return &fixedVariant{Theme: theme.DefaultTheme(), variant: v}
}

// LightTheme is the default theme, always light.
func LightTheme() fyne.Theme { return InVariant(theme.VariantLight) }

// DarkTheme is the default theme, always dark.
func DarkTheme() fyne.Theme { return InVariant(theme.VariantDark) }

// NewTestApp starts a test app in the light theme.
func NewTestApp(t testing.TB) fyne.App {
	a := test.NewTempApp(t)
	a.Settings().SetTheme(LightTheme())
	return a
}

// WriteLookPNG saves what a window shows when KC_PNG_DIR is set, for a person
// to look at; tests never depend on it.
func WriteLookPNG(t *testing.T, w fyne.Window, name string) {
	dir := os.Getenv("KC_PNG_DIR")
	if dir == "" {
		return
	}
	f, err := os.Create(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, w.Canvas().Capture()); err != nil {
		t.Fatal(err)
	}
}
