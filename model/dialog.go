package model

import (
	"time"

	"knightcode.ai/desktop/rpcconn"
)

// DialogKind is what an extension's dialog asks for.
type DialogKind int

const (
	// DialogInput asks for one line of text.
	DialogInput DialogKind = iota
	// DialogConfirm asks yes or no.
	DialogConfirm
	// DialogSelect asks to pick one of Options.
	DialogSelect
	// DialogEditor asks for text of many lines.
	DialogEditor
)

// Dialog is an extension's question to the user. Its texts are plain
// already: an extension's text is shown as it is, never as markup, and
// control characters are gone.
type Dialog struct {
	// ID is the request the answer goes to.
	ID      string
	Kind    DialogKind
	Title   string
	Message string
	// Placeholder is the hint of an empty text field.
	Placeholder string
	// Prefill is the text the user starts editing from, as the extension
	// sent it: it is the user's to change, and goes back as typed.
	Prefill string
	// Options are the labels of a select's choices.
	Options []string
	// Timeout is when the agent answers by itself with its default
	// (zero: never).
	Timeout time.Duration

	// sent are the options as the extension sent them: a choice answers
	// with those, not with the labels.
	sent []string
}

// newDialog makes the plain dialog of an extension's request.
func newDialog(req *rpcconn.ExtensionUIRequest) Dialog {
	d := Dialog{
		ID:          req.ID,
		Title:       Plain(req.Title),
		Message:     Plain(req.Message),
		Placeholder: Plain(req.Placeholder),
		Prefill:     req.Prefill,
		Timeout:     time.Duration(req.TimeoutMs) * time.Millisecond,
	}
	switch req.Method {
	case rpcconn.UIConfirm:
		d.Kind = DialogConfirm
	case rpcconn.UISelect:
		d.Kind = DialogSelect
	case rpcconn.UIEditor:
		d.Kind = DialogEditor
	default:
		d.Kind = DialogInput
	}
	d.sent = req.Options
	d.Options = make([]string, len(req.Options))
	for i, o := range req.Options {
		d.Options[i] = Plain(o)
	}
	return d
}

// Choose answers a select with its option i, as the extension sent it.
// A Dialog not made from a request (a test's) has its labels for options.
func (d Dialog) Choose(i int) Answer {
	if d.sent == nil {
		return AnswerText(d.Options[i])
	}
	return AnswerText(d.sent[i])
}

// Answer is the user's answer to a Dialog.
type Answer struct{ ui rpcconn.UIAnswer }

// AnswerCancelled dismisses any dialog.
func AnswerCancelled() Answer { return Answer{rpcconn.AnswerCancelled()} }

// AnswerConfirmed answers a confirm dialog yes or no.
func AnswerConfirmed(yes bool) Answer { return Answer{rpcconn.AnswerConfirmed(yes)} }

// AnswerText answers an input or editor dialog with the text typed.
func AnswerText(text string) Answer { return Answer{rpcconn.AnswerValue(text)} }

// String describes the answer for logs and tests: value=…, confirmed=…
// or cancelled.
func (a Answer) String() string { return a.ui.String() }
