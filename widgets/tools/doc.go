// Package tools is the sidebar where tools run: ToolSidebar lists one card
// per tool call grouped by turn, with live output (MonoView, windowed by
// line), elapsed time, diffs of edits with line numbers, and copy.
//
// It may import Fyne, model and widgets/kit.
package tools
