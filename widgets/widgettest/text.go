package widgettest

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
)

// TypeFocused types into whatever has the keyboard, as the window does;
// test.Type would pick the receiver itself.
func TypeFocused(t *testing.T, c fyne.Canvas, s string) {
	t.Helper()
	f := c.Focused()
	if f == nil {
		t.Fatalf("nothing focused to type %q into", s)
	}
	for _, r := range s {
		c.Focused().TypedRune(r)
	}
}

func PressKey(t *testing.T, c fyne.Canvas, k fyne.KeyName) {
	t.Helper()
	f := c.Focused()
	if f == nil {
		t.Fatalf("nothing focused to press %s on", k)
	}
	f.TypedKey(&fyne.KeyEvent{Name: k})
}

// LongMarkdownReply builds a reply of about size bytes that looks like a coding
// agent's answer: sections of prose, lists, code and tables.
func LongMarkdownReply(size int) string {
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

// StreamCuts cuts s into n pieces of random length, like model tokens.
func StreamCuts(s string, n int, seed int64) []int {
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

func MarkupDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) && i < len(g); i++ {
		if w[i] != g[i] {
			return fmt.Sprintf("line %d:\nwant %s\ngot  %s", i+1, w[i], g[i])
		}
	}
	return fmt.Sprintf("lengths differ: want %d lines, got %d", len(w), len(g))
}

// LongAnswer is a markdown reply of n words shaped like a model's long
// answer: headed sections of paragraphs, with lists and code blocks.
func LongAnswer(n int) string {
	r := rand.New(rand.NewSource(9))
	vocab := strings.Fields("the handler request response buffer connection pool close defer error value " +
		"server client timeout retry context cancel stream token model reply test fixture layout width " +
		"line paragraph window scroll render texture object frame cost session entry")
	var b strings.Builder
	words := 0
	word := func() string { return vocab[r.Intn(len(vocab))] }
	for section := 1; words < n; section++ {
		fmt.Fprintf(&b, "## Section %d\n\n", section)
		for p := 0; p < 6 && words < n; p++ {
			k := 40 + r.Intn(80)
			for i := 0; i < k; i++ {
				if i > 0 {
					b.WriteByte(' ')
				}
				w := word()
				switch r.Intn(40) {
				case 0:
					w = "**" + w + "**"
				case 1:
					w = "`" + w + "()`"
				}
				b.WriteString(w)
			}
			words += k
			b.WriteString(".\n\n")
			if p == 2 {
				for i := 0; i < 5; i++ {
					fmt.Fprintf(&b, "- %s %s %s\n", word(), word(), word())
					words += 3
				}
				b.WriteString("\n")
			}
			if p == 4 && section%2 == 0 {
				b.WriteString("```go\n")
				for i := 0; i < 10; i++ {
					fmt.Fprintf(&b, "\t%s := %s(%s)\n", word(), word(), word())
					words += 3
				}
				b.WriteString("```\n\n")
			}
		}
	}
	return b.String()
}
