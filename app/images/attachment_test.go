package images

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"math/rand/v2"
	"os"
	"runtime"
	"strings"
	"testing"
)

// testNoise is a photo-like image: smooth gradients plus grain, which
// compresses about as badly as a real photo.
func testNoise(w, h int, transparent bool) *image.NRGBA {
	r := rand.New(rand.NewPCG(1, 2))
	m := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			grain := func(v int) uint8 { return uint8(min(255, max(0, v+r.IntN(48)-24))) }
			a := uint8(255)
			if transparent {
				a = uint8(x * 255 / w)
			}
			m.SetNRGBA(x, y, color.NRGBA{grain(x * 255 / w), grain(y * 255 / h), grain((x + y) * 128 / (w + h)), a})
		}
	}
	return m
}

func testPNG(t testing.TB, m image.Image) []byte {
	t.Helper()
	var buf bytes.Buffer
	// Uncompressed keeps test setup fast; the pipeline does not care.
	enc := png.Encoder{CompressionLevel: png.NoCompression}
	if err := enc.Encode(&buf, m); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func testJPEG(t testing.TB, m image.Image) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, m, &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func testGIF(t testing.TB, m image.Image) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := gif.Encode(&buf, m, nil); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func testWebP(t testing.TB) []byte {
	t.Helper()
	// 150×100 lossy sample from golang.org/x/image/testdata.
	data, err := os.ReadFile("testdata/blue-purple-pink.lossy.webp")
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func wantProblem(t *testing.T, err error, want AttachProblem, reasonHas ...string) *AttachmentError {
	t.Helper()
	ae, ok := errors.AsType[*AttachmentError](err)
	if !ok {
		t.Fatalf("error %v (%T) is not an *AttachmentError", err, err)
	}
	if ae.Problem != want {
		t.Errorf("problem %d, want %d (%q)", ae.Problem, want, ae.Reason)
	}
	for _, s := range reasonHas {
		if !strings.Contains(ae.Reason, s) {
			t.Errorf("reason %q lacks %q", ae.Reason, s)
		}
	}
	return ae
}

func checkThumb(t *testing.T, a Attachment) {
	t.Helper()
	cfg, err := png.DecodeConfig(bytes.NewReader(a.Thumb))
	if err != nil {
		t.Fatalf("thumb is not a PNG: %v", err)
	}
	if edge := max(cfg.Width, cfg.Height); edge > thumbEdge || edge < min(thumbEdge, max(a.Width, a.Height)) {
		t.Errorf("thumb %d×%d for a %d×%d image", cfg.Width, cfg.Height, a.Width, a.Height)
	}
}

func TestSmallImagesPassThroughUnchanged(t *testing.T) {
	small := testNoise(300, 200, false)
	for _, tc := range []struct {
		mime string
		data []byte
		w, h int
	}{
		{"image/png", testPNG(t, small), 300, 200},
		{"image/jpeg", testJPEG(t, small), 300, 200},
		{"image/gif", testGIF(t, small), 300, 200},
		{"image/webp", testWebP(t), 150, 100},
	} {
		t.Run(tc.mime, func(t *testing.T) {
			a, err := Decode("pic", tc.data)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(a.Data, tc.data) || a.MimeType != tc.mime || a.Resized || a.Note() != "" {
				t.Errorf("got %s resized=%v note=%q, same bytes=%v", a.MimeType, a.Resized, a.Note(), bytes.Equal(a.Data, tc.data))
			}
			if a.Width != tc.w || a.Height != tc.h || a.OriginalSize != len(tc.data) {
				t.Errorf("size %d×%d (%d bytes)", a.Width, a.Height, a.OriginalSize)
			}
			checkThumb(t, a)
		})
	}
}

func TestContentDecidesTypeNotName(t *testing.T) {
	pngData := testPNG(t, testNoise(20, 10, false))
	a, err := Decode("x.jpg", pngData)
	if err != nil || a.MimeType != "image/png" {
		t.Fatalf("PNG named x.jpg: %q, %v", a.MimeType, err)
	}
	_, err = Decode("x.png", []byte("just some notes\nabout the build\n"))
	wantProblem(t, err, AttachNotImage, "not an image", "text file")
}

func TestNotAnImageSaysWhatItLooksLike(t *testing.T) {
	for _, tc := range []struct{ data, want string }{
		{"%PDF-1.7\n1 0 obj\n", "not an image (looks like a PDF document)"},
		{"<!DOCTYPE html><html><body>hi</body></html>", "not an image (looks like an HTML page)"},
		{"PK\x03\x04\x14\x00\x00\x00", "not an image (looks like a ZIP archive or Office document)"},
		{"\x7fELF\x02\x01\x01", "not an image (looks like a program)"},
		{"\x00\x01\x02\x03\x04\x05\x06\x07", "not an image"},
	} {
		_, err := Decode("f", []byte(tc.data))
		if ae := wantProblem(t, err, AttachNotImage); ae.Reason != tc.want {
			t.Errorf("%q: reason %q, want %q", tc.data[:4], ae.Reason, tc.want)
		}
	}
}

func TestEmptyData(t *testing.T) {
	_, err := Decode("e.png", nil)
	wantProblem(t, err, AttachEmpty, "empty")
}

func TestUnsupportedImageTypesAreNamed(t *testing.T) {
	bmp := make([]byte, 54)
	copy(bmp, "BM")
	binary.LittleEndian.PutUint32(bmp[14:], 40)
	for _, tc := range []struct{ name, data, want string }{
		{"bmp", string(bmp), "BMP images aren't supported"},
		{"tiff le", "II*\x00\x08\x00\x00\x00", "TIFF images"},
		{"tiff be", "MM\x00*\x00\x00\x00\x08", "TIFF images"},
		{"heic", "\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic", "HEIC images"},
		{"avif", "\x00\x00\x00\x1cftypavif\x00\x00\x00\x00avifmif1miaf", "AVIF images"},
		{"svg", "\xef\xbb\xbf<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"/>", "SVG images"},
		{"animated webp", "RIFF\x00\x00\x00\x00WEBPVP8X\x0a\x00\x00\x00\x02\x00\x00\x00\x00\x00\x00\x00\x00\x00", "animated WebP images"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Decode("f.png", []byte(tc.data))
			wantProblem(t, err, AttachUnsupported, tc.want, "PNG, JPEG, GIF or WebP")
		})
	}
	if mime, ok, desc := SniffKind(bmp); mime != "image/bmp" || ok || desc != "BMP image" {
		t.Errorf("SniffKind(bmp) = %q %v %q", mime, ok, desc)
	}
}

func TestCorruptPNG(t *testing.T) {
	good := testPNG(t, testNoise(64, 64, false))
	flipped := bytes.Clone(good)
	flipped[len(flipped)/2] ^= 0xff
	for name, data := range map[string][]byte{
		"truncated":   good[:len(good)/2],
		"flipped":     flipped,
		"header only": good[:8],
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Decode("c.png", data)
			wantProblem(t, err, AttachCorrupt, "PNG image data is corrupt")
		})
	}
}

func TestLargeNoisyImageIsScaledToFit(t *testing.T) {
	data := testPNG(t, testNoise(4000, 3000, false))
	a, err := Decode("big.png", data)
	if err != nil {
		t.Fatal(err)
	}
	if a.Width != 2048 || a.Height != 1536 || !a.Resized || a.MimeType != "image/jpeg" {
		t.Fatalf("got %s %d×%d resized=%v", a.MimeType, a.Width, a.Height, a.Resized)
	}
	if n := len(a.Base64()); n > maxBase64Size {
		t.Errorf("base64 is %d bytes, over %d", n, maxBase64Size)
	}
	cfg, err := jpeg.DecodeConfig(bytes.NewReader(a.Data))
	if err != nil || cfg.Width != 2048 || cfg.Height != 1536 {
		t.Errorf("sent data is %d×%d, %v", cfg.Width, cfg.Height, err)
	}
	note := a.Note()
	if !strings.Contains(note, "from 4000×3000 ("+formatByteSize(len(data))+")") || !strings.Contains(note, "to 2048×1536 (") {
		t.Errorf("note %q", note)
	}
	checkThumb(t, a)
}

func TestLargeTransparentImageStaysPNG(t *testing.T) {
	data := testPNG(t, testNoise(3000, 1000, true))
	a, err := Decode("overlay.png", data)
	if err != nil {
		t.Fatal(err)
	}
	if a.MimeType != "image/png" || a.Width != 2048 || a.Height != 683 || !a.Resized {
		t.Fatalf("got %s %d×%d resized=%v", a.MimeType, a.Width, a.Height, a.Resized)
	}
	m, err := png.Decode(bytes.NewReader(a.Data))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, _, alpha := m.At(0, 0).RGBA(); alpha > 0x1000 {
		t.Errorf("left edge alpha %#x, want nearly clear", alpha)
	}
}

// testPNGHeader is a PNG that is only a signature and a valid IHDR: all a
// decompression bomb needs to claim its size.
func testPNGHeader(w, h uint32) []byte {
	ihdr := binary.BigEndian.AppendUint32([]byte("IHDR"), w)
	ihdr = binary.BigEndian.AppendUint32(ihdr, h)
	ihdr = append(ihdr, 8, 6, 0, 0, 0) // 8-bit RGBA
	out := binary.BigEndian.AppendUint32([]byte("\x89PNG\r\n\x1a\n"), 13)
	out = append(out, ihdr...)
	return binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(ihdr))
}

func TestDecompressionBombIsRefusedWithoutAllocating(t *testing.T) {
	bombs := map[string][]byte{
		"png": testPNGHeader(50_000, 50_000),
		"gif": []byte("GIF89a\xff\xff\xff\xff\x00\x00\x00;"),
	}
	for name, data := range bombs {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := Decode("bomb."+name, data)
		runtime.ReadMemStats(&after)
		wantProblem(t, err, AttachTooLarge, "too large to open", "megapixels", "limit is 100")
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
			t.Errorf("%s: allocated %d bytes refusing a bomb", name, grew)
		}
	}
}

func TestBase64RoundTrip(t *testing.T) {
	a, err := Decode("p.gif", testGIF(t, testNoise(40, 30, false)))
	if err != nil {
		t.Fatal(err)
	}
	back, err := base64.StdEncoding.DecodeString(a.Base64())
	if err != nil || !bytes.Equal(back, a.Data) {
		t.Fatalf("round trip changed the data: %v", err)
	}
}

func TestNoteWording(t *testing.T) {
	a := Attachment{Resized: true, Width: 2048, Height: 1536, Data: make([]byte, 812<<10),
		OriginalWidth: 4032, OriginalHeight: 3024, OriginalSize: 6_400_000}
	if got, want := a.Note(), "scaled down from 4032×3024 (6.1 MB) to 2048×1536 (812 KB)"; got != want {
		t.Errorf("note %q, want %q", got, want)
	}
	a.OriginalWidth, a.OriginalHeight = 2048, 1536
	if got, want := a.Note(), "compressed from 6.1 MB to 812 KB"; got != want {
		t.Errorf("note %q, want %q", got, want)
	}
}

func TestLargeScreenshotStaysPNG(t *testing.T) {
	m := image.NewRGBA(image.Rect(0, 0, 2880, 1800))
	for y := range 1800 {
		for x := range 2880 {
			c := color.RGBA{250, 250, 250, 255}
			if y%24 < 14 && x%9 < 5 && (x/90+y/24)%3 != 0 {
				c = color.RGBA{30, 30, 30, 255} // rows of "text"
			}
			m.SetRGBA(x, y, c)
		}
	}
	a, err := Decode("screen.png", testPNG(t, m))
	if err != nil {
		t.Fatal(err)
	}
	if a.MimeType != "image/png" || a.Width != 2048 || a.Height != 1280 || !a.Resized {
		t.Errorf("got %s %d×%d resized=%v", a.MimeType, a.Width, a.Height, a.Resized)
	}
}
