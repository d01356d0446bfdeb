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

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func (c *tabCommands) actionNewSession() {
	if c.needAgent() {
		c.controller.NewSession()
	}
}

// actionRename names the session: the name is selected, so typing
// replaces it; Enter renames, Esc cancels. Rename waits for a name.
func (c *tabCommands) actionRename() {
	if !c.needAgent() {
		return
	}
	k := newKeyDialog(c.win, c.modals)
	entry := kit.NewDialogEntry(k.Keys())
	entry.SetText(c.drawn.SessionName)
	entry.SetPlaceHolder("Session name")
	k.focus = entry
	k.build("Rename session", widget.NewForm(widget.NewFormItem("Name", entry)),
		dialogAction{label: "Cancel", isCancel: true},
		dialogAction{label: "Rename", icon: theme.ConfirmIcon(), isDefault: true, run: func() {
			c.controller.Rename(strings.TrimSpace(entry.Text))
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

func (c *tabCommands) actionClone() {
	if c.needAgent() {
		c.controller.Clone()
	}
}

// actionFork lists the earlier prompts to branch from.
func (c *tabCommands) actionFork() {
	if !c.needAgent() {
		return
	}
	model.Ask(c.controller, model.CallTimeout, c.controller.ForkMessages, func(msgs []model.ForkMessage, err error) {
		if err != nil {
			c.showError(err)
			return
		}
		if len(msgs) == 0 {
			c.message("Fork", "There is no earlier prompt to fork from yet.")
			return
		}
		texts := make([]string, len(msgs))
		for i, m := range msgs {
			texts[i] = model.OneLine(m.Text, 100)
		}
		k := newKeyDialog(c.win, c.modals)
		list := palette.NewOptionList(texts, k.Keys())
		k.focus = list.Focusable()
		k.build("Fork from an earlier prompt", container.NewBorder(
			widget.NewLabel("The conversation continues from before the chosen prompt, which comes back into the editor."),
			nil, nil, nil, list),
			dialogAction{label: "Cancel", isCancel: true},
			dialogAction{label: "Fork", icon: theme.ConfirmIcon(), isDefault: true, run: func() {
				if i := list.Selected(); i >= 0 {
					c.controller.Fork(msgs[i].EntryID)
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
func (c *tabCommands) actionExport() {
	if !c.needAgent() {
		return
	}
	name := "session.html"
	if n := c.drawn.SessionName; n != "" {
		name = strings.ReplaceAll(n, string(filepath.Separator), "-") + ".html"
	}
	c.askNative(native.File().Title("Export session as HTML").Filter("HTML", "html").SetStartFile(name).Save, c.export,
		func() {
			d := dialog.NewFileSave(func(u fyne.URIWriteCloser, err error) {
				if err != nil || u == nil {
					return
				}
				u.Close()
				c.export(u.URI().Path())
			}, c.win)
			d.SetFileName(name)
			c.showFileDialog(d)
		})
}

func (c *tabCommands) export(path string) {
	if filepath.Ext(path) == "" {
		path += ".html"
	}
	export := func(ctx context.Context) (string, error) { return c.controller.ExportHTML(ctx, path) }
	model.Ask(c.controller, model.CallTimeout, export, func(written string, err error) {
		if err != nil {
			c.showError(fmt.Errorf("export: %w", err))
			return
		}
		c.ask("Exported", "Saved to "+written+".\nOpen it now?",
			dialogAction{label: "Close", isCancel: true},
			dialogAction{label: "Open", icon: theme.FileIcon(), isDefault: true, run: func() { c.openExport(written) }})
	})
}

func (c *tabCommands) actionCopyLastAnswer() {
	if !c.needAgent() {
		return
	}
	model.Ask(c.controller, model.CallTimeout, c.controller.LastAnswer, func(text string, err error) {
		switch {
		case err != nil:
			c.showError(fmt.Errorf("copy the last answer: %w", err))
		case text == "":
			c.toasts.Show("There is no answer to copy yet", model.NoticeInfo)
		default:
			c.app.Clipboard().SetContent(text)
			c.toasts.Show("Last answer copied", model.NoticeInfo)
		}
	})
}

// actionCompact asks for optional instructions; Enter starts a new line
// in them, Ctrl+Enter (or Enter on the Compact button) compacts.
func (c *tabCommands) actionCompact() {
	if !c.needAgent() {
		return
	}
	k := newKeyDialog(c.win, c.modals)
	entry := kit.NewDialogMultiLineEntry(k.Keys())
	entry.SetPlaceHolder("Optional: what the summary should focus on")
	entry.SetMinRowsVisible(3)
	k.focus = entry
	hint := widget.NewLabel("Ctrl+Enter compacts · Esc cancels")
	hint.Importance = widget.LowImportance
	k.build("Compact the conversation", container.NewVBox(widget.NewForm(widget.NewFormItem("Instructions", entry)), hint),
		dialogAction{label: "Cancel", isCancel: true},
		dialogAction{label: "Compact", icon: theme.ConfirmIcon(), isDefault: true, run: func() {
			c.controller.Compact(strings.TrimSpace(entry.Text))
		}})
	k.Resize(fyne.NewSize(520, 260))
	k.Show()
}

// actionModes edits the agent's run settings. Space toggles a box, the
// arrows pick a mode, Enter applies, Esc cancels.
func (c *tabCommands) actionModes() {
	if !c.needAgent() {
		return
	}
	m := c.session.Modes()
	k := newKeyDialog(c.win, c.modals)
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
			c.controller.SetModes(model.AgentModes{AutoCompaction: autoCompact.Checked, AutoRetry: autoRetry.Checked,
				SteeringMode: steering.Selected(), FollowUpMode: followUp.Selected()})
		}})
	k.Resize(fyne.NewSize(600, 300))
	k.Show()
}

func (c *tabCommands) actionRestart() { c.restart() }

func (c *tabCommands) actionAbortRetry() {
	if c.needAgent() {
		c.controller.AbortRetry()
	}
}
