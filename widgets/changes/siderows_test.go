package changes

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
)

func TestSideRowsPairRemovedWithAdded(t *testing.T) {
	kinds := " ---+ +@\\"
	lines := make([]Line, len(kinds))
	for i := range kinds {
		lines[i].Kind = kinds[i]
	}
	got := fmt.Sprint(sideRows(lines))
	want := "[{0 0} {1 4} {2 -1} {3 -1} {5 5} {-1 6} {7 7} {8 8}]"
	if got != want {
		t.Fatalf("rows %s, want %s", got, want)
	}
}

func TestDiffViewSideBySide(t *testing.T) {
	d := goDiff(20000)
	d.Lines[8].Text = strings.Repeat("long ", 200) // an added line wider than its half
	v, _ := showDiff(t, d)
	v.SetSideBySide(true)
	if !v.SideBySide() || v.rowCount() >= len(v.lines) {
		t.Fatalf("side by side: %d rows for %d lines", v.rowCount(), len(v.lines))
	}
	half := v.Size().Width / 2
	// Row 5 pairs the first removed line (5) with the first added one (8).
	var left, right []string
	for _, o := range v.body.objects {
		tx, ok := o.(*canvas.Text)
		if !ok || tx.Position().Y != v.body.LineTop(5)+1 {
			continue
		}
		if tx.Position().X < half {
			left = append(left, tx.Text)
		} else {
			right = append(right, tx.Text)
			if end := tx.Position().X + tx.Size().Width; end > v.Size().Width {
				t.Errorf("%.20q ends at %v, past the view's %v", tx.Text, end, v.Size().Width)
			}
		}
	}
	if strings.Join(left, "|") != "-|5|return|\"old\"" || !strings.HasPrefix(strings.Join(right, "|"), "+|5|long long") {
		t.Errorf("row 5 shows %q on the left and %q on the right", left, right)
	}
	if n := liveObjects(v); n > 600 {
		t.Errorf("side by side, %d live objects for a 20,000-line diff", n)
	}
	v.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEnd})
	if n := liveObjects(v); n > 600 {
		t.Errorf("side by side at the end, %d live objects", n)
	}
	// Selecting the paired row copies both its lines.
	v.TypedKey(&fyne.KeyEvent{Name: fyne.KeyHome})
	v.body.MouseDown(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: fyne.NewPos(10, v.body.LineTop(5)+2)}, Button: desktop.MouseButtonPrimary})
	if got := v.SelectedText(); !strings.HasPrefix(got, "-\treturn \"old\"\n") || !strings.Contains(got, "+long long") || strings.Count(got, "\n") != 4 {
		t.Errorf("the paired row copies %.80q", got)
	}
	v.SetSideBySide(false)
	if v.rowCount() != len(v.lines) || v.body.MinSize().Width <= v.Size().Width {
		t.Errorf("back to one column: %d rows, %v wide", v.rowCount(), v.body.MinSize().Width)
	}
}
