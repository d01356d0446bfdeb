package prompt

import (
	"fmt"
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"knightcode.ai/desktop/widgets/widgettest"
)

func TestExtensionBlocks(t *testing.T) {
	test.NewTempApp(t)
	above, below := NewExtensionBlocks(), NewExtensionBlocks()
	w := test.NewTempWindow(t, container.NewVBox(above, widget.NewLabel("editor"), below))
	w.Resize(fyne.NewSize(480, 520))
	if above.Visible() {
		t.Fatal("empty blocks shown")
	}

	var long []string
	for i := 1; i <= 14; i++ {
		long = append(long, fmt.Sprintf("line %d of a long block", i))
	}
	above.Set("zeta", []string{"git: main ↑2 ↓0", "<b>not markup</b> & \x1b[31mno escapes\x1b[0m\tok"})
	above.Set("alpha", long)
	above.Set("mid", []string{"ten lines fit: 1", "2", "3", "4", "5", "6", "7", "8", "9", "10"})
	below.Set("todo", []string{"TODO: a line so long that it cannot fit the width of the window and must be cut short at the edge"})
	if got := above.Keys(); !slices.Equal(got, []string{"alpha", "mid", "zeta"}) {
		t.Fatalf("keys %q", got)
	}
	w.Content().Refresh()
	test.AssertRendersToMarkup(t, "extblocks/blocks.xml", w.Canvas())

	// Same lines again change nothing; nil and empty remove.
	h := above.MinSize().Height
	above.Set("zeta", []string{"git: main ↑2 ↓0", "<b>not markup</b> & \x1b[31mno escapes\x1b[0m\tok"})
	above.Set("alpha", nil)
	above.Set("absent", nil)
	if got := above.Keys(); !slices.Equal(got, []string{"mid", "zeta"}) || above.MinSize().Height >= h {
		t.Fatalf("after removing alpha: keys %q, height %v (was %v)", got, above.MinSize().Height, h)
	}
	above.Set("mid", []string{})
	above.Set("zeta", nil)
	below.Set("todo", nil)
	if above.Visible() || below.Visible() {
		t.Fatal("blocks shown with no lines")
	}
	w.Content().Refresh()
	test.AssertRendersToMarkup(t, "extblocks/empty.xml", w.Canvas())
}

func TestExtensionBlocksShots(t *testing.T) {
	widgettest.SaveShots(t, "extblocks", fyne.NewSize(560, 420), func() fyne.CanvasObject {
		above, below := NewExtensionBlocks(), NewExtensionBlocks()
		var long []string
		for i := 1; i <= 14; i++ {
			long = append(long, fmt.Sprintf("[%02d] test ./widgets ... ok", i))
		}
		above.Set("a-tests", long)
		above.Set("b-git", []string{"git: main ↑2 ↓0 · 3 files changed", "<b>plain</b> & \x1b[31mno escapes\x1b[0m"})
		below.Set("todo", []string{"TODO: a line so long that it cannot fit the width of the window and must be cut short at the edge"})
		e := widget.NewMultiLineEntry()
		e.SetText("Draft")
		return container.NewVBox(above, e, below)
	})
}
