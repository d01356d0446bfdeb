package status

import (
	"image/color"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/widgets/kit"
)

const (
	// toastMaxShown keeps a burst of notices from covering the window; the
	// rest are in the history.
	toastMaxShown = 3
	// toastHistoryCap bounds the history an extension spamming notices
	// could otherwise grow without limit.
	toastHistoryCap = 500
	toastMaxWidth   = 360
	toastMaxLines   = 8
	toastFadeTime   = 400 * time.Millisecond
)

// toastDwell is how long a toast stays before it fades: warnings and errors
// usually need reading and maybe acting on, info does not.
func toastDwell(level model.NoticeLevel) time.Duration {
	if level == model.NoticeInfo {
		return 4 * time.Second
	}
	return 8 * time.Second
}

// ToastLayer shows in-window notifications in the top-right corner, newest
// on top. The app stacks Object() over the window's content: it has no size
// of its own and handles no events, so clicks pass through to what is under
// it except on a toast, where a click dismisses that toast.
//
// The layer is not itself a CanvasObject because its Show(text, level)
// would clash with CanvasObject's Show(). Like any widget it is used from
// the UI goroutine; its own timers come back through kit.Do.
type ToastLayer struct {
	view    *toastLayerView
	toasts  []*toast // newest first
	history []model.Notice

	// Clocks; tests replace them to drive time without sleeping. after
	// runs f on the UI goroutine once d has passed, unless stopped first.
	now     func() time.Time
	after   func(d time.Duration, f func()) (stop func())
	animate func(d time.Duration, tick func(float32)) (stop func())
}

// toastLayerView draws a ToastLayer's toasts.
type toastLayerView struct {
	widget.BaseWidget
	l *ToastLayer
}

// NewToastLayer returns an empty layer.
func NewToastLayer() *ToastLayer {
	l := &ToastLayer{now: time.Now, after: afterOnUI, animate: startAnimation}
	l.view = &toastLayerView{l: l}
	l.view.ExtendBaseWidget(l.view)
	return l
}

// Object is what the app stacks over the window's content.
func (l *ToastLayer) Object() fyne.CanvasObject { return l.view }

// Show shows text, plain and never markup, as a toast of level.
func (l *ToastLayer) Show(text string, level model.NoticeLevel) {
	l.ShowNotice(model.Notice{Text: text, Level: level})
}

// ShowNotice shows n as a toast and records it; a zero Time is now.
func (l *ToastLayer) ShowNotice(n model.Notice) {
	if n.Time.IsZero() {
		n.Time = l.now()
	}
	l.history = append(l.history, n)
	if over := len(l.history) - toastHistoryCap; over > 0 {
		l.history = append(l.history[:0], l.history[over:]...)
	}
	// The same notice again, as a failing extension repeats itself, counts
	// up on the toast already shown instead of pushing the others out.
	if len(l.toasts) > 0 && l.toasts[0].same(n) && !l.toasts[0].fading() {
		t := l.toasts[0]
		t.repeat()
		l.schedule(t)
		l.view.Refresh()
		return
	}
	t := newToast(l, n)
	l.toasts = append([]*toast{t}, l.toasts...)
	for len(l.toasts) > toastMaxShown {
		l.toasts[len(l.toasts)-1].stop()
		l.toasts = l.toasts[:len(l.toasts)-1]
	}
	l.schedule(t)
	l.view.Refresh()
}

// Stop stops the clocks of the toasts shown, as their window goes: nothing
// of the layer reaches the UI goroutine after it.
func (l *ToastLayer) Stop() {
	for _, t := range l.toasts {
		t.stop()
	}
}

// History returns the notices shown, oldest first, at most the last 500.
func (l *ToastLayer) History() []model.Notice {
	return append([]model.Notice(nil), l.history...)
}

func (l *ToastLayer) schedule(t *toast) {
	t.stop()
	t.gen++
	gen := t.gen
	t.stopTimer = l.after(toastDwell(t.notice.Level), func() { l.fade(t, gen) })
}

// fade starts t's fade unless t is gone or was rescheduled since: a timer
// stopped just after it fired still has its call queued for the UI.
func (l *ToastLayer) fade(t *toast, gen int) {
	if gen != t.gen || !l.holds(t) {
		return
	}
	t.stopTimer = nil
	if !fyne.CurrentApp().Settings().ShowAnimations() {
		l.dismiss(t)
		return
	}
	t.stopFade = l.animate(toastFadeTime, func(p float32) {
		if p >= 1 {
			t.stopFade = nil
			l.dismiss(t)
			return
		}
		t.setAlpha(1 - p)
	})
}

func (l *ToastLayer) holds(t *toast) bool {
	for _, x := range l.toasts {
		if x == t {
			return true
		}
	}
	return false
}

// dismiss removes t at once, stopping whatever clock it had running so the
// layer is idle when it is empty.
func (l *ToastLayer) dismiss(t *toast) {
	for i, x := range l.toasts {
		if x == t {
			t.stop()
			l.toasts = append(l.toasts[:i], l.toasts[i+1:]...)
			l.view.Refresh()
			return
		}
	}
}

func (v *toastLayerView) CreateRenderer() fyne.WidgetRenderer {
	return &toastLayerRenderer{l: v.l}
}

type toastLayerRenderer struct {
	l       *ToastLayer
	objects []fyne.CanvasObject
}

func (r *toastLayerRenderer) Destroy() {}

func (r *toastLayerRenderer) Objects() []fyne.CanvasObject { return r.objects }

// MinSize is zero: the layer must not make the content it covers grow.
func (r *toastLayerRenderer) MinSize() fyne.Size { return fyne.Size{} }

func (r *toastLayerRenderer) Layout(size fyne.Size) {
	pad := r.l.view.Theme().Size(theme.SizeNamePadding) * 2
	maxW := min(toastMaxWidth, size.Width-2*pad)
	y := pad
	for _, t := range r.l.toasts {
		w := t.widthFor(maxW)
		h := t.HeightAt(w)
		t.Move(fyne.NewPos(size.Width-pad-w, y))
		t.Resize(fyne.NewSize(w, h))
		y += h + pad/2
	}
}

func (r *toastLayerRenderer) Refresh() {
	r.objects = r.objects[:0]
	// Drawn oldest first so that, should they ever overlap, the newest is
	// on top.
	for i := len(r.l.toasts) - 1; i >= 0; i-- {
		r.objects = append(r.objects, r.l.toasts[i])
	}
	for _, t := range r.l.toasts {
		t.Refresh()
	}
	r.Layout(r.l.view.Size())
}

// afterOnUI runs f on the UI goroutine once d has passed.
func afterOnUI(d time.Duration, f func()) (stop func()) { return kit.After(d, f) }

// startAnimation runs tick from 0 to 1 over d on the UI goroutine; the
// driver calls tick with exactly 1 when it ends.
func startAnimation(d time.Duration, tick func(float32)) (stop func()) {
	a := fyne.NewAnimation(d, tick)
	a.Curve = fyne.AnimationEaseIn
	a.Start()
	return a.Stop
}

// toast is one notification: an icon in the level's colour, the text
// wrapped to at most toastMaxLines lines, and a close mark. A tap anywhere
// on it dismisses it.
type toast struct {
	widget.BaseWidget
	layer  *ToastLayer
	notice model.Notice
	count  int     // how many times the notice came in a row
	gen    int     // counts schedules, to drop a stale timer's call
	alpha  float32 // 1 while shown, falling to 0 as it fades

	stopTimer, stopFade func()

	bg, tint, accent *canvas.Rectangle
	icon, close      *canvas.Image
	lines            []*canvas.Text
	wrapped          []string
	wrapW            float32
}

var (
	_ fyne.Tappable      = (*toast)(nil)
	_ desktop.Cursorable = (*toast)(nil)
)

func newToast(l *ToastLayer, n model.Notice) *toast {
	t := &toast{layer: l, notice: n, count: 1, alpha: 1,
		bg: canvas.NewRectangle(nil), tint: canvas.NewRectangle(nil), accent: canvas.NewRectangle(nil),
		icon: &canvas.Image{FillMode: canvas.ImageFillContain}, close: &canvas.Image{FillMode: canvas.ImageFillContain}}
	t.ExtendBaseWidget(t)
	return t
}

func (t *toast) same(n model.Notice) bool {
	return t.notice.Text == n.Text && t.notice.Level == n.Level && t.notice.Source == n.Source
}

func (t *toast) repeat() {
	t.count++
	t.wrapW = 0
}

func (t *toast) fading() bool { return t.stopFade != nil }

func (t *toast) stop() {
	if t.stopTimer != nil {
		t.stopTimer()
		t.stopTimer = nil
	}
	if t.stopFade != nil {
		t.stopFade()
		t.stopFade = nil
	}
}

func (t *toast) Tapped(*fyne.PointEvent) { t.layer.dismiss(t) }

func (t *toast) Cursor() desktop.Cursor { return desktop.PointerCursor }

// text is what the toast says: the source names who is talking, and a
// repeat count replaces copies of the same toast.
func (t *toast) text() string {
	s := t.notice.Text
	if t.notice.Source != "" {
		s = t.notice.Source + ": " + s
	}
	if t.count > 1 {
		s += " (×" + strconv.Itoa(t.count) + ")"
	}
	return s
}

func (t *toast) metrics() (inner, icon, gap, textSize, lineH float32) {
	th := t.Theme()
	inner = th.Size(theme.SizeNameInnerPadding)
	icon = th.Size(theme.SizeNameInlineIcon)
	gap = th.Size(theme.SizeNamePadding) * 2
	textSize = th.Size(theme.SizeNameText)
	lineH = fyne.MeasureText("Mg", textSize, fyne.TextStyle{}).Height
	return
}

// chrome is the width around the text: padding, the icon and the close mark.
func (t *toast) chrome() float32 {
	inner, icon, gap, _, _ := t.metrics()
	return 2*inner + icon + gap + gap + icon*0.6
}

// widthFor is the toast's width when it may be up to maxW wide: short
// texts get a short toast.
func (t *toast) widthFor(maxW float32) float32 {
	_, _, _, size, _ := t.metrics()
	s := t.text()
	if utf8.RuneCountInString(s) > 120 || strings.Contains(s, "\n") {
		return max(maxW, 0)
	}
	return max(min(maxW, t.chrome()+fyne.MeasureText(s, size, fyne.TextStyle{}).Width+1), 0)
}

func (t *toast) wrap(width float32) []string {
	textW := width - t.chrome()
	if t.wrapW != textW || t.wrapped == nil {
		_, _, _, size, _ := t.metrics()
		t.wrapped = kit.WrapPlain(t.text(), textW, size, fyne.TextStyle{}, toastMaxLines)
		t.wrapW = textW
	}
	return t.wrapped
}

func (t *toast) HeightAt(width float32) float32 {
	inner, icon, _, _, lineH := t.metrics()
	return max(icon, float32(len(t.wrap(width)))*lineH) + 2*inner
}

func (t *toast) CreateRenderer() fyne.WidgetRenderer { return &kit.SelfRenderer{W: t} }

// level returns the colour and icon of the toast's level.
func (t *toast) level() (fyne.ThemeColorName, fyne.Resource) {
	th := t.Theme()
	switch t.notice.Level {
	case model.NoticeError:
		return theme.ColorNameError, th.Icon(theme.IconNameError)
	case model.NoticeWarning:
		return theme.ColorNameWarning, th.Icon(theme.IconNameWarning)
	}
	return theme.ColorNamePrimary, th.Icon(theme.IconNameInfo)
}

func (t *toast) Restyle() {
	th := t.Theme()
	col, icon := t.level()
	t.icon.Resource = theme.NewColoredResource(icon, col)
	t.close.Resource = theme.NewColoredResource(th.Icon(theme.IconNameCancel), theme.ColorNamePlaceHolder)
	radius := th.Size(theme.SizeNameInputRadius)
	t.bg.CornerRadius, t.tint.CornerRadius = radius, radius
	t.bg.StrokeWidth = 1
	t.wrapped = nil // the text size may have changed
	t.paint()
}

// paint applies the colours at the current alpha; a fade calls it every
// frame, so it touches only what the alpha changes.
func (t *toast) paint() {
	th := t.Theme()
	col, _ := t.level()
	a := t.alpha
	t.bg.FillColor = fade(kit.ResolveColor(th, theme.ColorNameOverlayBackground), a)
	t.bg.StrokeColor = fade(kit.WithAlpha(kit.ResolveColor(th, col), 0x99), a)
	t.tint.FillColor = fade(kit.WithAlpha(kit.ResolveColor(th, col), 0x1f), a)
	t.accent.FillColor = fade(kit.ResolveColor(th, col), a)
	fg := fade(kit.ResolveColor(th, theme.ColorNameForeground), a)
	for _, l := range t.lines {
		l.Color = fg
	}
	t.icon.Translucency = float64(1 - a)
	t.close.Translucency = float64(1 - a)
}

func (t *toast) setAlpha(a float32) {
	t.alpha = a
	t.paint()
	// Images take their translucency when drawn; refreshing them would
	// rasterize their SVG again on every frame of the fade.
	t.bg.Refresh()
	t.tint.Refresh()
	t.accent.Refresh()
	for _, l := range t.lines {
		l.Refresh()
	}
}

func (t *toast) Arrange(size fyne.Size) {
	inner, icon, gap, textSize, lineH := t.metrics()
	t.bg.Resize(size)
	t.tint.Resize(size)
	t.accent.Move(fyne.NewPos(0, inner))
	t.accent.Resize(fyne.NewSize(3, max(size.Height-2*inner, 0)))
	t.icon.Move(fyne.NewPos(inner, inner+max(0, min(lineH, size.Height)-icon)/2))
	t.icon.Resize(fyne.NewSquareSize(icon))
	cl := icon * 0.6
	t.close.Move(fyne.NewPos(size.Width-inner-cl, inner+(lineH-cl)/2))
	t.close.Resize(fyne.NewSquareSize(cl))

	lines := t.wrap(size.Width)
	for len(t.lines) < len(lines) {
		t.lines = append(t.lines, canvas.NewText("", nil))
	}
	t.lines = t.lines[:len(lines)]
	fg := fade(kit.ResolveColor(t.Theme(), theme.ColorNameForeground), t.alpha)
	x := inner + icon + gap
	for i, s := range lines {
		l := t.lines[i]
		l.Text, l.TextSize, l.Color = s, textSize, fg
		l.Move(fyne.NewPos(x, inner+float32(i)*lineH))
		l.Resize(fyne.NewSize(size.Width-x-inner, lineH))
		l.Refresh()
	}
}

func (t *toast) Parts() []fyne.CanvasObject {
	objs := []fyne.CanvasObject{t.bg, t.tint, t.accent, t.icon, t.close}
	for _, l := range t.lines {
		objs = append(objs, l)
	}
	return objs
}

// fade scales c's opacity by a.
func fade(c color.Color, a float32) color.Color {
	n := color.NRGBAModel.Convert(c).(color.NRGBA)
	n.A = uint8(float32(n.A) * max(0, min(a, 1)))
	return n
}
