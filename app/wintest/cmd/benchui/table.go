package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"knightcode.ai/desktop/app/wintest"
)

// row is a line of the results table and of results.json. Section is the
// number of the target in issue 9's "Benchmarks" list as the table groups
// them (1 focused idle, 2 idle after the last input, 3 streaming, 4 RSS,
// 5 huge word and line, 6 opening the 12,000-entry session, 7 keypress);
// rows with Target "-" are context for reading the others.
type row struct {
	Section        string
	Phase          string
	Metric         string
	Target         string
	Measured       string
	FloorFocused   string // the bare window with a focused Entry, same run
	FloorUnfocused string // the bare window, unfocused, same run
	Verdict        string // ok, MISS or -
}

func (b *bench) add(section, metric, target, measured, floorFocused, floorUnfocused, verdict string) {
	b.rows = append(b.rows, row{section, b.phase, metric, target, measured, floorFocused, floorUnfocused, verdict})
}

// info adds a row without a target.
func (b *bench) info(section, metric, measured, floorFocused, floorUnfocused string) {
	b.add(section, metric, "-", measured, floorFocused, floorUnfocused, "-")
}

func verdict(ok bool) string {
	if ok {
		return "ok"
	}
	return "MISS"
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond)) }
func secs(d time.Duration) string {
	return fmt.Sprintf("%.2f s", d.Seconds())
}
func mb(n int64) string    { return fmt.Sprintf("%.0f MB", float64(n)/1e6) }
func pct(f float64) string { return fmt.Sprintf("%.1f %%", 100*f) }

// cpu is a process figure with its main thread's.
func cpu(u wintest.Usage) string {
	return fmt.Sprintf("%s (main %s)", pct(u.ProcessFrac()), pct(u.MainFrac()))
}

// points is a - b in percentage points of a core.
func points(a, b wintest.Usage) float64 { return (a.ProcessFrac() - b.ProcessFrac()) * 100 }

func (b *bench) print() {
	fmt.Println()
	fmt.Println("== results (targets are for reading, nothing here fails)")
	head := row{"#", "", "metric", "target", "measured", "floor focused", "floor unfocused", "verdict"}
	cells := func(r row) []string {
		return []string{r.Section, r.Metric, r.Target, r.Measured, r.FloorFocused, r.FloorUnfocused, r.Verdict}
	}
	widths := make([]int, len(cells(head)))
	for _, r := range append([]row{head}, b.rows...) {
		for i, c := range cells(r) {
			widths[i] = max(widths[i], len([]rune(c)))
		}
	}
	line := func(r row) {
		var sb strings.Builder
		for i, c := range cells(r) {
			sb.WriteString(c)
			if i < len(widths)-1 {
				sb.WriteString(strings.Repeat(" ", widths[i]-len([]rune(c))+2))
			}
		}
		fmt.Println(strings.TrimRight(sb.String(), " "))
	}
	slices.SortStableFunc(b.rows, func(a, c row) int { return strings.Compare(a.Section, c.Section) })
	line(head)
	for _, r := range b.rows {
		line(r)
	}
	misses, targets := 0, 0
	for _, r := range b.rows {
		if r.Verdict != "-" {
			targets++
		}
		if r.Verdict == "MISS" {
			misses++
		}
	}
	fmt.Printf("\n%d of %d targets missed\n", misses, targets)
	fmt.Print(`
Reading the figures:
- CPU is utime+stime from /proc over wall time, in % of one core; "main" is
  the OS thread Fyne's event loop and GL painting run on. The rest of a
  window's CPU is Mesa's llvmpipe threads (rasterising each repaint) and Go's
  other threads.
- floor focused: a bare Fyne window whose multi-line Entry is focused (its
  cursor blinks), on a display of its own so that it is focused while the
  app is; floor unfocused: a bare window with a Label. Both run the whole
  time: each figure's floor was measured over the same seconds.
- focused idle: measured from 1 s after an input (a key and BackSpace) for
  -idle; "after the last input": from 12 s after one, for -quiet.
- keypress: from an XTEST key press, sent from this process, to the
  "editor" trace mark. Fyne 2.7 polls input on a 60 Hz ticker, so a key
  waits 0-16.7 ms for the next poll: the floor shows that.
- last delta: when the pacer (benchui in front of the fake agent) wrote the
  reply's last text delta into the app's pipe. On screen: the first "draw"
  trace mark whose frame holds the reply's whole text.
- painted: until a strip of the chat column, blank before, shows text
  (GetImage polling every few ms).
- Other work on the machine skews everything: see the load averages.
`)
	if js, err := json.MarshalIndent(b.rows, "", "  "); err == nil {
		os.WriteFile(filepath.Join(b.out, "results.json"), js, 0o644)
	}
}
