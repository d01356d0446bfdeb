// Package palette holds the choosers: the command palette (fuzzy ranked),
// the model and thinking-level pickers, option lists for extension
// questions, and slash-command completion in the editor.
//
// It may import Fyne, model and widgets/kit. Completion attaches to the
// editor as a plain fyne.Focusable (SetEditor), so it needs no import of
// widgets/prompt.
package palette
