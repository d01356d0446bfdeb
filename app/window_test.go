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
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/test"

	"knightcode.ai/desktop/internal/testsupport"
	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/rpcconn/rpctest"
	"knightcode.ai/desktop/widgets/kit"
)

// openTestWindow opens the real main window in Fyne's test driver against
// the fake agent (this test binary re-run as a child); log receives every
// line the window sent to the agent.
func openTestWindow(t *testing.T, agentArgs ...string) (*Tab, string) {
	t.Helper()
	return openTestWindowIn(t, t.TempDir(), agentArgs...)
}

// openTestWindowIn is openTestWindow with the agent working in dir.
func openTestWindowIn(t *testing.T, dir string, agentArgs ...string) (*Tab, string) {
	t.Helper()
	t.Setenv(rpctest.EnvChild, "1")
	path, _ := rpctest.Command()
	log := filepath.Join(t.TempDir(), "agent-stdin.log")
	return openWindowWith(t, Flags{Agent: path, Dir: dir, AgentArgs: append([]string{"--fake-log=" + log}, agentArgs...)}), log
}

// openWindowWith opens a window started with flags and waits until its
// agent is connected.
func openWindowWith(t *testing.T, flags Flags) *Tab {
	t.Helper()
	return openWindowUntil(t, flags, "connected", func(w *Tab) bool {
		return w.session.View(nil).Conn == model.ConnReady && len(w.session.Models()) > 0
	})
}

// openWindowUntil opens a window started with flags and waits until ready
// holds.
func openWindowUntil(t *testing.T, flags Flags, what string, ready func(*Tab) bool) *Tab {
	t.Helper()
	serializeUI(t)
	a := test.NewTempApp(t)
	// The app's own theme, as Run sets it: the test driver's theme has no
	// bold monospace font, which a !command's line uses.
	a.Settings().SetTheme(newAppTheme(Settings{}))
	var w *Tab
	onUI(func() {
		w = NewWindow(a, flags).Current()
		w.win.Resize(fyne.NewSize(1100, 760))
	})
	t.Cleanup(func() {
		w.shell.shutdown()
		onUI(w.win.Close)
	})
	testsupport.Eventually(t, what, func() bool { return ready(w) })
	return w
}

// uiLock stands in for the UI goroutine: the test driver runs fyne.Do work
// on whichever goroutine asks, so the window's goroutines and the test take
// turns through it.
var uiLock sync.Mutex

func serializeUI(t *testing.T) {
	t.Cleanup(kit.SetDriver(kit.Driver{Do: doOnUI, DoAndWait: onUI}))
}

// uiHolder is the goroutine running a function in onUI, 0 for none.
var uiHolder atomic.Int64

// onUI runs f as the UI goroutine would; f must not wait for uiloop.Do itself.
func onUI(f func()) {
	uiLock.Lock()
	defer uiLock.Unlock()
	uiHolder.Store(goroutineID())
	defer uiHolder.Store(0)
	f()
}

// doOnUI is the tests' kit.Do: at once, in turn with the test, unless it
// is called from work onUI runs (a UI callback handing work over, which
// Fyne queues): then it runs after, as Fyne's would, instead of waiting for
// itself.
func doOnUI(f func()) {
	if uiHolder.Load() == goroutineID() {
		go onUI(f)
		return
	}
	onUI(f)
}

// goroutineID is the calling goroutine's number, read from its stack
// header ("goroutine 42 [running]:"): for the test harness only.
func goroutineID() int64 {
	var buf [64]byte
	b := buf[:runtime.Stack(buf[:], false)]
	b = bytes.TrimPrefix(b, []byte("goroutine "))
	if i := bytes.IndexByte(b, ' '); i > 0 {
		b = b[:i]
	}
	id, _ := strconv.ParseInt(string(b), 10, 64)
	return id
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

func typeAndSend(w *Tab, text string) {
	onUI(func() {
		test.Type(w.composer.prompt.Editor, text)
		w.composer.prompt.Editor.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	})
}

// drawn draws the session's latest state and returns it.
func drawn(w *Tab) model.View {
	var v model.View
	onUI(func() {
		w.draw()
		v = w.drawn
	})
	return v
}

func settledReply(w *Tab) bool {
	v := drawn(w)
	if v.Running || len(v.Items) == 0 {
		return false
	}
	last := v.Items[len(v.Items)-1]
	return last.Kind == model.ChatAssistant && !last.Streaming
}

func TestWindowChatRoundTrip(t *testing.T) {
	w, log := openTestWindow(t)
	var focused fyne.Focusable
	onUI(func() { focused = w.win.Canvas().Focused() })
	if focused != w.composer.prompt.Editor {
		t.Fatal("the editor does not have the focus at start")
	}
	typeAndSend(w, "hello [[markdown]]")
	testsupport.Eventually(t, "reply", func() bool { return settledReply(w) })
	prompts := sentOfType(t, log, "prompt")
	if len(prompts) != 1 || prompts[0]["message"] != "hello [[markdown]]" {
		t.Fatalf("prompts sent %v", prompts)
	}
	var draft string
	onUI(func() { draft, focused = w.composer.prompt.Editor.Text(), w.win.Canvas().Focused() })
	if draft != "" || focused != w.composer.prompt.Editor {
		t.Fatalf("after send: draft %q, focus %v", draft, focused)
	}
	v := drawn(w)
	reply := v.Items[len(v.Items)-1]
	if !strings.Contains(reply.Blocks[len(reply.Blocks)-1].Text, "# ") {
		t.Fatalf("reply %+v", reply)
	}
	testsupport.Eventually(t, "stats", func() bool { return drawn(w).Status.TokensIn > 0 })
}

func TestWindowFireAndForgetRequests(t *testing.T) {
	w, _ := openTestWindow(t)
	typeAndSend(w, "[[ext:status]] [[ext:widget]] [[ext:title]] [[ext:notify:warning]] [[ext:editor-text]] [[ext-error]]")
	testsupport.Eventually(t, "reply", func() bool { return settledReply(w) })
	editorText := func() (text string) {
		onUI(func() { text = w.composer.prompt.Editor.Text() })
		return text
	}
	testsupport.Eventually(t, "editor text from the extension", func() bool { return editorText() != "" })
	var restoreVisible bool
	var previous string
	onUI(func() { restoreVisible = w.composer.draftRestore.Visible() })
	if restoreVisible {
		t.Fatal("offered to restore an empty draft")
	}
	// A draft the user typed, replaced by the next set_editor_text.
	onUI(func() { w.composer.prompt.Editor.SetText("my draft") })
	w.SetEditorText("from the extension")
	onUI(func() {
		restoreVisible, previous = w.composer.draftRestore.Visible(), w.composer.draftRestore.Previous()
	})
	if editorText() != "from the extension" || !restoreVisible || previous != "my draft" {
		t.Fatalf("replaced draft not recoverable: visible=%v previous=%q", restoreVisible, previous)
	}
	onUI(w.composer.draftRestore.OnRestore)
	if got := editorText(); got != "my draft" {
		t.Fatalf("restore gave %q", got)
	}
	v := drawn(w)
	var title string
	var blocks int
	onUI(func() { title, blocks = w.win.Title(), len(w.above.Keys())+len(w.below.Keys()) })
	if !strings.Contains(title, "KnightCode") || title == appTitle {
		t.Fatalf("title %q", title)
	}
	if blocks == 0 {
		t.Fatal("no extension widget block")
	}
	if len(v.Status.Extension) == 0 {
		t.Fatal("no extension status")
	}
	testsupport.Eventually(t, "notification and error popped up", func() bool {
		levels := map[model.NoticeLevel]bool{}
		var errs int
		onUI(func() {
			for _, n := range w.toasts.History() {
				levels[n.Level] = true
			}
			errs = len(w.commands.extErrors)
		})
		return levels[model.NoticeWarning] && levels[model.NoticeError] && errs == 1
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
	onUI(func() {
		w.composer.onDropped(fyne.NewPos(10, 10), []fyne.URI{storage.NewFileURI(pngPath), storage.NewFileURI(notes)})
	})
	testsupport.Eventually(t, "image loaded", func() bool { return readyCount(w) == 1 })
	// The text file's path goes into the draft; nothing asks.
	var draft string
	onUI(func() { draft = w.composer.prompt.Editor.Text() })
	if want := "@" + filepath.ToSlash(notes) + " "; draft != want || overlays(w) != 0 {
		t.Fatalf("draft %q (want %q), %d dialogs", draft, want, overlays(w))
	}
	onUI(func() { w.composer.prompt.Editor.Clear() })

	typeAndSend(w, "what is in this picture?")
	testsupport.Eventually(t, "reply", func() bool { return settledReply(w) })
	prompts := sentOfType(t, log, "prompt")
	images, _ := prompts[len(prompts)-1]["images"].([]any)
	if len(images) != 1 {
		t.Fatalf("prompt sent %v", prompts[len(prompts)-1])
	}
	img := images[0].(map[string]any)
	if img["type"] != "image" || img["mimeType"] != "image/png" || img["data"] != base64.StdEncoding.EncodeToString(data) {
		t.Fatalf("image sent as %v/%v, %d base64 bytes", img["type"], img["mimeType"], len(img["data"].(string)))
	}
	testsupport.Eventually(t, "attachments cleared after sending", func() bool {
		var n int
		onUI(func() { n = len(w.composer.images) })
		return n == 0
	})
	v := drawn(w)
	user := v.Items[len(v.Items)-2]
	if user.Kind != model.ChatUser || len(user.Images) != 1 {
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
	onUI(func() { w.composer.onDropped(fyne.Position{}, uris) })
	testsupport.Eventually(t, "all loaded", func() bool { return readyCount(w) == 20 })
	var errs []string
	onUI(func() {
		for _, img := range w.composer.images {
			if img.err != nil {
				errs = append(errs, img.err.Error())
			}
		}
	})
	if len(errs) != 2 || !strings.Contains(strings.Join(errs, "|"), "empty") || !strings.Contains(strings.Join(errs, "|"), "BMP") {
		t.Fatalf("rejections %q", errs)
	}
}

func TestWindowWarnsBeforeImagesToTextModel(t *testing.T) {
	w, log := openTestWindow(t)
	w.controller.SelectModel("fake", "fast")
	testsupport.Eventually(t, "text-only model", func() bool { return drawn(w).ModelID == "fast" })
	p := filepath.Join(t.TempDir(), "a.png")
	writePNG(t, p, 16)
	onUI(func() { w.composer.attachFiles([]string{p}) })
	testsupport.Eventually(t, "loaded", func() bool { return readyCount(w) == 1 })
	typeAndSend(w, "look")
	if overlays(w) == 0 {
		t.Fatal("no warning before sending an image to a text-only model")
	}
	if n := len(sentOfType(t, log, "prompt")); n != 0 {
		t.Fatalf("sent %d prompts before the user chose", n)
	}
	var draft string
	onUI(func() { draft = w.composer.prompt.Editor.Text() })
	if draft != "look" {
		t.Fatalf("draft %q lost while asking", draft)
	}
}

// readyCount is how many attachments are loaded, or -1 while some load.
func readyCount(w *Tab) int {
	n := -1
	onUI(func() {
		if _, imgs, loading := w.composer.readyImages(); !loading {
			n = len(imgs)
		}
	})
	return n
}

func overlays(w *Tab) (n int) {
	onUI(func() { n = len(w.win.Canvas().Overlays().List()) })
	return n
}

// TestWindowStopsACommand: while a !command runs the Stop button shows
// (the agent is otherwise idle) and stops it; its output streams in, and
// it shows how long it ran. Stop is in the menu and the palette too.
func TestWindowStopsACommand(t *testing.T) {
	w, log := openTestWindow(t, "--fake-delay=150ms")
	typeAndSend(w, "!seq 1 40")
	testsupport.Eventually(t, "output streams in", func() bool {
		v := drawn(w)
		if len(v.Items) == 0 {
			return false
		}
		it := v.Items[len(v.Items)-1]
		return it.Kind == model.ChatBash && it.Streaming && strings.HasPrefix(it.Text, "1\n2\n")
	})
	var stopShown bool
	onUI(func() { stopShown = w.composer.prompt.StopVisible() })
	if !stopShown || drawn(w).Running {
		t.Fatalf("while the command runs: Stop shown %v", stopShown)
	}
	onUI(w.composer.prompt.Stop)
	testsupport.Eventually(t, "cancelled", func() bool {
		v := drawn(w)
		it := v.Items[len(v.Items)-1]
		return !v.BashRunning && !it.Streaming && it.Cancelled
	})
	if n := len(sentOfType(t, log, "abort_bash")); n != 1 {
		t.Fatalf("abort_bash sent %d times", n)
	}
	v := drawn(w)
	it := v.Items[len(v.Items)-1]
	if it.Started.IsZero() || it.Ended.Before(it.Started) || strings.Contains(it.Text, "40\n") {
		t.Fatalf("stopped command: started %v ended %v, text %q", it.Started, it.Ended, it.Text)
	}
	onUI(func() { stopShown = w.composer.prompt.StopVisible() })
	if stopShown {
		t.Fatal("Stop still shown after the command ended")
	}

	var inMenu, inPalette bool
	onUI(func() {
		for _, m := range w.win.MainMenu().Items {
			for _, mi := range m.Items {
				inMenu = inMenu || strings.HasPrefix(mi.Label, "Stop")
			}
		}
		for _, a := range w.appActions() {
			inPalette = inPalette || a.item.Title == "Stop"
		}
	})
	if !inMenu || !inPalette {
		t.Fatalf("Stop in the menu %v, in the palette %v", inMenu, inPalette)
	}
	// From the menu it stops a command the same way.
	typeAndSend(w, "!sleep 30")
	testsupport.Eventually(t, "running", func() bool { return drawn(w).BashRunning })
	onUI(w.actionStop)
	testsupport.Eventually(t, "stopped from the menu", func() bool {
		v := drawn(w)
		return !v.BashRunning && v.Items[len(v.Items)-1].Cancelled
	})
}

// TestWindowEscapeOnAgentWithoutClearQueue: after Esc on an agent that
// cannot give queued messages back the window is idle again (Send, no
// Stop), the editor stays empty and the queue strip says the messages go
// with the next prompt.
func TestWindowEscapeOnAgentWithoutClearQueue(t *testing.T) {
	w, _ := openTestWindow(t, "--fake-older")
	typeAndSend(w, "[[slow:100]] [[long:60]]")
	testsupport.Eventually(t, "running", func() bool { return drawn(w).Running })
	typeAndSend(w, "steer me")
	testsupport.Eventually(t, "queued", func() bool { return len(drawn(w).Steering) == 1 })
	onUI(func() { w.composer.prompt.Editor.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape}) })
	testsupport.Eventually(t, "idle with the note", func() bool {
		v := drawn(w)
		var note string
		onUI(func() { note = w.composer.prompt.QueueNote() })
		return !v.Running && note == model.NoteQueueStays
	})
	var draft string
	var stop bool
	onUI(func() { draft, stop = w.composer.prompt.Editor.Text(), w.composer.prompt.StopVisible() })
	if draft != "" || stop {
		t.Fatalf("after Esc: draft %q, Stop shown %v", draft, stop)
	}
}

// TestWindowOpensALongSession: the window draws the whole transcript of a
// long session, which it loads in two steps (the second once the first is
// painted, or after paintWaitMax: the test driver does not paint).
func TestWindowOpensALongSession(t *testing.T) {
	file := testsupport.GeneratedSession(t, 600)
	one := model.NewSession()
	one.LoadHistory(testsupport.DecodeMessages(t, testsupport.AnswerMessages(t, file)))
	want := len(one.View(nil).Items)
	w, _ := openTestWindow(t, "--session", file)
	testsupport.Eventually(t, "the whole transcript drawn", func() bool {
		var n int
		onUI(func() { n = len(w.drawn.Items) })
		return n >= want
	})
	// The model's tests show the two steps make the one-step transcript;
	// here the window draws what its session holds, all of it.
	var drawn model.View
	onUI(func() { drawn = w.drawn })
	if held := w.session.View(nil); !reflect.DeepEqual(drawn.Items, held.Items) || len(drawn.Items) != want {
		t.Fatalf("drawn %d items, the session holds %d, the one-step load %d", len(drawn.Items), len(held.Items), want)
	}
}
