// Package markdown draws markdown as it streams: MarkdownView parses with
// goldmark and re-renders only the blocks a delta changed; TextFlow wraps
// styled text into lines of numbers and makes objects only for the lines in
// its window; code blocks (highlighted with chroma), tables, lists, quotes
// and folded long blocks ("Show all") follow the same rule. It also holds
// the selection model of drawn text (leaves, ranges, marks) that the chat's
// selection and find walk.
//
// It may import Fyne, goldmark, chroma and widgets/kit; not the chat or
// the model.
package markdown
