package markdown

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"knightcode.ai/desktop/widgets/widgettest"
)

func TestMarkdownLooks(t *testing.T) {
	for _, tc := range []struct {
		name string
		th   fyne.Theme
	}{{"light", widgettest.LightTheme()}, {"dark", widgettest.DarkTheme()}} {
		t.Run(tc.name, func(t *testing.T) {
			a := widgettest.NewTestApp(t)
			a.Settings().SetTheme(tc.th)
			m := NewMarkdownView()
			m.SetMarkdown(widgettest.MarkdownDocument)
			w := test.NewTempWindow(t, container.NewVScroll(m))
			w.Resize(fyne.NewSize(640, 1400))
			widgettest.WriteLookPNG(t, w, "markdown_"+tc.name+".png")
		})
	}
}
