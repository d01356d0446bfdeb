package widgets

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"knightcode.ai/desktop/model"
)

// testPNG is a w×h picture: a diagonal gradient, so a stretched or cropped
// thumbnail shows in a screenshot.
func testPNG(t testing.TB, w, h int, tint color.NRGBA) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			f := float64(x+y) / float64(w+h)
			img.SetNRGBA(x, y, color.NRGBA{uint8(float64(tint.R) * f), uint8(float64(tint.G) * (1 - f)), tint.B, 255})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func sampleAttachments(t testing.TB) []model.Attachment {
	return []model.Attachment{
		{ID: "a", Name: "screenshot-2026-11-30-at-12.04.55.png", Thumb: testPNG(t, 160, 100, color.NRGBA{255, 200, 80, 0}), Note: "scaled down from 4032×3024"},
		{ID: "b", Name: "tall.jpg", Thumb: testPNG(t, 40, 120, color.NRGBA{80, 160, 255, 0})},
		{ID: "c", Name: "IMG_0042.HEIC", Loading: true},
		{ID: "d", Name: "diagram.tiff", Error: "TIFF images are not supported; convert it to PNG or JPEG"},
	}
}

func TestAttachmentStripDecodesOncePerID(t *testing.T) {
	test.NewTempApp(t)
	s := NewAttachmentStrip()
	decodes := map[string]int{}
	s.decode = func(b []byte) (image.Image, error) {
		decodes[string(b[len(b)-16:])]++
		return decodeImage(b)
	}
	count := func() (n int) {
		for _, c := range decodes {
			n += c
		}
		return n
	}
	w := test.NewTempWindow(t, container.NewVBox(s))
	w.Resize(fyne.NewSize(640, 200))
	items := sampleAttachments(t)
	s.SetAttachments(items)
	if count() != 2 {
		t.Fatalf("%d decodes for 2 thumbnails", count())
	}
	// Every draft change hands over the whole list, same bytes in new slices.
	again := sampleAttachments(t)
	again[0].Note = "scaled down"
	s.SetAttachments(again)
	s.SetAttachments(again[:2])
	if count() != 2 {
		t.Fatalf("%d decodes after re-setting the same IDs", count())
	}
	// The loading file finishes: only it is decoded.
	items[2].Loading, items[2].Thumb = false, testPNG(t, 64, 64, color.NRGBA{0, 255, 0, 0})
	s.SetAttachments(items)
	if count() != 3 {
		t.Fatalf("%d decodes after one more thumbnail", count())
	}
	// A removed ID is forgotten.
	s.SetAttachments(items[1:])
	if _, ok := s.decoded["a"]; ok || len(s.decoded) != 2 {
		t.Fatalf("cache holds %d entries", len(s.decoded))
	}
}

func TestAttachmentStripCallbacksAndLook(t *testing.T) {
	test.NewTempApp(t)
	s := NewAttachmentStrip()
	var removed, previewed []string
	s.OnRemove = func(id string) { removed = append(removed, id) }
	s.OnPreview = func(id string) { previewed = append(previewed, id) }
	editor := widget.NewMultiLineEntry()
	w := test.NewTempWindow(t, container.NewBorder(container.NewVBox(s), nil, nil, nil, editor))
	w.Resize(fyne.NewSize(640, 240))
	if s.Visible() {
		t.Fatal("empty strip shown")
	}
	s.SetAttachments(sampleAttachments(t))
	w.Content().Refresh()
	test.AssertRendersToMarkup(t, "attachments/strip.xml", w.Canvas())

	tile := s.views["b"].(*attachTile)
	test.Tap(tile)
	test.Tap(s.views["c"].(*attachTile)) // still loading: nothing to preview
	// The × overhangs the thumbnail's corner; a click there removes rather
	// than previews.
	xPos := fyne.CurrentApp().Driver().AbsolutePositionForObject(tile.remove).AddXY(3, 3)
	test.TapCanvas(w.Canvas(), xPos)
	test.Tap(s.views["d"].(*attachChip).remove)
	if len(previewed) != 1 || previewed[0] != "b" {
		t.Fatalf("previewed %q", previewed)
	}
	if len(removed) != 2 || removed[0] != "b" || removed[1] != "d" {
		t.Fatalf("removed %q", removed)
	}

	s.SetAttachments(nil)
	if s.Visible() {
		t.Fatal("strip still shown with no attachments")
	}
	w.Content().Refresh()
	test.AssertRendersToMarkup(t, "attachments/empty.xml", w.Canvas())
}

func TestImagePreview(t *testing.T) {
	test.NewTempApp(t)
	p := NewImagePreview(testPNG(t, 1600, 900, color.NRGBA{255, 120, 40, 0}), "wide.png", "scaled down from 4032×3024")
	if got := p.MinSize(); got.Width < 700 || got.Width > 760 {
		t.Fatalf("preview min size %v", got)
	}
	w := test.NewTempWindow(t, p)
	w.Resize(fyne.NewSize(760, 540))
	test.AssertRendersToMarkup(t, "attachments/preview.xml", w.Canvas())

	bad := NewImagePreview([]byte("not an image"), "broken.png", "")
	w.SetContent(bad)
	test.AssertRendersToMarkup(t, "attachments/preview_broken.xml", w.Canvas())
}

func TestAttachmentShots(t *testing.T) {
	saveShots(t, "attachments", fyne.NewSize(640, 220), func() fyne.CanvasObject {
		s := NewAttachmentStrip()
		s.SetAttachments(sampleAttachments(t))
		e := widget.NewMultiLineEntry()
		e.SetText("What is wrong with this layout?")
		return container.NewBorder(container.NewVBox(s), nil, nil, nil, e)
	})
	saveShots(t, "imagepreview", fyne.NewSize(760, 560), func() fyne.CanvasObject {
		return NewImagePreview(testPNG(t, 1600, 900, color.NRGBA{255, 120, 40, 0}), "wide.png", "scaled down from 4032×3024")
	})
}
