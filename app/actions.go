package app

import (
	"context"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"
	native "github.com/sqweek/dialog"

	"knightcode.ai/desktop/widgets"
)

// The window's own actions, reachable from the menu, the palette and
// shortcuts. Each runs on the UI goroutine and hands agent work to the
// controller.

func (w *Window) needAgent() bool {
	if w.controller == nil {
		dialog.ShowInformation("No agent", "Choose the agent executable first.", w.win)
		return false
	}
	return true
}

func (w *Window) actionNewSession() {
	if w.needAgent() {
		w.controller.NewSession()
	}
}

func (w *Window) actionRename() {
	if !w.needAgent() {
		return
	}
	entry := widget.NewEntry()
	entry.SetText(w.drawn.SessionName)
	entry.SetPlaceHolder("Session name")
	d := dialog.NewForm("Rename session", "Rename", "Cancel", []*widget.FormItem{widget.NewFormItem("Name", entry)}, func(ok bool) {
		if ok && strings.TrimSpace(entry.Text) != "" {
			w.controller.Rename(strings.TrimSpace(entry.Text))
		}
	}, w.win)
	d.Resize(fyne.NewSize(420, 160))
	d.Show()
	w.win.Canvas().Focus(entry)
}

func (w *Window) actionClone() {
	if w.needAgent() {
		w.controller.Clone()
	}
}

// actionFork lists the earlier prompts to branch from.
func (w *Window) actionFork() {
	if !w.needAgent() {
		return
	}
	w.bg.Go(func(ctx context.Context) {
		ctx, cancel := context.WithTimeout(ctx, callTimeout)
		defer cancel()
		msgs, err := w.controller.ForkMessages(ctx)
		if w.bg.ctx.Err() != nil {
			return
		}
		w.do(func() {
			if err != nil {
				dialog.ShowError(err, w.win)
				return
			}
			if len(msgs) == 0 {
				dialog.ShowInformation("Fork", "There is no earlier prompt to fork from yet.", w.win)
				return
			}
			var d dialog.Dialog
			list := widget.NewList(func() int { return len(msgs) },
				func() fyne.CanvasObject { return widget.NewLabel("") },
				func(i widget.ListItemID, o fyne.CanvasObject) { o.(*widget.Label).SetText(oneLine(msgs[i].Text, 100)) })
			list.OnSelected = func(i widget.ListItemID) {
				d.Hide()
				w.controller.Fork(msgs[i].EntryID)
			}
			d = dialog.NewCustom("Fork from an earlier prompt", "Cancel", container.NewBorder(
				widget.NewLabel("The conversation continues from before the chosen prompt, which comes back into the editor."),
				nil, nil, nil, list), w.win)
			d.Resize(fyne.NewSize(640, 420))
			d.Show()
		})
	})
}

// actionExport asks where to save the HTML export, then offers to open it.
func (w *Window) actionExport() {
	if !w.needAgent() {
		return
	}
	name := "session.html"
	if n := w.drawn.SessionName; n != "" {
		name = strings.ReplaceAll(n, string(filepath.Separator), "-") + ".html"
	}
	// The platform's dialog cannot be cancelled from here: this goroutine
	// is not waited for on quit, and what it hands to the UI after the
	// window closed is dropped.
	go func() {
		path, err := native.File().Title("Export session as HTML").Filter("HTML", "html").SetStartFile(name).Save()
		w.do(func() {
			switch {
			case err == nil:
				w.export(path)
			case err == native.ErrCancelled:
			default:
				d := dialog.NewFileSave(func(u fyne.URIWriteCloser, err error) {
					if err != nil || u == nil {
						return
					}
					u.Close()
					w.export(u.URI().Path())
				}, w.win)
				d.SetFileName(name)
				d.Show()
			}
		})
	}()
}

func (w *Window) export(path string) {
	if filepath.Ext(path) == "" {
		path += ".html"
	}
	w.controller.ExportHTML(path, func(written string) {
		w.do(func() {
			dialog.ShowConfirm("Exported", "Saved to "+written+".\nOpen it now?", func(open bool) {
				if open {
					w.openPath(written)
				}
			}, w.win)
		})
	})
}

func (w *Window) actionCopyLastAnswer() {
	if !w.needAgent() {
		return
	}
	w.controller.LastAnswer(func(text string) {
		w.do(func() {
			w.app.Clipboard().SetContent(text)
			w.toasts.Show("Last answer copied", widgets.NoticeInfo)
		})
	})
}

func (w *Window) actionCompact() {
	if !w.needAgent() {
		return
	}
	entry := widget.NewMultiLineEntry()
	entry.SetPlaceHolder("Optional: what the summary should focus on")
	entry.SetMinRowsVisible(3)
	d := dialog.NewForm("Compact the conversation", "Compact", "Cancel", []*widget.FormItem{widget.NewFormItem("Instructions", entry)}, func(ok bool) {
		if ok {
			w.controller.Compact(strings.TrimSpace(entry.Text))
		}
	}, w.win)
	d.Resize(fyne.NewSize(520, 240))
	d.Show()
}

// actionModes edits the agent's run settings.
func (w *Window) actionModes() {
	if !w.needAgent() {
		return
	}
	m := w.session.Modes()
	autoCompact := widget.NewCheck("Compact automatically when the context is nearly full", nil)
	autoCompact.SetChecked(m.AutoCompaction)
	autoRetry := widget.NewCheck("Retry automatically after transient errors", nil)
	autoRetry.SetChecked(m.AutoRetry)
	modes := []string{"one-at-a-time", "all"}
	steering := widget.NewRadioGroup(modes, nil)
	steering.Horizontal = true
	steering.SetSelected(orDefault(m.SteeringMode, "one-at-a-time"))
	followUp := widget.NewRadioGroup(modes, nil)
	followUp.Horizontal = true
	followUp.SetSelected(orDefault(m.FollowUpMode, "one-at-a-time"))
	items := []*widget.FormItem{
		widget.NewFormItem("Compaction", autoCompact),
		widget.NewFormItem("Retry", autoRetry),
		widget.NewFormItem("Steering messages", steering),
		widget.NewFormItem("Follow-up messages", followUp),
	}
	d := dialog.NewForm("Agent behaviour", "Apply", "Cancel", items, func(ok bool) {
		if !ok {
			return
		}
		w.controller.SetModes(AgentModes{AutoCompaction: autoCompact.Checked, AutoRetry: autoRetry.Checked,
			SteeringMode: steering.Selected, FollowUpMode: followUp.Selected})
	}, w.win)
	d.Resize(fyne.NewSize(560, 300))
	d.Show()
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func (w *Window) actionRestart() { w.restart() }

func (w *Window) actionAbortRetry() {
	if w.needAgent() {
		w.controller.AbortRetry()
	}
}
