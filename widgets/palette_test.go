package widgets

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"knightcode.ai/desktop/model"
)

func newTestPalette(t *testing.T) (*CommandPalette, fyne.Canvas, *[]string) {
	test.NewTempApp(t)
	p := NewCommandPalette()
	p.SetItems(samplePalette())
	var ran []string
	p.OnRun = func(it model.PaletteItem) { ran = append(ran, it.ID) }
	w := test.NewTempWindow(t, widget.NewLabel("window"))
	w.Resize(fyne.NewSize(800, 560))
	return p, w.Canvas(), &ran
}

func TestCommandPaletteLooks(t *testing.T) {
	p, c, _ := newTestPalette(t)
	p.Show(c)
	test.AssertRendersToMarkup(t, "palette/open.xml", c)
	typeFocused(t, c, "se")
	test.AssertRendersToMarkup(t, "palette/filtered.xml", c)
	typeFocused(t, c, "zzz")
	test.AssertRendersToMarkup(t, "palette/no_match.xml", c)
}

func TestCommandPaletteKeyboard(t *testing.T) {
	p, c, ran := newTestPalette(t)
	p.Show(c)
	if !p.Showing() || c.Focused() != p.panel.entry {
		t.Fatalf("showing %v, focus %T", p.Showing(), c.Focused())
	}
	// Typing filters and starts at the best match; Up at the top stays.
	typeFocused(t, c, "se")
	pressKey(t, c, fyne.KeyUp)
	pressKey(t, c, fyne.KeyDown)
	pressKey(t, c, fyne.KeyReturn)
	if len(*ran) != 1 || (*ran)[0] != "new" || p.Showing() {
		t.Fatalf("ran %v, showing %v", *ran, p.Showing())
	}

	// It opens afresh: empty filter, first command, keyboard in the box.
	p.Show(c)
	if p.panel.entry.Text != "" || len(p.hits) != len(samplePalette()) || p.panel.list.sel != 0 {
		t.Fatalf("reopened with %q, %d hits, selected %d", p.panel.entry.Text, len(p.hits), p.panel.list.sel)
	}
	pressKey(t, c, fyne.KeyPageDown)
	pressKey(t, c, fyne.KeyEscape)
	if p.Showing() || len(*ran) != 1 {
		t.Fatalf("Esc: showing %v, ran %v", p.Showing(), *ran)
	}

	// A second Ctrl+K closes it.
	p.Show(c)
	c.Focused().(fyne.Shortcutable).TypedShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyK, Modifier: fyne.KeyModifierShortcutDefault})
	if p.Showing() {
		t.Fatal("Ctrl+K left the palette open")
	}

	// Nothing matches: Enter runs nothing and the palette stays.
	p.Show(c)
	typeFocused(t, c, "zzz")
	pressKey(t, c, fyne.KeyReturn)
	if !p.Showing() || len(*ran) != 1 || p.panel.empty.Hidden {
		t.Fatalf("no match: showing %v, ran %v", p.Showing(), *ran)
	}

	// Tab reaches the list; typing there goes back to the filter.
	p.panel.entry.SetText("")
	c.FocusNext()
	if c.Focused() != p.panel.list {
		t.Fatalf("Tab focused %T", c.Focused())
	}
	pressKey(t, c, fyne.KeyDown)
	typeFocused(t, c, "tree")
	if c.Focused() != p.panel.entry || p.panel.entry.Text != "tree" {
		t.Fatalf("typing in the list: focus %T, filter %q", c.Focused(), p.panel.entry.Text)
	}
	pressKey(t, c, fyne.KeyEnter)
	if len(*ran) != 2 || (*ran)[1] != "tree" {
		t.Fatalf("ran %v", *ran)
	}
}

func TestCommandPaletteClick(t *testing.T) {
	p, c, ran := newTestPalette(t)
	p.Show(c)
	typeFocused(t, c, "model")
	for _, o := range test.LaidOutObjects(p.panel.list) {
		if r, ok := o.(*paletteRow); ok && r.Visible() && r.item.ID == "model" {
			test.Tap(r)
		}
	}
	if len(*ran) != 1 || (*ran)[0] != "model" || p.Showing() {
		t.Fatalf("click ran %v, showing %v", *ran, p.Showing())
	}
}
