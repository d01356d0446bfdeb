package widgets

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
)

// longMarkdownReply builds a reply of about size bytes that looks like a coding
// agent's answer: sections of prose, lists, code and tables.
func longMarkdownReply(size int) string {
	var sb strings.Builder
	for i := 0; sb.Len() < size; i++ {
		fmt.Fprintf(&sb, "## Step %d: update the `handler%d` module\n\n", i, i)
		fmt.Fprintf(&sb, "The **handler** in `pkg/handler%d.go` reads the request, checks the *session* token and "+
			"writes a reply. See [the design notes](https://example.com/notes/%d) for why it keeps ~~a cache~~ no cache. "+
			"This paragraph is long enough to wrap over a few lines in a typical chat pane width.\n\n", i, i)
		sb.WriteString("- validate the input early\n- return typed errors\n  - wrap them with context\n- [x] add tests\n\n")
		fmt.Fprintf(&sb, "```go\nfunc Handle%d(w http.ResponseWriter, r *http.Request) {\n", i)
		for j := 0; j < 12; j++ {
			fmt.Fprintf(&sb, "\tif err := step%d(r); err != nil {\n\t\thttp.Error(w, err.Error(), 500)\n\t\treturn\n\t}\n", j)
		}
		sb.WriteString("}\n```\n\n")
		sb.WriteString("| Case | Input | Expected |\n|---|---|---|\n")
		for j := 0; j < 4; j++ {
			fmt.Fprintf(&sb, "| case %d | `%d` | ok |\n", j, j*i)
		}
		sb.WriteString("\n> Note: keep the handler small.\n\n")
	}
	return sb.String()
}

// streamCuts cuts s into n pieces of random length, like model tokens.
func streamCuts(s string, n int, seed int64) []int {
	r := rand.New(rand.NewSource(seed))
	cuts := make([]int, 0, n)
	avg := len(s) / n
	for i := 0; len(cuts) < n-1; {
		i += 1 + r.Intn(2*avg-1)
		if i >= len(s) {
			break
		}
		cuts = append(cuts, i)
	}
	return append(cuts, len(s))
}

// BenchmarkMarkdownStreaming streams a ~500 KB reply in 50,000 deltas and
// renders every 100th, as a 60 Hz refresh would during fast streaming.
// ns/update should not grow with the document: compare early and late.
// The plain variant leaves code unhighlighted: lexing each of the reply's
// ~200 code blocks once, when its fence closes, is most of the rest.
func BenchmarkMarkdownStreaming(b *testing.B) {
	newMDTestApp(b)
	doc := longMarkdownReply(500 * 1024)
	cuts := streamCuts(doc, 50000, 1)
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
