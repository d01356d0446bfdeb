package app

import (
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"knightcode.ai/desktop/internal/testsupport"
	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/widgets/kit"
)

type answered struct {
	id     string
	answer model.Answer
}

func newTestQueue(t *testing.T) (*dialogQueue, *[]answered, fyne.Window) {
	serializeUI(t)
	test.NewTempApp(t)
	w := test.NewTempWindow(t, widget.NewLabel("behind"))
	w.Resize(fyne.NewSize(800, 600))
	var got []answered
	q := &dialogQueue{parent: w, respond: func(id string, a model.Answer) { got = append(got, answered{id, a}) }}
	return q, &got, w
}

// findButton finds a button by its label on the window's overlays.
func findButton(t *testing.T, w fyne.Window, label string) *kit.DialogButton {
	t.Helper()
	var found *kit.DialogButton
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		if b, ok := o.(*kit.DialogButton); ok && b.Text == label && b.Visible() {
			found = b
		}
		if c, ok := o.(*fyne.Container); ok {
			for _, child := range c.Objects {
				walk(child)
			}
		}
		if wd, ok := o.(fyne.Widget); ok {
			r := test.WidgetRenderer(wd)
			for _, child := range r.Objects() {
				walk(child)
			}
		}
	}
	for _, o := range w.Canvas().Overlays().List() {
		walk(o)
	}
	if found == nil {
		t.Fatalf("no %q button showing", label)
	}
	return found
}

func record(a model.Answer) string { return a.String() }

func TestDialogsQueueAndAnswerOnce(t *testing.T) {
	q, got, w := newTestQueue(t)
	q.Add(model.Dialog{ID: "1", Kind: model.DialogConfirm, Title: "Allow?", Message: "<b>rm</b>"})
	q.Add(model.Dialog{ID: "2", Kind: model.DialogSelect, Title: "Pick", Options: []string{"a", "b"}})
	if len(w.Canvas().Overlays().List()) != 1 {
		t.Fatalf("%d dialogs showing, want one at a time", len(w.Canvas().Overlays().List()))
	}
	test.Tap(findButton(t, w, "Yes"))
	if len(*got) != 1 || (*got)[0].id != "1" || record((*got)[0].answer) != "confirmed=true" {
		t.Fatalf("answers %+v", *got)
	}
	if !q.Open() || q.current.req.ID != "2" {
		t.Fatal("the second dialog did not follow")
	}
	q.CancelCurrent()
	if len(*got) != 2 || record((*got)[1].answer) != "cancelled" || q.Open() {
		t.Fatalf("answers %+v open=%v", *got, q.Open())
	}
}

func TestDialogInputAndEditor(t *testing.T) {
	q, got, w := newTestQueue(t)
	q.Add(model.Dialog{ID: "i", Kind: model.DialogInput, Title: "Name?", Placeholder: "name"})
	test.Type(q.current.focus.(*kit.DialogEntry), "Ann")
	test.Tap(findButton(t, w, "OK"))
	q.Add(model.Dialog{ID: "e", Kind: model.DialogEditor, Title: "Edit", Prefill: "line 1"})
	e := q.current.focus.(*kit.DialogEntry)
	e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if len(*got) != 2 || record((*got)[0].answer) != "value=Ann" || record((*got)[1].answer) != "cancelled" {
		t.Fatalf("answers %+v", *got)
	}
}

func TestDialogTimeoutSendsNothing(t *testing.T) {
	q, got, _ := newTestQueue(t)
	onUI(func() {
		q.Add(model.Dialog{ID: "t", Kind: model.DialogConfirm, Title: "Quick", Timeout: 300 * time.Millisecond})
	})
	open := func() (o bool) {
		onUI(func() { o = q.Open() })
		return o
	}
	testsupport.Eventually(t, "the dialog closed at the agent's 300 ms timeout", func() bool { return !open() })
	var n int
	onUI(func() { n = len(*got) })
	if n != 0 {
		t.Fatalf("sent %+v after the agent's timeout", *got)
	}
}

func TestDialogsCloseWhenAgentExits(t *testing.T) {
	q, got, w := newTestQueue(t)
	q.Add(model.Dialog{ID: "1", Kind: model.DialogConfirm, Title: "A"})
	q.Add(model.Dialog{ID: "2", Kind: model.DialogConfirm, Title: "B"})
	q.CloseAll()
	if q.Open() || len(*got) != 0 || len(w.Canvas().Overlays().List()) != 0 {
		t.Fatalf("open=%v answers=%+v overlays=%d", q.Open(), *got, len(w.Canvas().Overlays().List()))
	}
}
