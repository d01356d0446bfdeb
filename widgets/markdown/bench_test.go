package markdown

import (
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"knightcode.ai/desktop/widgets/widgettest"
)

// BenchmarkMarkdownStreaming streams a ~500 KB reply in 50,000 deltas and
// renders every 100th, as a 60 Hz refresh would during fast streaming.
// ns/update should not grow with the document: compare early and late.
// The plain variant leaves code unhighlighted: lexing each of the reply's
// ~200 code blocks once, when its fence closes, is most of the rest.
func BenchmarkMarkdownStreaming(b *testing.B) {
	widgettest.NewTestApp(b)
	doc := widgettest.LongMarkdownReply(500 * 1024)
	cuts := widgettest.StreamCuts(doc, 50000, 1)
	for _, hl := range []bool{true, false} {
		name := "highlighted"
		if !hl {
			name = "plain"
		}
		b.Run(name, func(b *testing.B) {
			codeHighlighting = hl
			defer func() { codeHighlighting = true }()
			streamMarkdown(b, doc, cuts)
		})
	}
}

func streamMarkdown(b *testing.B, doc string, cuts []int) {
	var updates int
	var early, late time.Duration
	var nEarly, nLate int
	for n := 0; n < b.N; n++ {
		m := NewMarkdownView()
		m.Resize(fyne.NewSize(720, 600))
		for i := 99; i < len(cuts); i += 100 {
			t0 := time.Now()
			m.SetMarkdown(doc[:cuts[i]])
			m.MinSize()
			d := time.Since(t0)
			updates++
			switch {
			case i < len(cuts)/10:
				early += d
				nEarly++
			case i >= len(cuts)*9/10:
				late += d
				nLate++
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(updates), "ns/update")
	b.ReportMetric(float64(early.Nanoseconds())/float64(max(nEarly, 1)), "ns/update-first10%")
	b.ReportMetric(float64(late.Nanoseconds())/float64(max(nLate, 1)), "ns/update-last10%")
	b.ReportMetric(float64(len(doc)), "bytes")
}
