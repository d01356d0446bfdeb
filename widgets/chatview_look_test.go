package widgets

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

func TestChatViewLooks(t *testing.T) {
	for _, tc := range []struct {
		name string
		th   fyne.Theme
	}{{"light", mdLightTheme()}, {"dark", mdDarkTheme()}} {
		t.Run(tc.name, func(t *testing.T) {
			a := newMDTestApp(t)
			a.Settings().SetTheme(tc.th)
			cv := NewChatView()
			w := test.NewTempWindow(t, cv)
			w.Resize(fyne.NewSize(760, 2300))
			cv.SetItems(sampleTranscript())
			writeLookPNG(t, w, "chat_"+tc.name+".png")
		})
	}
}
