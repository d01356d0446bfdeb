package widgets

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"knightcode.ai/desktop/model"
)

// elapsedText is how long a tool call took or has been running. A running
// call shows whole seconds, since the ticker only refreshes once a second.
func elapsedText(c model.ToolCard, now time.Time) string {
	return formatElapsed(c.Started, c.Ended, now)
}

// formatElapsed is how long something took, or has taken so far at now
// when ended is zero: "1.4s" (tenths only once finished and under 10 s),
// "42s", "3m 05s", "1h 02m"; "" when it has no start.
func formatElapsed(started, ended, now time.Time) string {
	if started.IsZero() {
		return ""
	}
	end := ended
	running := end.IsZero()
	if running {
		end = now
	}
	d := max(end.Sub(started), 0)
	switch {
	case d < 10*time.Second && !running:
		return fmt.Sprintf("%.1fs", d.Seconds())
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d/time.Second))
	case d < time.Hour:
		return fmt.Sprintf("%dm %02ds", int(d/time.Minute), int(d%time.Minute/time.Second))
	}
	return fmt.Sprintf("%dh %02dm", int(d/time.Hour), int(d%time.Hour/time.Minute))
}

// groupedInt writes n with thousands separators: 12,345.
func groupedInt(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// byteSize writes a byte count for people: 512 B, 12.3 KB, 4.0 MB.
func byteSize(n int) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d B", n)
	case n < 1000*1000:
		return fmt.Sprintf("%.1f KB", float64(n)/1000)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/1000/1000)
}

// fitText shortens s with a trailing "…" so it is no wider than width when
// drawn at size in style. canvas.Text cannot truncate itself.
func fitText(s string, width, size float32, style fyne.TextStyle) string {
	if s == "" || fyne.MeasureText(s, size, style).Width <= width {
		return s
	}
	r := []rune(s)
	lo, hi := 0, len(r) // r[:lo]+"…" fits; r[:hi]+"…" does not, or hi is len
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if fyne.MeasureText(string(r[:mid])+"…", size, style).Width <= width {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	if lo == 0 {
		return "…"
	}
	return strings.TrimRight(string(r[:lo]), " ") + "…"
}

// fittedText remembers the last fitText result, so a layout pass that
// changes nothing (an output update) measures no text.
type fittedText struct {
	text, fitted string
	width, size  float32
	style        fyne.TextStyle
}

// fit returns s on one line, shortened to width.
func (f *fittedText) fit(s string, width, size float32, style fyne.TextStyle) string {
	if s != f.text || width != f.width || size != f.size || style != f.style {
		*f = fittedText{s, fitText(oneLine(s), width, size, style), width, size, style}
	}
	return f.fitted
}

// oneLine folds line breaks so a multi-line value fits a one-line label.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\r\n\t") {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// wrapCommand cuts a command into rows of at most cols characters, at most
// maxRows of them (the last then ends in "…"): its own lines, each broken
// after a space where one falls in the row's second half, else anywhere.
// Tabs become spaces first, so the rows keep their width.
func wrapCommand(s string, cols, maxRows int) []string {
	cols = max(cols, 1)
	s = strings.ReplaceAll(s, "\r\n", "\n")
	var rows []string
	for _, line := range strings.Split(s, "\n") {
		if strings.ContainsRune(line, '\t') {
			line = expandTabs(line)
		}
		r := []rune(line)
		for {
			if len(rows) == maxRows {
				rows[maxRows-1] = strings.TrimRight(rows[maxRows-1], " ") + "…"
				return rows
			}
			if len(r) <= cols {
				rows = append(rows, string(r))
				break
			}
			cut := cols
			for i := cols; i > cols/2; i-- {
				if r[i-1] == ' ' {
					cut = i
					break
				}
			}
			rows = append(rows, string(r[:cut]))
			r = r[cut:]
		}
	}
	return rows
}

// expandTabs turns tabs into spaces up to the next multiple of four.
func expandTabs(s string) string {
	var b strings.Builder
	col := 0
	for _, c := range s {
		if c == '\t' {
			n := monoTabWidth - col%monoTabWidth
			b.WriteString("    "[:n])
			col += n
			continue
		}
		b.WriteRune(c)
		col++
	}
	return b.String()
}
