package widgets

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

// mdFixedVariant pins the default theme to light or dark: the test app
// reports a variant that is neither, and golden masters must not depend
// on the machine's preference.
type mdFixedVariant struct {
	fyne.Theme
	variant fyne.ThemeVariant
}

func (f *mdFixedVariant) Color(n fyne.ThemeColorName, _ fyne.ThemeVariant) color.Color {
	return f.Theme.Color(n, f.variant)
}

func mdLightTheme() fyne.Theme {
	return &mdFixedVariant{Theme: theme.DefaultTheme(), variant: theme.VariantLight}
}
func mdDarkTheme() fyne.Theme {
	return &mdFixedVariant{Theme: theme.DefaultTheme(), variant: theme.VariantDark}
}

// newMDTestApp starts a test app in the light theme.
func newMDTestApp(t testing.TB) fyne.App {
	a := test.NewTempApp(t)
	a.Settings().SetTheme(mdLightTheme())
	return a
}

// writeLookPNG saves what a window shows when KC_PNG_DIR is set, for a person
// to look at; tests never depend on it.
func writeLookPNG(t *testing.T, w fyne.Window, name string) {
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
