package app

import (
	"bytes"
	"image"
	"image/draw"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"knightcode.ai/desktop/internal/testsupport"
	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/rpcconn/rpctest"
)

// chatImage is the chat area as the window paints it now, once two paints
// in a row are the same (the chat measures what it estimated on its first
// layouts).
func chatImage(t *testing.T, w *Tab) *image.RGBA {
	t.Helper()
	var last *image.RGBA
	var img *image.RGBA
	testsupport.Eventually(t, "the chat painted the same twice", func() bool {
		onUI(func() {
			w.draw()
			full := w.win.Canvas().Capture()
			pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(w.chat)
			size := w.chat.Size()
			scale := float32(full.Bounds().Dx()) / w.win.Canvas().Size().Width
			r := image.Rect(int(pos.X*scale), int(pos.Y*scale), int((pos.X+size.Width)*scale), int((pos.Y+size.Height)*scale))
			img = image.NewRGBA(image.Rect(0, 0, r.Dx(), r.Dy()))
			draw.Draw(img, img.Bounds(), full, r.Min, draw.Src)
		})
		same := last != nil && bytes.Equal(last.Pix, img.Pix)
		last = img
		return same
	})
	return img
}

// saveShot keeps an image for a failed test to be looked at.
func saveShot(t *testing.T, name string, img image.Image) string {
	path := filepath.Join(t.TempDir(), name)
	if dir := os.Getenv("KC_TEST_SHOTS"); dir != "" {
		path = filepath.Join(dir, name)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, img); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestWindowPaintsASessionFromItsFile opens a long session with an agent
// that answers get_messages only once a gate file exists: the window
// paints the last screen from the file before that, takes typing, and
// when the answer comes the chat area is painted the same, pixel for
// pixel, its entries the very ones painted. The agent then writes to the
// file while it is shown: its reply follows them.
func TestWindowPaintsASessionFromItsFile(t *testing.T) {
	file := testsupport.GeneratedSession(t, 12000)
	one := model.NewSession()
	one.LoadHistory(testsupport.DecodeMessages(t, testsupport.AnswerMessages(t, file)))
	whole := one.View(nil)
	gate := filepath.Join(t.TempDir(), "gate")
	t.Setenv(rpctest.EnvChild, "1")
	path, _ := rpctest.Command()
	log := filepath.Join(t.TempDir(), "agent-stdin.log")
	w := openWindowUntil(t, Flags{Agent: path, Dir: t.TempDir(),
		AgentArgs: []string{"--fake-log=" + log, "--session", file, "--fake-messages-gate", gate}},
		"painted from the file", func(w *Tab) bool {
			var n int
			onUI(func() { n = len(w.drawn.Items) })
			return n > 0 && w.session.PaintedFrom() == file
		})
	painted := drawn(w)
	before := chatImage(t, w)
	var title string
	onUI(func() { title = w.name.Text })
	testsupport.Eventually(t, "get_messages asked", func() bool { return len(sentOfType(t, log, "get_messages")) == 1 })
	if w.session.PaintedFrom() != file {
		t.Fatal("the agent answered get_messages before the gate opened")
	}
	onUI(func() { test.Type(w.composer.prompt.Editor, "typed while painted") })

	if err := os.WriteFile(gate, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	testsupport.Eventually(t, "the whole transcript drawn", func() bool {
		v := drawn(w)
		return len(v.Items) >= len(whole.Items) && len(v.Cards) >= len(whole.Cards)
	})
	answered := drawn(w)
	tail := answered.Items[len(answered.Items)-len(painted.Items):]
	for i := range tail {
		if tail[i].ID != painted.Items[i].ID || tail[i].Revision != painted.Items[i].Revision {
			t.Fatalf("item %d was %s rev %d, is %s rev %d after the answer", i, painted.Items[i].ID, painted.Items[i].Revision, tail[i].ID, tail[i].Revision)
		}
	}
	// The painted tool cards were numbered by their turns from the first
	// paint (the file's replies counted), as the answer numbers them.
	shown := answered.Cards[len(answered.Cards)-len(painted.Cards):]
	for i, c := range painted.Cards {
		if c.Turn == 0 || c.Turn != shown[i].Turn {
			t.Fatalf("card %d: turn %d painted, %d answered", i, c.Turn, shown[i].Turn)
		}
	}
	after := chatImage(t, w)
	if !bytes.Equal(before.Pix, after.Pix) || before.Bounds() != after.Bounds() {
		t.Fatalf("the chat area changed when the agent answered: before %s, after %s",
			saveShot(t, "paint-before.png", before), saveShot(t, "paint-after.png", after))
	}
	// The session's title was its first prompt from the first paint on.
	var titleAfter string
	onUI(func() { titleAfter = w.name.Text })
	if want := titleWords(model.UserPrompts(whole.Items)[0]); title != want || titleAfter != want {
		t.Fatalf("titled %q when painted, %q with the whole transcript, want %q", title, titleAfter, want)
	}

	var text string
	onUI(func() { text = w.composer.prompt.Editor.Text() })
	if text != "typed while painted" {
		t.Fatalf("the editor holds %q", text)
	}
	onUI(func() { w.composer.prompt.Editor.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn}) })
	testsupport.Eventually(t, "the reply after the opened session", func() bool {
		return settledReply(w) && len(drawn(w).Items) >= len(answered.Items)+2
	})
	v := drawn(w)
	if v.Items[len(answered.Items)-1].ID != painted.Items[len(painted.Items)-1].ID {
		t.Fatal("the painted entries were replaced when the agent wrote to the file")
	}
}
