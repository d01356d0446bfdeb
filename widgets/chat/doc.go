// Package chat is the transcript: ChatView draws model.ChatItem entries
// (prompts, replies with thinking and tool chips, bash runs, notices,
// summaries) in a scroll that lays out only the entries near the screen and
// estimates the rest, follows the bottom while streaming, and scrolls with
// the keyboard. Selection across entries, copy, and find (FindBar) work on
// the model's text, so they cover entries that have no objects.
//
// It may import Fyne, model, widgets/kit and widgets/markdown.
package chat
