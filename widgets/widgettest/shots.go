package widgettest

import (
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
)

// SaveShots renders obj at size in the light and the dark theme into
// $KC_SHOTS/<name>-light.png and -dark.png, for a person to look at. Without
// KC_SHOTS it does nothing.
func SaveShots(t *testing.T, name string, size fyne.Size, build func() fyne.CanvasObject) {
	t.Helper()
	SaveOverlayShots(t, name, size, build, nil)
}

// SaveOverlayShots is SaveShots for pop-ups: show (unless nil) runs once
// the window is up, to open the pop-up on its canvas.
func SaveOverlayShots(t *testing.T, name string, size fyne.Size, build func() fyne.CanvasObject, show func(c fyne.Canvas)) {
	t.Helper()
	dir := os.Getenv("KC_SHOTS")
	if dir == "" {
		return
	}
	for _, v := range []struct {
		name    string
		variant fyne.ThemeVariant
	}{{"light", theme.VariantLight}, {"dark", theme.VariantDark}} {
		a := test.NewTempApp(t)
		a.Settings().SetTheme(InVariant(v.variant))
		w := test.NewTempWindow(t, build())
		w.Resize(size)
		if show != nil {
			show(w.Canvas())
		}
		f, err := os.Create(filepath.Join(dir, name+"-"+v.name+".png"))
		if err != nil {
			t.Fatal(err)
		}
		if err := png.Encode(f, w.Canvas().Capture()); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
}
