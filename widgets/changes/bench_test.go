package changes

import (
	"testing"

	"fyne.io/fyne/v2"
)

// BenchmarkDiffViewSet20k is the cost of showing a 20,000-line diff: Set,
// a layout, and one scroll to its middle, highlighting included (the test
// driver lexes in place).
func BenchmarkDiffViewSet20k(b *testing.B) {
	d := goDiff(20000)
	v, _ := showDiff(b, Diff{})
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		v.Set(d)
		v.Resize(fyne.NewSize(800, 601+float32(i%2)))
		v.ScrollTo(0, v.body.MinSize().Height/2)
	}
}
