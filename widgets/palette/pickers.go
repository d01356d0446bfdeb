package palette

import (
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"knightcode.ai/desktop/model"
)

// Capability markers are words: the bundled fonts have no brain glyph
// (U+1F9E0 is missing from Fyne's emoji font) and a lone picture emoji
// beside a word reads worse than two words.
const (
	markReasoning = "thinking"
	markImages    = "images"
)

// ModelPicker chooses the model. Options read "Name · provider · thinking ·
// images". Changes made through SetModels and SetCurrent do not fire
// OnChange; only the user's choice does.
type ModelPicker struct {
	widget.BaseWidget

	OnChange func(model.ModelChoice)

	sel     *widget.Select
	models  []model.ModelChoice
	current model.ModelChoice
	quiet   bool
}

// NewModelPicker returns a picker with no models.
func NewModelPicker() *ModelPicker {
	p := &ModelPicker{}
	p.sel = widget.NewSelect(nil, p.picked)
	p.sel.PlaceHolder = "No model"
	p.ExtendBaseWidget(p)
	return p
}

// SetModels replaces the list of models.
func (p *ModelPicker) SetModels(models []model.ModelChoice) {
	if slices.Equal(p.models, models) {
		return
	}
	p.models = slices.Clone(models)
	labels := make([]string, len(models))
	for i, m := range models {
		labels[i] = modelLabel(m, models)
	}
	p.sel.SetOptions(labels)
	p.show()
}

// SetCurrent shows the model in use without calling OnChange. A model not
// in the list is still shown, by its provider and id, unless the list is
// empty: the picker then says "No model".
func (p *ModelPicker) SetCurrent(provider, id string) {
	p.current = model.ModelChoice{Provider: provider, ID: id}
	for _, m := range p.models {
		if m.Provider == provider && m.ID == id {
			p.current = m
		}
	}
	p.show()
}

// Current returns the model shown.
func (p *ModelPicker) Current() model.ModelChoice { return p.current }

// Open drops the list down, as a click would: for "pick another model".
func (p *ModelPicker) Open() { p.sel.Tapped(&fyne.PointEvent{}) }

func (p *ModelPicker) show() {
	label := ""
	// An agent that lists no model has none to offer, whatever it calls
	// the one it holds (pi without a model says "unknown").
	if p.current.ID != "" && len(p.models) > 0 {
		label = modelLabel(p.current, p.models)
	}
	if p.sel.Selected == label {
		return
	}
	p.quiet = true
	p.sel.Selected = label // not SetSelected: it would call OnChanged
	p.sel.Refresh()
	p.quiet = false
}

func (p *ModelPicker) picked(label string) {
	if p.quiet {
		return
	}
	for _, m := range p.models {
		if modelLabel(m, p.models) == label {
			if m.Provider == p.current.Provider && m.ID == p.current.ID {
				return // picked what was shown
			}
			p.current = m
			if p.OnChange != nil {
				p.OnChange(m)
			}
			return
		}
	}
}

// modelLabel names m in the list. The id is added when another entry has
// the same name and provider, so every option is unique.
func modelLabel(m model.ModelChoice, all []model.ModelChoice) string {
	name := m.Name
	if name == "" {
		name = m.ID
	}
	for _, o := range all {
		if o.ID != m.ID && o.Provider == m.Provider && (o.Name == name || (o.Name == "" && o.ID == name)) {
			name += " (" + m.ID + ")"
			break
		}
	}
	parts := []string{name}
	if m.Provider != "" {
		parts = append(parts, m.Provider)
	}
	if m.Reasoning {
		parts = append(parts, markReasoning)
	}
	if m.Images {
		parts = append(parts, markImages)
	}
	return strings.Join(parts, " · ")
}

func (p *ModelPicker) CreateRenderer() fyne.WidgetRenderer {
	return &pickerRenderer{sel: p.sel, maxWidth: 360}
}

// ThinkingPicker chooses the thinking level. It is disabled when the model
// offers no level but "off". Changes made through SetLevels and SetCurrent
// do not fire OnChange.
type ThinkingPicker struct {
	widget.BaseWidget

	OnChange func(level string)

	sel     *widget.Select
	levels  []string
	current string
	quiet   bool
}

// NewThinkingPicker returns a disabled picker with no levels.
func NewThinkingPicker() *ThinkingPicker {
	p := &ThinkingPicker{}
	p.sel = widget.NewSelect(nil, p.picked)
	p.sel.PlaceHolder = "Thinking"
	p.sel.Disable()
	p.ExtendBaseWidget(p)
	return p
}

// SetLevels replaces the levels offered.
func (p *ThinkingPicker) SetLevels(levels []string) {
	if slices.Equal(p.levels, levels) {
		return
	}
	p.levels = slices.Clone(levels)
	labels := make([]string, len(levels))
	for i, l := range levels {
		labels[i] = thinkingLabel(l)
	}
	p.sel.SetOptions(labels)
	if len(levels) == 0 || len(levels) == 1 && levels[0] == "off" {
		p.sel.Disable()
	} else {
		p.sel.Enable()
	}
	p.show()
}

// SetCurrent shows the level in use without calling OnChange.
func (p *ThinkingPicker) SetCurrent(level string) {
	p.current = level
	p.show()
}

// Current returns the level shown.
func (p *ThinkingPicker) Current() string { return p.current }

// Levels returns the levels offered.
func (p *ThinkingPicker) Levels() []string { return slices.Clone(p.levels) }

// Disabled reports whether there is nothing to choose.
func (p *ThinkingPicker) Disabled() bool { return p.sel.Disabled() }

func (p *ThinkingPicker) show() {
	label := ""
	if p.current != "" {
		label = thinkingLabel(p.current)
	}
	if p.sel.Selected == label {
		return
	}
	p.quiet = true
	p.sel.Selected = label
	p.sel.Refresh()
	p.quiet = false
}

func (p *ThinkingPicker) picked(label string) {
	if p.quiet {
		return
	}
	for _, l := range p.levels {
		if thinkingLabel(l) == label {
			if l == p.current {
				return
			}
			p.current = l
			if p.OnChange != nil {
				p.OnChange(l)
			}
			return
		}
	}
}

// thinkingLabel gives a bare level ("high") the context a toolbar lacks.
func thinkingLabel(level string) string {
	return "Thinking: " + level
}

func (p *ThinkingPicker) CreateRenderer() fyne.WidgetRenderer {
	return &pickerRenderer{sel: p.sel, maxWidth: 200}
}

// pickerRenderer sizes a Select to its longest option (up to maxWidth):
// widget.Select sizes itself to its placeholder and cuts every option short.
type pickerRenderer struct {
	sel      *widget.Select
	maxWidth float32
}

func (r *pickerRenderer) Destroy() {}

func (r *pickerRenderer) Layout(size fyne.Size) { r.sel.Resize(size) }

func (r *pickerRenderer) MinSize() fyne.Size {
	m := r.sel.MinSize()
	size := r.sel.Theme().Size(theme.SizeNameText)
	ph := fyne.MeasureText(r.sel.PlaceHolder, size, fyne.TextStyle{}).Width
	longest := ph
	for _, o := range r.sel.Options {
		longest = max(longest, fyne.MeasureText(o, size, fyne.TextStyle{}).Width)
	}
	m.Width = min(m.Width+longest-ph, max(r.maxWidth, m.Width))
	return m
}

func (r *pickerRenderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.sel} }

func (r *pickerRenderer) Refresh() { r.sel.Refresh() }
