package sessions

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// A title cut to fit keeps a fork's edit mark: the fork and its session
// differ only there.
func TestFitTitleKeepsTheEditMark(t *testing.T) {
	test.NewTempApp(t)
	size := float32(14)
	style := fyne.TextStyle{Bold: true}
	long := "Hello, show me some markdown please, with a table and a list"
	for _, mark := range []string{" (edited)", " (edited 3)"} {
		got := fitTitle(long+mark, 220, size, style)
		if !strings.HasSuffix(got, "…"+mark) {
			t.Errorf("cut title %q lost the mark %q", got, mark)
		}
		if w := fyne.MeasureText(got, size, style).Width; w > 220 {
			t.Errorf("%q is %v wide, over 220", got, w)
		}
	}
	if got := fitTitle("Short (edited)", 220, size, style); got != "Short (edited)" {
		t.Errorf("a title that fits was changed to %q", got)
	}
	if got := fitTitle(long+" (note)", 220, size, style); strings.HasSuffix(got, "(note)") {
		t.Errorf("only the edit mark is kept, got %q", got)
	}
}
