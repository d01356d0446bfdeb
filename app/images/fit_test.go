package images

import (
	"bytes"
	"context"
	"encoding/binary"
	"image"
	"image/color"
	"image/gif"
	"image/png"
	"testing"
)

// Tiny limits drive the resizing paths without megapixel test images.
var testTinyLimits = sizeLimits{maxEdge: 32, maxBase64: 1 << 20, maxPixels: 1 << 20}

func TestOversizedWebPAndGIFAreReencoded(t *testing.T) {
	for _, tc := range []struct {
		name, mime string
		data       []byte
	}{
		{"webp", "image/jpeg", testWebP(t)},                               // opaque photo: JPEG
		{"gif", "image/png", testGIF(t, testNoise(120, 60, false))},       // first frame as PNG
		{"png", "image/png", testPNG(t, testNoise(120, 60, true))},        // transparency kept
		{"jpeg", "image/jpeg", testJPEG(t, testNoise(60, 120, false))},    // portrait
		{"opaque png", "image/png", testPNG(t, testNoise(64, 64, false))}, // screenshots stay sharp
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, err := decodeImage(context.Background(), "f", tc.data, testTinyLimits)
			if err != nil {
				t.Fatal(err)
			}
			if a.MimeType != tc.mime || max(a.Width, a.Height) != 32 || !a.Resized {
				t.Fatalf("got %s %d×%d resized=%v", a.MimeType, a.Width, a.Height, a.Resized)
			}
			cfg, _, err := image.DecodeConfig(bytes.NewReader(a.Data))
			if err != nil || cfg.Width != a.Width || cfg.Height != a.Height {
				t.Errorf("data is %d×%d, %v", cfg.Width, cfg.Height, err)
			}
		})
	}
}

func TestTooManyBytesAtAllowedSizeIsCompressed(t *testing.T) {
	data := testPNG(t, testNoise(64, 64, false))
	lim := sizeLimits{maxEdge: 2048, maxBase64: 8 << 10, maxPixels: 1 << 20}
	a, err := decodeImage(context.Background(), "f", data, lim)
	if err != nil {
		t.Fatal(err)
	}
	if a.MimeType != "image/jpeg" || a.Width != 64 || !a.Resized || len(a.Base64()) > lim.maxBase64 {
		t.Fatalf("got %s %d×%d resized=%v, %d bytes", a.MimeType, a.Width, a.Height, a.Resized, len(a.Data))
	}
	if note := a.Note(); note != "compressed from "+formatByteSize(len(data))+" to "+formatByteSize(len(a.Data)) {
		t.Errorf("note %q", note)
	}
}

func TestShrinksUntilTheBytesFit(t *testing.T) {
	data := testPNG(t, testNoise(400, 400, true))
	lim := sizeLimits{maxEdge: 2048, maxBase64: 64 << 10, maxPixels: 1 << 20}
	a, err := decodeImage(context.Background(), "f", data, lim)
	if err != nil {
		t.Fatal(err)
	}
	if a.MimeType != "image/png" || a.Width >= 400 || a.Width != a.Height || len(a.Base64()) > lim.maxBase64 {
		t.Fatalf("got %s %d×%d, %d bytes", a.MimeType, a.Width, a.Height, len(a.Data))
	}
}

func TestOrientMapsEveryEXIFValue(t *testing.T) {
	// Stored 3×2 pixels are numbered; each row of want is the displayed
	// image read left to right, top to bottom.
	src := image.NewRGBA(image.Rect(0, 0, 3, 2))
	for i := range 6 {
		src.Set(i%3, i/3, color.RGBA{uint8(i + 1), 0, 0, 255})
	}
	want := map[int][]uint8{
		1: {1, 2, 3, 4, 5, 6},
		2: {3, 2, 1, 6, 5, 4},
		3: {6, 5, 4, 3, 2, 1},
		4: {4, 5, 6, 1, 2, 3},
		5: {1, 4, 2, 5, 3, 6},
		6: {4, 1, 5, 2, 6, 3},
		7: {6, 3, 5, 2, 4, 1},
		8: {3, 6, 2, 5, 1, 4},
	}
	for o, w := range want {
		m := applyOrientation(src, o)
		var got []uint8
		for y := range m.Bounds().Dy() {
			for x := range m.Bounds().Dx() {
				got = append(got, m.RGBAAt(x, y).R)
			}
		}
		if !bytes.Equal(got, w) {
			t.Errorf("orientation %d: %v, want %v", o, got, w)
		}
	}
}

// testWithOrientation inserts an EXIF APP1 segment right after SOI.
func testWithOrientation(jpg []byte, o uint16) []byte {
	tiff := []byte("MM\x00*\x00\x00\x00\x08\x00\x01")
	tiff = append(tiff, 0x01, 0x12, 0x00, 0x03, 0, 0, 0, 1)
	tiff = binary.BigEndian.AppendUint16(tiff, o)
	tiff = append(tiff, 0, 0, 0, 0, 0, 0)
	seg := append([]byte("Exif\x00\x00"), tiff...)
	out := append([]byte{0xff, 0xd8, 0xff, 0xe1}, byte((len(seg)+2)>>8), byte(len(seg)+2))
	out = append(out, seg...)
	return append(out, jpg[2:]...)
}

func TestRotatedJPEGIsSentUpright(t *testing.T) {
	jpg := testWithOrientation(testJPEG(t, testNoise(80, 40, false)), 6)
	if o := jpegOrientation(jpg); o != 6 {
		t.Fatalf("orientation %d, want 6", o)
	}
	a, err := Decode("phone.jpg", jpg)
	if err != nil {
		t.Fatal(err)
	}
	if a.Width != 40 || a.Height != 80 || a.MimeType != "image/jpeg" || a.Resized || bytes.Equal(a.Data, jpg) {
		t.Fatalf("got %s %d×%d resized=%v", a.MimeType, a.Width, a.Height, a.Resized)
	}
	thumb, err := png.DecodeConfig(bytes.NewReader(a.Thumb))
	if err != nil || thumb.Width != 40 || thumb.Height != 80 {
		t.Errorf("thumb %d×%d, %v", thumb.Width, thumb.Height, err)
	}
	if o := jpegOrientation(testJPEG(t, testNoise(8, 8, false))); o != 1 {
		t.Errorf("plain JPEG orientation %d", o)
	}
}

func TestGIFFrameSmallerThanCanvasIsPlacedOnIt(t *testing.T) {
	frame := image.NewPaletted(image.Rect(10, 5, 30, 15), []color.Color{color.Black, color.White})
	var buf bytes.Buffer
	err := gif.EncodeAll(&buf, &gif.GIF{Image: []*image.Paletted{frame}, Delay: []int{0},
		Config: image.Config{ColorModel: frame.Palette, Width: 100, Height: 50}})
	if err != nil {
		t.Fatal(err)
	}
	a, err := decodeImage(context.Background(), "f.gif", buf.Bytes(), testTinyLimits)
	if err != nil {
		t.Fatal(err)
	}
	if a.OriginalWidth != 100 || a.OriginalHeight != 50 || a.Width != 32 || a.Height != 16 {
		t.Errorf("canvas %d×%d sent as %d×%d", a.OriginalWidth, a.OriginalHeight, a.Width, a.Height)
	}
}
