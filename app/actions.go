package app

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	native "github.com/sqweek/dialog"

	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/widgets/kit"
	"knightcode.ai/desktop/widgets/palette"
)

// The window's own actions, reachable from the menu, the palette and
// shortcuts. Each runs on the UI goroutine and hands agent work to the
// controller.

func (w *Tab) needAgent() bool {
	if w.controller == nil {
		w.message("No agent", "Choose the agent executable first.")
		return false
	}
	return true
}

func (w *Tab) actionNewSession() {
	if w.needAgent() {
		w.controller.NewSession()
	}
}

// actionRename names the session: the name is selected, so typing
// replaces it; Enter renames, Esc cancels. Rename waits for a name.
func (w *Tab) actionRename() {
	if !w.needAgent() {
		return
	}
	k := newKeyDialog(w.win, w.modals)
	entry := kit.NewDialogEntry(k.Keys())
	entry.SetText(w.drawn.SessionName)
	entry.SetPlaceHolder("Session name")
	k.focus = entry
	k.build("Rename session", widget.NewForm(widget.NewFormItem("Name", entry)),
		dialogAction{label: "Cancel", isCancel: true},
		dialogAction{label: "Rename", icon: theme.ConfirmIcon(), isDefault: true, run: func() {
			w.controller.Rename(strings.TrimSpace(entry.Text))
		}})
	rename := k.button("Rename")
	entry.OnChanged = func(text string) {
		if strings.TrimSpace(text) == "" {
			rename.Disable()
		} else {
			rename.Enable()
		}
	}
	entry.OnChanged(entry.Text)
	k.Resize(fyne.NewSize(420, 160))
	k.Show()
	entry.TypedShortcut(&fyne.ShortcutSelectAll{})
}

func (w *Tab) actionClone() {
	if w.needAgent() {
		w.controller.Clone()
	}
}

// actionFork lists the earlier prompts to branch from.
func (w *Tab) actionFork() {
	if !w.needAgent() {
		return
	}
	model.Ask(w.controller, model.CallTimeout, w.controller.ForkMessages, func(msgs []model.ForkMessage, err error) {
		if err != nil {
			w.showError(err)
			return
		}
		if len(msgs) == 0 {
			w.message("Fork", "There is no earlier prompt to fork from yet.")
			return
		}
		texts := make([]string, len(msgs))
		for i, m := range msgs {
			texts[i] = model.OneLine(m.Text, 100)
		}
		k := newKeyDialog(w.win, w.modals)
		list := palette.NewOptionList(texts, k.Keys())
		k.focus = list.Focusable()
		k.build("Fork from an earlier prompt", container.NewBorder(
			widget.NewLabel("The conversation continues from before the chosen prompt, which comes back into the editor."),
			nil, nil, nil, list),
			dialogAction{label: "Cancel", isCancel: true},
			dialogAction{label: "Fork", icon: theme.ConfirmIcon(), isDefault: true, run: func() {
				if i := list.Selected(); i >= 0 {
					w.controller.Fork(msgs[i].EntryID)
				}
			}})
		fork := k.button("Fork")
		fork.Disable()
		list.OnSelect = func(int) { fork.Enable() }
		list.OnChoose = func(int) { k.Submit() }
		k.Resize(fyne.NewSize(640, 420))
		k.Show()
	})
}

// actionExport asks where to save the HTML export, then offers to open it.
func (w *Tab) actionExport() {
	if !w.needAgent() {
		return
	}
	name := "session.html"
	if n := w.drawn.SessionName; n != "" {
		name = strings.ReplaceAll(n, string(filepath.Separator), "-") + ".html"
	}
	w.askNative(native.File().Title("Export session as HTML").Filter("HTML", "html").SetStartFile(name).Save, w.export,
		func() {
			d := dialog.NewFileSave(func(u fyne.URIWriteCloser, err error) {
				if err != nil || u == nil {
					return
				}
				u.Close()
				w.export(u.URI().Path())
			}, w.win)
			d.SetFileName(name)
			w.showFileDialog(d)
		})
}

func (w *Tab) export(path string) {
	if filepath.Ext(path) == "" {
		path += ".html"
	}
	export := func(ctx context.Context) (string, error) { return w.controller.ExportHTML(ctx, path) }
	model.Ask(w.controller, model.CallTimeout, export, func(written string, err error) {
		if err != nil {
			w.showError(fmt.Errorf("export: %w", err))
			return
		}
		w.ask("Exported", "Saved to "+written+".\nOpen it now?",
			dialogAction{label: "Close", isCancel: true},
			dialogAction{label: "Open", icon: theme.FileIcon(), isDefault: true, run: func() { w.openExport(written) }})
	})
}

func (w *Tab) actionCopyLastAnswer() {
	if !w.needAgent() {
		return
	}
	model.Ask(w.controller, model.CallTimeout, w.controller.LastAnswer, func(text string, err error) {
		switch {
		case err != nil:
			w.showError(fmt.Errorf("copy the last answer: %w", err))
		case text == "":
			w.toasts.Show("There is no answer to copy yet", model.NoticeInfo)
		default:
			w.app.Clipboard().SetContent(text)
			w.toasts.Show("Last answer copied", model.NoticeInfo)
		}
	})
}

// actionCompact asks for optional instructions; Enter starts a new line
// in them, Ctrl+Enter (or Enter on the Compact button) compacts.
func (w *Tab) actionCompact() {
	if !w.needAgent() {
		return
	}
	k := newKeyDialog(w.win, w.modals)
	entry := kit.NewDialogMultiLineEntry(k.Keys())
	entry.SetPlaceHolder("Optional: what the summary should focus on")
	entry.SetMinRowsVisible(3)
	k.focus = entry
	hint := widget.NewLabel("Ctrl+Enter compacts · Esc cancels")
	hint.Importance = widget.LowImportance
	k.build("Compact the conversation", container.NewVBox(widget.NewForm(widget.NewFormItem("Instructions", entry)), hint),
		dialogAction{label: "Cancel", isCancel: true},
		dialogAction{label: "Compact", icon: theme.ConfirmIcon(), isDefault: true, run: func() {
			w.controller.Compact(strings.TrimSpace(entry.Text))
		}})
	k.Resize(fyne.NewSize(520, 260))
	k.Show()
}

// actionModes edits the agent's run settings. Space toggles a box, the
// arrows pick a mode, Enter applies, Esc cancels.
func (w *Tab) actionModes() {
	if !w.needAgent() {
		return
	}
	m := w.session.Modes()
	k := newKeyDialog(w.win, w.modals)
	autoCompact := kit.NewDialogCheck("Compact automatically when the context is nearly full", k.Keys())
	autoCompact.SetChecked(m.AutoCompaction)
	autoRetry := kit.NewDialogCheck("Retry automatically after transient errors", k.Keys())
	autoRetry.SetChecked(m.AutoRetry)
	modes := []string{"one-at-a-time", "all"}
	steering := kit.NewChoice(modes, k.Keys())
	steering.SetSelected(orDefault(m.SteeringMode, "one-at-a-time"))
	followUp := kit.NewChoice(modes, k.Keys())
	followUp.SetSelected(orDefault(m.FollowUpMode, "one-at-a-time"))
	items := []*widget.FormItem{
		widget.NewFormItem("Compaction", autoCompact),
		widget.NewFormItem("Retry", autoRetry),
		widget.NewFormItem("Steering messages", steering),
		widget.NewFormItem("Follow-up messages", followUp),
	}
	k.focus = autoCompact
	k.build("Agent behaviour", widget.NewForm(items...),
		dialogAction{label: "Cancel", isCancel: true},
		dialogAction{label: "Apply", icon: theme.ConfirmIcon(), isDefault: true, run: func() {
			w.controller.SetModes(model.AgentModes{AutoCompaction: autoCompact.Checked, AutoRetry: autoRetry.Checked,
				SteeringMode: steering.Selected(), FollowUpMode: followUp.Selected()})
		}})
	k.Resize(fyne.NewSize(600, 300))
	k.Show()
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func (w *Tab) actionRestart() { w.restart() }

func (w *Tab) actionAbortRetry() {
	if w.needAgent() {
		w.controller.AbortRetry()
	}
}
