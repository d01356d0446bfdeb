package prompt

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"knightcode.ai/desktop/widgets/kit"
)

const draftRestoreText = "An extension replaced your draft."

// DraftRestore is the line above the editor offering the draft back after
// an extension replaced it: what happened, the start of the old draft so
// the user knows what they would get, a Restore button and a close button.
// ShowNote uses the same line for another note about the draft with an
// action (an Undo). It starts hidden.
type DraftRestore struct {
	widget.BaseWidget

	// OnRestore puts Previous back in the editor; the line hides first.
	OnRestore func()
	// OnDismiss is called after the close button hid the line.
	OnDismiss func()

	previous string
	// note, action and onAction are ShowNote's; empty note: a restore.
	note, action string
	onAction     func()

	bg       *canvas.Rectangle
	icon     *canvas.Image
	message  *canvas.Text
	preview  *canvas.Text
	restore  *widget.Button
	dismiss  *kit.MiniButton
	fitCache kit.FittedText
}

// NewDraftRestore returns a hidden line.
func NewDraftRestore() *DraftRestore {
	d := &DraftRestore{}
	d.ExtendBaseWidget(d)
	d.Hide()
	return d
}

// ShowFor shows the line for previous, the draft the extension replaced.
// While a restore is still offered (an extension replaced its own text
// again), the line keeps the draft it offers: the user's own, from before
// the first replacement, not a text the extension wrote.
func (d *DraftRestore) ShowFor(previous string) {
	if !d.Pending() {
		d.previous = previous
	}
	d.note, d.action, d.onAction = "", "", nil
	d.showNow()
}

// ShowNote shows note with a button labelled action that hides the line
// and runs onAction. A restore still offered waits behind the note: one
// line, the newest news in front, and the user's draft still to be had
// once the note goes (HideNote, its action or its close button).
func (d *DraftRestore) ShowNote(note, action string, onAction func()) {
	if !d.Pending() {
		d.previous = ""
	}
	d.note, d.action, d.onAction = note, action, onAction
	d.showNow()
}

// HideNote takes the note away: the line offers the draft again when a
// restore waits behind the note, and hides otherwise.
func (d *DraftRestore) HideNote() {
	if d.note == "" {
		return
	}
	d.note, d.action, d.onAction = "", "", nil
	if d.previous == "" {
		d.Hide()
		return
	}
	d.showNow()
}

// Pending reports whether the line offers a draft back, in front or
// behind a note.
func (d *DraftRestore) Pending() bool { return d.previous != "" && d.Visible() }

// Note is what the line says now.
func (d *DraftRestore) Note() string {
	if d.note != "" {
		return d.note
	}
	return draftRestoreText
}

// Act presses the line's button, as a click does.
func (d *DraftRestore) Act() { d.act() }

func (d *DraftRestore) act() {
	if d.onAction != nil {
		f := d.onAction
		d.HideNote()
		f()
		return
	}
	d.Hide()
	if d.OnRestore != nil {
		d.OnRestore()
	}
	d.previous = ""
}

// close is the close button: a note goes (a restore behind it comes
// back), a restore offer goes for good.
func (d *DraftRestore) close() {
	if d.note != "" {
		d.HideNote()
	} else {
		d.Hide()
		d.previous = ""
	}
	if d.OnDismiss != nil {
		d.OnDismiss()
	}
}

func (d *DraftRestore) showNow() {
	if d.message != nil {
		d.message.Text = d.Note()
		label, icon := "Restore draft", theme.ContentUndoIcon()
		if d.action != "" {
			label = d.action
		}
		d.restore.SetText(label)
		d.restore.SetIcon(icon)
	}
	if d.Visible() {
		d.Refresh()
	} else {
		d.Show()
	}
}

// Previous is the draft the line offers back, "" when none.
func (d *DraftRestore) Previous() string { return d.previous }

func (d *DraftRestore) CreateRenderer() fyne.WidgetRenderer {
	d.bg = canvas.NewRectangle(nil)
	d.icon = &canvas.Image{FillMode: canvas.ImageFillContain}
	d.message = canvas.NewText(d.Note(), nil)
	d.preview = canvas.NewText("", nil)
	d.preview.TextStyle.Italic = true
	label := "Restore draft"
	if d.action != "" {
		label = d.action
	}
	d.restore = widget.NewButtonWithIcon(label, theme.ContentUndoIcon(), d.act)
	d.dismiss = kit.NewMiniIconButton(theme.CancelIcon(), d.close)
	r := &draftRestoreRenderer{d: d}
	r.Refresh()
	return r
}

type draftRestoreRenderer struct {
	d *DraftRestore
}

func (r *draftRestoreRenderer) Destroy() {}

func (r *draftRestoreRenderer) Objects() []fyne.CanvasObject {
	d := r.d
	return []fyne.CanvasObject{d.bg, d.icon, d.message, d.preview, d.restore, d.dismiss}
}

func (r *draftRestoreRenderer) MinSize() fyne.Size {
	d := r.d
	th := d.Theme()
	pad, icon := th.Size(theme.SizeNamePadding), th.Size(theme.SizeNameInlineIcon)
	w := 6*pad + 2*icon + d.message.MinSize().Width + d.restore.MinSize().Width
	return fyne.NewSize(w, d.restore.MinSize().Height+pad)
}

func (r *draftRestoreRenderer) Layout(size fyne.Size) {
	d := r.d
	th := d.Theme()
	pad, icon := th.Size(theme.SizeNamePadding), th.Size(theme.SizeNameInlineIcon)
	mid := size.Height / 2
	d.bg.Resize(size)
	x := 2 * pad
	d.icon.Move(fyne.NewPos(x, mid-icon/2))
	d.icon.Resize(fyne.NewSquareSize(icon))
	x += icon + pad

	right := size.Width - pad - icon
	d.dismiss.Move(fyne.NewPos(right, mid-icon/2))
	d.dismiss.Resize(fyne.NewSquareSize(icon))
	rs := d.restore.MinSize()
	right -= pad + rs.Width
	d.restore.Move(fyne.NewPos(right, mid-rs.Height/2))
	d.restore.Resize(rs)

	ms := d.message.MinSize()
	d.message.Move(fyne.NewPos(x, mid-ms.Height/2))
	d.message.Resize(ms)
	x += ms.Width + 2*pad
	// The old draft's start fills what room is left, or is left out.
	room := right - pad - x
	d.preview.Text = ""
	if s := kit.FirstTextLine(d.previous); s != "" && d.note == "" && room > 60 {
		if s != strings.TrimSpace(d.previous) {
			s += " …" // more lines follow
		}
		d.preview.Text = d.fitCache.Fit("“"+s+"”", room, d.preview.TextSize, d.preview.TextStyle)
	}
	d.preview.Move(fyne.NewPos(x, mid-ms.Height/2))
	d.preview.Resize(fyne.NewSize(max(room, 0), ms.Height))
	d.preview.Refresh()
}

func (r *draftRestoreRenderer) Refresh() {
	d := r.d
	th := d.Theme()
	d.bg.FillColor = kit.WithAlpha(kit.ResolveColor(th, theme.ColorNamePrimary), 0x1f)
	d.bg.CornerRadius = th.Size(theme.SizeNameInputRadius)
	d.icon.Resource = theme.NewPrimaryThemedResource(theme.InfoIcon())
	d.message.TextSize = th.Size(theme.SizeNameText)
	d.message.Color = kit.ResolveColor(th, theme.ColorNameForeground)
	d.preview.TextSize = d.message.TextSize
	d.preview.Color = kit.ResolveColor(th, theme.ColorNamePlaceHolder)
	d.message.Refresh()
	d.icon.Refresh()
	d.bg.Refresh()
	r.Layout(d.Size())
}
