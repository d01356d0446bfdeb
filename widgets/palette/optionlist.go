package palette

import (
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
	"knightcode.ai/desktop/widgets/kit"
)

// OptionList is a list of one-line options to pick one from, in a dialog:
// nothing is picked until the user picks, Up and Down (then Page Up/Down,
// Home, End) move the pick — the first press picks the first option —,
// Enter or a double click chooses the picked option, Esc cancels the
// dialog.
type OptionList struct {
	widget.BaseWidget

	// OnSelect follows the pick; OnChoose is Enter or a double click.
	OnSelect func(i int)
	OnChoose func(i int)
	Keys     *kit.DialogKeys

	options []string
	list    *kit.KeyList
}

// NewOptionList returns a list of options with none picked.
func NewOptionList(options []string, keys *kit.DialogKeys) *OptionList {
	o := &OptionList{options: slices.Clone(options), Keys: keys}
	o.list = kit.NewKeyList(func() int { return len(o.options) },
		func() fyne.CanvasObject { return newOptionRow(o.list) },
		func(id widget.ListItemID, obj fyne.CanvasObject) {
			if id >= 0 && id < len(o.options) {
				obj.(*optionRow).Set(id, o.options[id])
			}
		})
	o.list.NoSelectOnFocus = true
	o.list.OnSelect = func(id widget.ListItemID) {
		if o.OnSelect != nil {
			o.OnSelect(id)
		}
	}
	o.list.OnActivate = func(id widget.ListItemID) {
		if o.OnChoose != nil {
			o.OnChoose(id)
		}
	}
	o.list.OnEscape = func() { o.Keys.Escape() }
	o.ExtendBaseWidget(o)
	return o
}

// SetOptions replaces the options, with none picked (a folder chooser
// going into a folder).
func (o *OptionList) SetOptions(options []string) {
	o.options = slices.Clone(options)
	o.list.Reset(-1)
	o.list.ScrollToTop()
}

// Selected is the picked option's index, or -1.
func (o *OptionList) Selected() int { return o.list.Sel }

// Focus puts the keyboard in the list.
func (o *OptionList) Focus(c fyne.Canvas) {
	if c != nil {
		c.Focus(o.list)
	}
}

// Focusable is what takes the focus, for a dialog that focuses it itself.
func (o *OptionList) Focusable() fyne.Focusable { return o.list }

// CreateRenderer shows the list.
func (o *OptionList) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(o.list)
}

// optionRow is one option: its text on one line.
type optionRow struct {
	widget.BaseWidget
	kit.KeyRow
	label *widget.Label
}

func newOptionRow(l *kit.KeyList) *optionRow {
	r := &optionRow{KeyRow: kit.KeyRow{List: l}, label: widget.NewLabel("")}
	r.label.Truncation = fyne.TextTruncateEllipsis
	r.ExtendBaseWidget(r)
	return r
}

func (r *optionRow) Set(id widget.ListItemID, text string) {
	r.Id = id
	r.label.SetText(text)
}

func (r *optionRow) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(r.label)
}
