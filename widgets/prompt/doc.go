// Package prompt is where the user writes: PromptBar with its PromptEditor
// (shortcuts, a cursor that stops blinking when idle, history recall), the
// attachment strip, queued steering and follow-up messages, restored
// drafts, and the blocks extensions put above the editor.
//
// It may import Fyne, model and widgets/kit.
package prompt
