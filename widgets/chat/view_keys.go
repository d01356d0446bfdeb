package chat

import (
	"runtime"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// wheelLines is how many lines of text a notch of the mouse wheel moves
// the transcript, as in most desktop programs.
const wheelLines = 3

// glfwNotch is how far Fyne's desktop driver scrolls for one notch of the
// wheel: 25 px, a line and a bit; on macOS the system already gives
// distances, and it passes 10 px per unit.
const glfwNotch = 25

// Scrolled moves the transcript about wheelLines lines a notch. Fyne's
// scroll would move it by what the driver says, a line a notch.
func (s *chatScroll) Scrolled(ev *fyne.ScrollEvent) {
	if runtime.GOOS != "darwin" && s.line > 0 {
		scaled := *ev
		scaled.Scrolled.DY *= wheelLines * s.line / glfwNotch
		ev = &scaled
	}
	s.Scroll.Scrolled(ev)
}

// lineHeight is the height of a line of body text with its spacing.
func (cv *ChatView) lineHeight() float32 {
	th := cv.Theme()
	return fyne.MeasureText("M", th.Size(theme.SizeNameText), fyne.TextStyle{}).Height + th.Size(theme.SizeNameLineSpacing)/2
}

// ScrollBy moves the transcript dy pixels down (negative: up), as the user
// scrolling it would.
func (cv *ChatView) ScrollBy(dy float32) {
	cv.scroll.Scroll.Scrolled(&fyne.ScrollEvent{Scrolled: fyne.Delta{DY: -dy}})
}

// PageDown shows the next screen of the transcript, keeping its last line
// in view.
func (cv *ChatView) PageDown() { cv.ScrollBy(cv.Page()) }

// PageUp shows the screen before.
func (cv *ChatView) PageUp() { cv.ScrollBy(-cv.Page()) }

// Page is how far PageUp and PageDown scroll: the view's height less a
// line, so a line of the last screen stays in sight.
func (cv *ChatView) Page() float32 {
	return max(cv.scroll.Size().Height-cv.lineHeight(), cv.lineHeight())
}

// ScrollToTop shows the start of the transcript.
func (cv *ChatView) ScrollToTop() {
	cv.ScrollBy(-float32(cv.rows.total()))
}

// ScrollKey moves the transcript for a key a person scrolls with: PageUp,
// PageDown, and Home and End with Ctrl. It reports whether the key was
// one of those.
func (cv *ChatView) ScrollKey(key fyne.KeyName, mods fyne.KeyModifier) bool {
	ctrl := mods&(fyne.KeyModifierControl|fyne.KeyModifierSuper) != 0
	switch {
	case key == fyne.KeyPageUp:
		cv.PageUp()
	case key == fyne.KeyPageDown:
		cv.PageDown()
	case key == fyne.KeyHome && ctrl:
		cv.ScrollToTop()
	case key == fyne.KeyEnd && ctrl:
		cv.ScrollToBottom()
	default:
		return false
	}
	return true
}

// showLatest shows or hides the button that jumps to the end.
func (cv *ChatView) showLatest(show bool) {
	if show == cv.latest.Visible() {
		return
	}
	if show {
		cv.latest.Show()
		cv.placeLatest()
	} else {
		cv.latest.Hide()
	}
}

// placeLatest puts the jump button at the bottom right of the transcript,
// clear of the scroll bar.
func (cv *ChatView) placeLatest() {
	th := cv.Theme()
	pad := th.Size(theme.SizeNameInnerPadding)
	bs := cv.latest.MinSize()
	size := cv.scroll.Size()
	cv.latest.Resize(bs)
	cv.latest.Move(fyne.NewPos(size.Width-bs.Width-pad-th.Size(theme.SizeNameScrollBar), size.Height-bs.Height-pad))
}
