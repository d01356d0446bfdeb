// Package palette holds the choosers: the command palette (fuzzy ranked),
// the model and thinking-level pickers, option lists for extension
// questions, and slash-command completion in the editor.
//
// It may import Fyne, model, widgets/kit and widgets/prompt (completion
// attaches to the editor).
package palette
