package widgets

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
)

func TestMarkdownLooks(t *testing.T) {
	for _, tc := range []struct {
		name string
		th   fyne.Theme
	}{{"light", mdLightTheme()}, {"dark", mdDarkTheme()}} {
		t.Run(tc.name, func(t *testing.T) {
			a := newMDTestApp(t)
			a.Settings().SetTheme(tc.th)
			m := NewMarkdownView()
			m.SetMarkdown(markdownDocument)
			w := test.NewTempWindow(t, container.NewVScroll(m))
			w.Resize(fyne.NewSize(640, 1400))
			writeLookPNG(t, w, "markdown_"+tc.name+".png")
		})
	}
}
