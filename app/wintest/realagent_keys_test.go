package wintest_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"

	"knightcode.ai/desktop/app/wintest"
	"knightcode.ai/desktop/rpcconn/rpctest/llmserver"
)

// TestRealAgentKeyboardAndDrops drives pi's dialogs and the app's own with
// the keyboard alone, under X, as a person would: the UI extension's /ask
// puts up pi's select, confirm, input and editor in turn; arrows pick,
// Enter chooses, Esc cancels, Ctrl+Enter saves; what pi reports back says
// each answer arrived. Rename from the palette is typed and sent with
// Enter. Then a text file dragged onto the window goes into the prompt as
// @path at the cursor — no question — and reaches the model as such.
func TestRealAgentKeyboardAndDrops(t *testing.T) {
	r := raSetup(t)
	r.step1Start()
	key := func(keys ...string) {
		t.Helper()
		for _, k := range keys {
			r.must(r.app.Key(k), "key "+k)
			time.Sleep(250 * time.Millisecond)
		}
	}

	// pi's select: nothing picked at first; Down, Down picks green.
	r.typeLine("/ask")
	key("Return")                                                                                                       // the first Enter took the "/" completion
	r.waitScreen("ask-select", "pi's select dialog", r.whole, raAll("Pick", "color", "red", "green", "blue", "Cancel")) // Choose is dimmed: nothing is picked
	key("Return")                                                                                                       // nothing picked yet: Enter does nothing
	key("Down", "Down")
	r.waitScreen("ask-select-green", "green picked", r.whole, raAll("Pick", "green"))
	key("Return")
	// pi's confirm: Esc cancels it (pi makes a cancelled confirm false).
	r.waitScreen("ask-confirm", "pi's confirm dialog", r.whole, raAll("Proceed?", "Yes"))
	key("Escape")
	// pi's input: typed, Enter answers.
	r.waitScreen("ask-input", "pi's input dialog", r.whole, raAll("Your", "name"))
	r.must(r.app.Type("Quokka"), "typing")
	key("Return")
	// pi's editor: Enter is a new line, Ctrl+Enter saves.
	r.waitScreen("ask-editor", "pi's editor dialog", r.whole, raAll("Notes", "Save"))
	key("Page_Down") // to the end of the prefilled text
	key("Return")
	r.must(r.app.Type("Wombat"), "typing")
	key("ctrl+Return")
	words := r.waitScreen("ask-answers", "pi's notification with the answers", r.whole, raHas(`select="green"`, "confirm=false", `input="Quokka"`, "Wombat"))
	t.Logf("pi reported: %s", wintest.Text(words))

	// Rename from the palette: typed, Enter renames.
	key("ctrl+k")
	r.must(r.app.Type("Rename"), "typing")
	key("Return")
	r.waitScreen("rename", "the Rename dialog", r.whole, raAll("Rename", "session", "Cancel"))
	r.must(r.app.Type("Platypus notes"), "typing")
	key("Return")
	r.waitScreen("renamed", "the new name in the top bar", func() wintest.Geometry { return r.region(0, 25, r.geo.W/2, 50) }, raAll("Platypus"))

	// A text file dragged onto the window: its path goes into the draft
	// at the cursor, and to the model with the prompt.
	notes := filepath.Join(r.env.WorkDir, "kangaroo.txt")
	if err := os.WriteFile(notes, []byte("not an image\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r.focusEditor()
	r.must(r.app.Type("look at  please"), "typing")
	key("Left", "Left", "Left", "Left", "Left", "Left", "Left")
	r.dropFile("file://"+notes, r.geo.X+r.geo.W*30/100, r.geo.Y+r.geo.H*40/100)
	r.waitScreen("dropped-text", "the reference in the editor and the note", r.bottom, raHas("look at @kangaroo.txt please", "Undo"))
	n := len(r.srv.Requests())
	r.focusEditor() // the drag source took the keyboard
	key("Return")
	req := r.waitRequest(n, "the prompt with the reference", func(q llmserver.Request) bool {
		return strings.Contains(q.LastUserText(), "kangaroo")
	})
	if got := req.LastUserText(); got != "look at @kangaroo.txt please" {
		t.Fatalf("the model got %q", got)
	}
	r.waitIdle("the reply")
}

// dropFile drags uri from a small GTK window onto the app at screen
// position (tx, ty), as a person drags a file from a file manager.
func (r *raRun) dropFile(uri string, tx, ty int) {
	t := r.t
	out, err := r.app.Xdotool("getdisplaygeometry")
	r.must(err, "display geometry")
	var sw, sh int
	fmt.Sscan(out, &sw, &sh)
	srcW, srcH := 70, 120
	sx, sy := r.geo.X+r.geo.W+5, r.geo.Y+300
	if sx+srcW > sw {
		sx, sy = r.geo.X+r.geo.W-srcW-20, r.geo.Y+r.geo.H-srcH-200
	}
	src := r.startDragSource(uri, sx, sy, srcW, srcH)
	defer src.stop()
	x0, y0 := sx+srcW/2, sy+srcH/2
	xdo := func(args ...string) {
		t.Helper()
		_, err := r.app.Xdotool(args...)
		r.must(err, "xdotool "+strings.Join(args, " "))
	}
	xdo("mousemove", "--sync", strconv.Itoa(x0), strconv.Itoa(y0))
	time.Sleep(300 * time.Millisecond)
	xdo("mousedown", "1")
	time.Sleep(300 * time.Millisecond)
	const steps = 10
	for i := 1; i <= steps; i++ {
		xdo("mousemove", strconv.Itoa(x0+(tx-x0)*i/steps), strconv.Itoa(y0+(ty-y0)*i/steps))
		time.Sleep(150 * time.Millisecond)
	}
	xdo("mousemove", strconv.Itoa(tx+4), strconv.Itoa(ty+2))
	time.Sleep(300 * time.Millisecond)
	xdo("mousemove", strconv.Itoa(tx), strconv.Itoa(ty))
	time.Sleep(500 * time.Millisecond)
	xdo("mouseup", "1")
	if !src.waitFor("end", raWait) || !src.saw("data") {
		t.Fatalf("the drop did not happen; the drag source printed %q", src.lines())
	}
}

// raHas holds when the words, read in order, contain each of want (letters
// and digits only, ignoring case): OCR splits and glues words around
// punctuation.
func raHas(want ...string) raMatch {
	norm := func(s string) string {
		return strings.Map(func(r rune) rune {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				return unicode.ToLower(r)
			}
			return -1
		}, s)
	}
	return func(words []wintest.Word) bool {
		all := norm(wintest.Text(words))
		for _, w := range want {
			if !strings.Contains(all, norm(w)) {
				return false
			}
		}
		return true
	}
}
