package chat

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"knightcode.ai/desktop/widgets/widgettest"
)

func TestChatViewLooks(t *testing.T) {
	for _, tc := range []struct {
		name string
		th   fyne.Theme
	}{{"light", widgettest.LightTheme()}, {"dark", widgettest.DarkTheme()}} {
		t.Run(tc.name, func(t *testing.T) {
			a := widgettest.NewTestApp(t)
			a.Settings().SetTheme(tc.th)
			cv := NewChatView()
			w := test.NewTempWindow(t, cv)
			w.Resize(fyne.NewSize(760, 2300))
			cv.SetItems(sampleTranscript())
			widgettest.WriteLookPNG(t, w, "chat_"+tc.name+".png")

			// Narrow, scrolled to the end, with the thinking block open.
			w.Resize(fyne.NewSize(430, 900))
			test.Tap(cv.views.get("a1").view.(*replyView).parts[0].obj.(*thinkingView))
			cv.ScrollToBottom()
			widgettest.WriteLookPNG(t, w, "chat_narrow_"+tc.name+".png")
		})
	}
}
