package markdown

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"knightcode.ai/desktop/widgets/widgettest"
)

// BenchmarkTextFlowRelayout lays a 4 KB paragraph out again, as each
// streamed update does for the growing last paragraph of a reply.
func BenchmarkTextFlowRelayout(b *testing.B) {
	widgettest.NewTestApp(b)
	text := strings.Repeat("The handler in pkg/handler.go reads the request, checks the session token and writes a reply. ", 44)
	f := NewPlainFlow(text, fyne.TextStyle{}, "", "")
	b.ResetTimer()
	for range b.N {
		f.SetSpans(f.Spans)
		f.LayoutAt(720)
	}
}
