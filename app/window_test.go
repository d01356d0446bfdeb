package app

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/test"

	"knightcode.ai/desktop/rpcconn/rpctest"
	"knightcode.ai/desktop/widgets"
)

// openTestWindow opens the real main window in Fyne's test driver against
// the fake agent (this test binary re-run as a child); log receives every
// line the window sent to the agent.
func openTestWindow(t *testing.T, agentArgs ...string) (*Window, string) {
	t.Helper()
	a := test.NewTempApp(t)
	t.Setenv(rpctest.EnvChild, "1")
	path, _ := rpctest.Command()
	log := filepath.Join(t.TempDir(), "agent-stdin.log")
	w := NewWindow(a, Flags{Agent: path, Dir: t.TempDir(), AgentArgs: append([]string{"--fake-log=" + log}, agentArgs...)})
	w.win.Resize(fyne.NewSize(1100, 760))
	t.Cleanup(func() {
		w.shutdown()
		w.win.Close()
	})
	eventually(t, "connected", func() bool { return w.session.View(nil).Conn == ConnReady && len(w.session.Models()) > 0 })
	return w, log
}

// sent returns the records the window sent to the agent.
func sent(t *testing.T, log string) []map[string]any {
	t.Helper()
	data, _ := os.ReadFile(log)
	var out []map[string]any
	for _, line := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var rec map[string]any
		if err := json.Unmarshal(line, &rec); err != nil {
			t.Fatalf("bad line %q: %v", line, err)
		}
		out = append(out, rec)
	}
	return out
}

func sentOfType(t *testing.T, log, typ string) []map[string]any {
	var out []map[string]any
	for _, r := range sent(t, log) {
		if r["type"] == typ {
			out = append(out, r)
		}
	}
	return out
}

func typeAndSend(w *Window, text string) {
	test.Type(w.prompt.Editor, text)
	w.prompt.Editor.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
}

func settledReply(w *Window) bool {
	w.draw()
	v := w.drawn
	if v.Running || len(v.Items) == 0 {
		return false
	}
	last := v.Items[len(v.Items)-1]
	return last.Kind == widgets.ChatAssistant && !last.Streaming
}

func TestWindowChatRoundTrip(t *testing.T) {
	w, log := openTestWindow(t)
	if w.win.Canvas().Focused() != w.prompt.Editor {
		t.Fatal("the editor does not have the focus at start")
	}
	typeAndSend(w, "hello [[markdown]]")
	eventually(t, "reply", func() bool { return settledReply(w) })
	prompts := sentOfType(t, log, "prompt")
	if len(prompts) != 1 || prompts[0]["message"] != "hello [[markdown]]" {
		t.Fatalf("prompts sent %v", prompts)
	}
	if w.prompt.Editor.Text() != "" || w.win.Canvas().Focused() != w.prompt.Editor {
		t.Fatalf("after send: draft %q, focus %v", w.prompt.Editor.Text(), w.win.Canvas().Focused())
	}
	reply := w.drawn.Items[len(w.drawn.Items)-1]
	if !strings.Contains(reply.Blocks[len(reply.Blocks)-1].Text, "# ") {
		t.Fatalf("reply %+v", reply)
	}
	if w.drawn.Status.TokensIn == 0 {
		eventually(t, "stats", func() bool { w.draw(); return w.drawn.Status.TokensIn > 0 })
	}
}

func TestWindowFireAndForgetRequests(t *testing.T) {
	w, _ := openTestWindow(t)
	typeAndSend(w, "[[ext:status]] [[ext:widget]] [[ext:title]] [[ext:notify:warning]] [[ext:editor-text]] [[ext-error]]")
	eventually(t, "reply", func() bool { return settledReply(w) })
	eventually(t, "editor text from the extension", func() bool { return w.prompt.Editor.Text() != "" })
	if w.draftRestore.Visible() {
		t.Fatal("offered to restore an empty draft")
	}
	// A draft the user typed, replaced by the next set_editor_text.
	w.prompt.Editor.SetText("my draft")
	w.SetEditorText("from the extension")
	if w.prompt.Editor.Text() != "from the extension" || !w.draftRestore.Visible() || w.draftRestore.Previous() != "my draft" {
		t.Fatalf("replaced draft not recoverable: visible=%v previous=%q", w.draftRestore.Visible(), w.draftRestore.Previous())
	}
	w.draftRestore.OnRestore()
	if w.prompt.Editor.Text() != "my draft" {
		t.Fatalf("restore gave %q", w.prompt.Editor.Text())
	}
	w.draw()
	if title := w.win.Title(); !strings.Contains(title, "KnightCode") || title == appTitle {
		t.Fatalf("title %q", title)
	}
	if len(w.above.Keys())+len(w.below.Keys()) == 0 {
		t.Fatal("no extension widget block")
	}
	if len(w.drawn.Status.Extension) == 0 {
		t.Fatal("no extension status")
	}
	eventually(t, "notification and error popped up", func() bool {
		levels := map[widgets.NoticeLevel]bool{}
		for _, n := range w.toasts.History() {
			levels[n.Level] = true
		}
		return levels[widgets.NoticeWarning] && levels[widgets.NoticeError] && len(w.extErrors) == 1
	})
}

func writePNG(t *testing.T, path string, size int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, size, size))
	for i := range img.Pix {
		img.Pix[i] = byte(i * 7)
	}
	img.Set(0, 0, color.RGBA{1, 2, 3, 255})
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestWindowDroppedImagesAreSent(t *testing.T) {
	w, log := openTestWindow(t)
	dir := t.TempDir()
	pngPath := filepath.Join(dir, "shot.png")
	data := writePNG(t, pngPath, 64)
	notes := filepath.Join(dir, "notes.txt")
	os.WriteFile(notes, []byte("plain text, not an image"), 0o644)

	// The test driver delivers no drops: call the handler as the window would.
	w.onDropped(fyne.NewPos(10, 10), []fyne.URI{storage.NewFileURI(pngPath), storage.NewFileURI(notes)})
	eventually(t, "image loaded", func() bool {
		_, imgs, loading := w.readyImages()
		return !loading && len(imgs) == 1
	})
	eventually(t, "offer to insert the text file's path", func() bool { return len(w.win.Canvas().Overlays().List()) > 0 })
	w.win.Canvas().Overlays().Top().Hide()

	typeAndSend(w, "what is in this picture?")
	eventually(t, "reply", func() bool { return settledReply(w) })
	prompts := sentOfType(t, log, "prompt")
	images, _ := prompts[len(prompts)-1]["images"].([]any)
	if len(images) != 1 {
		t.Fatalf("prompt sent %v", prompts[len(prompts)-1])
	}
	img := images[0].(map[string]any)
	if img["type"] != "image" || img["mimeType"] != "image/png" || img["data"] != base64.StdEncoding.EncodeToString(data) {
		t.Fatalf("image sent as %v/%v, %d base64 bytes", img["type"], img["mimeType"], len(img["data"].(string)))
	}
	eventually(t, "attachments cleared after sending", func() bool { return len(w.images) == 0 })
	user := w.drawn.Items[len(w.drawn.Items)-2]
	if user.Kind != widgets.ChatUser || len(user.Images) != 1 {
		t.Fatalf("user message in the transcript %+v", user)
	}
}

func TestWindowRejectsBadFilesAndTakesTwentyAtOnce(t *testing.T) {
	w, _ := openTestWindow(t)
	dir := t.TempDir()
	var uris []fyne.URI
	for i := 0; i < 20; i++ {
		p := filepath.Join(dir, "img"+string(rune('a'+i))+".png")
		writePNG(t, p, 300)
		uris = append(uris, storage.NewFileURI(p))
	}
	empty := filepath.Join(dir, "empty.png")
	os.WriteFile(empty, nil, 0o644)
	bmp := filepath.Join(dir, "old.png")
	os.WriteFile(bmp, append([]byte("BM"), make([]byte, 64)...), 0o644)
	uris = append(uris, storage.NewFileURI(empty), storage.NewFileURI(bmp))
	w.onDropped(fyne.Position{}, uris)
	eventually(t, "all loaded", func() bool {
		_, imgs, loading := w.readyImages()
		return !loading && len(imgs) == 20
	})
	var errs []string
	for _, img := range w.images {
		if img.err != nil {
			errs = append(errs, img.err.Error())
		}
	}
	if len(errs) != 2 || !strings.Contains(strings.Join(errs, "|"), "empty") || !strings.Contains(strings.Join(errs, "|"), "BMP") {
		t.Fatalf("rejections %q", errs)
	}
}

func TestWindowWarnsBeforeImagesToTextModel(t *testing.T) {
	w, log := openTestWindow(t)
	w.controller.SelectModel("fake", "fast")
	eventually(t, "text-only model", func() bool { w.draw(); return w.drawn.ModelID == "fast" })
	p := filepath.Join(t.TempDir(), "a.png")
	writePNG(t, p, 16)
	w.attachFiles([]string{p})
	eventually(t, "loaded", func() bool { _, imgs, loading := w.readyImages(); return !loading && len(imgs) == 1 })
	typeAndSend(w, "look")
	if len(w.win.Canvas().Overlays().List()) == 0 {
		t.Fatal("no warning before sending an image to a text-only model")
	}
	if n := len(sentOfType(t, log, "prompt")); n != 0 {
		t.Fatalf("sent %d prompts before the user chose", n)
	}
	if w.prompt.Editor.Text() != "look" {
		t.Fatalf("draft %q lost while asking", w.prompt.Editor.Text())
	}
}
