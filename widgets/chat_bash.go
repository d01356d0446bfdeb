package widgets

import (
	"fmt"
	"image/color"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"knightcode.ai/desktop/model"
)

// bashTailLines caps the output drawn for one command: the row must stay
// a reasonable height, and Copy still copies everything.
const bashTailLines = 200

// bashView is a !command the user ran: "$ command", its output in
// monospace, and a status line (exit code, cancelled, truncated and where
// the full output is).
type bashView struct {
	widget.BaseWidget
	windowedParts
	bg      *canvas.Rectangle
	command *textFlow
	status  *textFlow
	copy    *copyAction
	out     *monoBlock

	output string
	hidden int // leading output lines not drawn
	cmd    string

	valid bool
	laidW float32
}

func newBashView() *bashView {
	v := &bashView{bg: canvas.NewRectangle(nil), out: newMonoBlock()}
	v.windowedParts = newWindowedParts(v.objects)
	v.command = newTextFlow(nil, nil)
	v.status = newTextFlow(nil, nil)
	v.copy = newCopyAction(func() string { return "$ " + v.cmd + "\n" + v.output })
	v.ExtendBaseWidget(v)
	v.restyle()
	return v
}

func (v *bashView) update(it *model.ChatItem) {
	v.cmd = it.Command
	v.output = strings.TrimRight(it.Text, "\n")
	v.hidden = 0
	v.command.setSpans([]inlineSpan{
		{text: "$ ", style: fyne.TextStyle{Monospace: true, Bold: true}, color: theme.ColorNamePrimary},
		{text: it.Command, style: fyne.TextStyle{Monospace: true, Bold: true}},
	})
	v.status.setSpans(bashStatus(it, time.Now()))
	v.valid = false
	repaintView(v)
}

// bashStatus is the line under a command: how it ended or that it runs,
// how long it took, truncation and where the full output is. A running
// command's item is updated (a new Revision) to move its clock on.
func bashStatus(it *model.ChatItem, now time.Time) []inlineSpan {
	small := fyne.ThemeSizeName(theme.SizeNameCaptionText)
	var spans []inlineSpan
	add := func(text string, col fyne.ThemeColorName) {
		if len(spans) > 0 {
			spans = append(spans, inlineSpan{text: "  ·  ", size: small, color: theme.ColorNamePlaceHolder})
		}
		spans = append(spans, inlineSpan{text: text, size: small, color: col})
	}
	switch {
	case it.Cancelled:
		add("cancelled", theme.ColorNameWarning)
	case it.StopReason == model.StopInterrupted:
		add("interrupted: the agent stopped", theme.ColorNameWarning)
	case it.ExitCode != nil && *it.ExitCode == 0:
		// Success is the quiet case; the theme's green is also hard to
		// read on the light card.
		add("exit 0", theme.ColorNamePlaceHolder)
	case it.ExitCode != nil:
		add(fmt.Sprintf("exit %d", *it.ExitCode), theme.ColorNameError)
	case it.Streaming:
		add("running…", theme.ColorNamePlaceHolder)
	}
	if d := formatElapsed(it.Started, it.Ended, now); d != "" {
		add(d, theme.ColorNamePlaceHolder)
	}
	if it.Truncated {
		add("output truncated", theme.ColorNameWarning)
	}
	if it.FullOutputPath != "" {
		add("full output: "+it.FullOutputPath, theme.ColorNamePlaceHolder)
	}
	return spans
}

func (v *bashView) CreateRenderer() fyne.WidgetRenderer { return &selfRenderer{w: v} }

func (v *bashView) restyle() {
	th := v.Theme()
	v.bg.FillColor = resolveColor(th, theme.ColorNameInputBackground)
	v.bg.StrokeColor = resolveColor(th, theme.ColorNameInputBorder)
	v.bg.StrokeWidth = 1
	v.bg.CornerRadius = th.Size(theme.SizeNameInputRadius)
	v.valid = false
}

// place lays out for width; output lines are rebuilt only when the width
// or the content changed.
func (v *bashView) place(width float32, apply bool) float32 {
	th := v.Theme()
	ix, iy := chatInsets(th)
	pad := th.Size(theme.SizeNameInnerPadding)
	inner := width - 2*ix - 2*pad
	cs := v.copy.MinSize()
	cmdW := inner - cs.Width - pad
	y := iy + pad
	cmdH := max(v.command.heightAt(cmdW), cs.Height)
	if apply {
		v.command.Move(fyne.NewPos(ix+pad, y+(cmdH-v.command.heightAt(cmdW))/2))
		v.command.Resize(fyne.NewSize(cmdW, v.command.heightAt(cmdW)))
		v.copy.Move(fyne.NewPos(width-ix-pad-cs.Width+pad/2, y-pad/2))
		v.copy.Resize(cs)
	}
	y += cmdH
	if !v.valid || v.laidW != width {
		v.buildLines(th, inner)
		v.laidW, v.valid = width, true
	}
	if len(v.out.lines) > 0 {
		y += th.Size(theme.SizeNamePadding)
		oh := v.out.heightAt(inner)
		if apply {
			v.out.Move(fyne.NewPos(ix+pad, y))
			v.out.Resize(fyne.NewSize(inner, oh))
		}
		y += oh
	}
	if len(v.status.spans) > 0 {
		y += th.Size(theme.SizeNamePadding)
		sh := v.status.heightAt(inner)
		if apply {
			v.status.Move(fyne.NewPos(ix+pad, y))
			v.status.Resize(fyne.NewSize(inner, sh))
		}
		y += sh
	}
	y += pad
	if apply {
		v.bg.Move(fyne.NewPos(ix, iy))
		v.bg.Resize(fyne.NewSize(width-2*ix, y-iy))
	}
	return y + iy
}

// buildLines wraps the output to inner and keeps its last bashTailLines
// lines, after a note saying how many came before.
func (v *bashView) buildLines(th fyne.Theme, inner float32) {
	size := th.Size(theme.SizeNameText) - 1
	mono := fyne.TextStyle{Monospace: true}
	cell := fyne.MeasureText("M", size, mono)
	cols := max(int(inner/cell.Width), 1)
	fg := resolveColor(th, theme.ColorNameForeground)
	var lines []string
	var colors []color.Color
	if v.output != "" {
		// Only the last bashTailLines source lines can reach the last
		// bashTailLines wrapped lines: output of megabytes is not wrapped
		// whole for the few lines shown.
		tail, before := lastLines(v.output, bashTailLines)
		wrapped := wrapCode(tail, cols)
		v.hidden = before + max(len(wrapped)-bashTailLines, 0)
		wrapped = wrapped[len(wrapped)-min(len(wrapped), bashTailLines):]
		if v.hidden > 0 {
			lines = append(lines, fmt.Sprintf("… %d earlier lines not shown (Copy copies all)", v.hidden))
			colors = append(colors, resolveColor(th, theme.ColorNamePlaceHolder))
		}
		for _, l := range wrapped {
			lines = append(lines, l)
			colors = append(colors, fg)
		}
	}
	v.out.set(lines, colors, cell, size, inner)
}

func (v *bashView) heightAt(width float32) float32 { return v.place(width, false) }

func (v *bashView) layout(size fyne.Size) { v.place(size.Width, true) }

func (v *bashView) objects() []fyne.CanvasObject {
	objs := []fyne.CanvasObject{v.bg, v.command, v.copy}
	if len(v.out.lines) > 0 {
		objs = append(objs, v.out)
	}
	return append(objs, v.status)
}

// lastLines returns the last n lines of s and how many lines come before.
func lastLines(s string, n int) (tail string, before int) {
	cut := len(s)
	for i := 0; i < n; i++ {
		j := strings.LastIndexByte(s[:cut], '\n')
		if j < 0 {
			return s, 0
		}
		cut = j
	}
	return s[cut+1:], strings.Count(s[:cut], "\n") + 1
}
