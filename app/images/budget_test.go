package images

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// test16BitPNG is a real w×h PNG with 16 bits per channel (RGBA64) or,
// with wide false, the same picture at 8 bits.
func test16BitPNG(t testing.TB, w, h int, wide bool) []byte {
	src := testNoise(w, h, false)
	if !wide {
		return testPNG(t, src)
	}
	m := image.NewRGBA64(src.Bounds())
	for y := range h {
		for x := range w {
			c := src.NRGBAAt(x, y)
			m.SetRGBA64(x, y, color.RGBA64{uint16(c.R) * 257, uint16(c.G)*257 + 1, uint16(c.B) * 257, 0xffff})
		}
	}
	return testPNG(t, m)
}

// withPNGChunk inserts a chunk right after IHDR.
func withPNGChunk(data []byte, typ string, body []byte) []byte {
	chunk := binary.BigEndian.AppendUint32(nil, uint32(len(body)))
	chunk = append(append(chunk, typ...), body...)
	chunk = binary.BigEndian.AppendUint32(chunk, crc32.ChecksumIEEE(chunk[4:]))
	return append(append(bytes.Clone(data[:33]), chunk...), data[33:]...)
}

func testBudgetLimits(maxDecode int64, budget *memoryBudget) sizeLimits {
	l := defaultLimits
	l.maxDecode, l.budget = maxDecode, budget
	return l
}

func TestDecodeMemoryLimitFor16BitPNG(t *testing.T) {
	const w, h = 300, 200
	wide, narrow := test16BitPNG(t, w, h, true), test16BitPNG(t, w, h, false)
	cfg, _ := decoderFor["image/png"].config(bytes.NewReader(wide))
	cost := estimateCost("image/png", wide, cfg, 1, defaultLimits)
	if _, raw := pngCost(wide, w, h); raw != 8*w*h+2*(w*8+1) {
		t.Fatalf("16-bit RGB decodes to %d bytes, want 8 a pixel", raw)
	}
	budget := newMemoryBudget(1 << 30)

	// Just under the limit: decoded, and the budget is given back.
	a, err := decodeImage(context.Background(), "wide.png", wide, testBudgetLimits(cost.bytes, budget))
	if err != nil || a.Width != w {
		t.Fatalf("16-bit PNG at its estimate: %v", err)
	}
	if used, peak, _ := budget.state(); used != 0 || peak != cost.bytes {
		t.Errorf("budget after the decode: used %d, peak %d; want 0, %d", used, peak, cost.bytes)
	}

	// Just over: refused, in words.
	_, err = decodeImage(context.Background(), "wide.png", wide, testBudgetLimits(cost.bytes-1, budget))
	wantProblem(t, err, AttachTooLarge, "too much memory", "300×200", "16-bit RGB", formatByteSize(int(cost.bytes)), "the limit is")

	// The same picture at 8 bits needs about half and passes that limit.
	if _, err := decodeImage(context.Background(), "narrow.png", narrow, testBudgetLimits(cost.bytes-1, budget)); err != nil {
		t.Fatalf("8-bit PNG of the same size: %v", err)
	}
}

// The format's part of the estimate covers what its decoder allocates
// (TotalAlloc: every allocation, freed or not, so an upper bound).
func TestDecodeCostEstimateCoversTheDecoder(t *testing.T) {
	const w, h = 1200, 900
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"16-bit png", test16BitPNG(t, w, h, true)},
		{"8-bit png", test16BitPNG(t, w, h, false)},
		{"jpeg", testJPEG(t, testNoise(w, h, false))},
		{"gif", testGIF(t, testNoise(w, h, false))},
		{"webp", testWebP(t)},
	} {
		kind := sniff(tc.data)
		dec := decoderFor[kind.mime]
		cfg, _ := dec.config(bytes.NewReader(tc.data))
		lim := defaultLimits
		lim.maxEdge = max(cfg.Width, cfg.Height) // the pipeline's part counted alone
		cost := estimateCost(kind.mime, tc.data, cfg, 1, lim).bytes - pipelineCost(cfg.Width, cfg.Height, 1, len(tc.data), lim)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if _, err := dec.decode(bytes.NewReader(tc.data)); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		got := int64(after.TotalAlloc - before.TotalAlloc)
		t.Logf("%s %d×%d: estimated %d, the decoder allocated %d", tc.name, cfg.Width, cfg.Height, cost, got)
		if got > cost*11/10+256<<10 {
			t.Errorf("%s: the decoder allocated %d bytes, estimated %d", tc.name, got, cost)
		}
	}
}

func TestTinyPNGClaiming9000Square16BitIsRefusedWithoutAllocating(t *testing.T) {
	data := testPNGHeader(9000, 9000)
	data[24] = 16 // bit depth
	ihdr := data[12:29]
	binary.BigEndian.PutUint32(data[29:], crc32.ChecksumIEEE(ihdr))
	data = append(data, "\x00\x00\x00\x00IDAT\x35\xaf\x06\x1e"...)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := Decode("claims.png", data)
	runtime.ReadMemStats(&after)
	wantProblem(t, err, AttachTooLarge, "9000×9000", "16-bit RGBA", "the limit is 512.0 MB")
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Errorf("allocated %d bytes refusing it", grew)
	}
	if used, _, _ := processBudget.state(); used != 0 {
		t.Errorf("the refusal holds %d bytes of the budget", used)
	}
}

func TestDecodeCostPerFormat(t *testing.T) {
	png16grey := testPNG(t, image.NewGray16(image.Rect(0, 0, 40, 30)))
	trns := withPNGChunk(png16grey, "tRNS", []byte{0, 7})
	if m, err := decoderFor["image/png"].decode(bytes.NewReader(trns)); err != nil {
		t.Fatal(err)
	} else if _, ok := m.(*image.NRGBA64); !ok {
		t.Fatalf("16-bit grey with tRNS decodes to %T, the estimate assumes NRGBA64", m)
	}
	interlaced := bytes.Clone(png16grey)
	interlaced[28] = 1

	jpg := testJPEG(t, testNoise(64, 48, false)) // 4:2:0: 1.5 bytes a pixel
	progressive := bytes.Clone(jpg)
	sof := bytes.Index(progressive, []byte{0xff, 0xc0})
	progressive[sof+1] = 0xc2
	cmyk := []byte{0xff, 0xd8, 0xff, 0xc0, 0, 20, 8, 0, 16, 0, 16, 4, 1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0, 4, 0x11, 0}

	rows := func(w int64) int64 { return 2 * (w*8 + 1) }
	for _, tc := range []struct {
		name  string
		depth string
		got   func() (string, int64)
		want  int64
	}{
		{"16-bit grey", "16-bit greyscale", func() (string, int64) { return pngCost(png16grey, 40, 30) }, 2*1200 + rows(40)},
		{"16-bit grey + tRNS", "16-bit greyscale with a transparent colour", func() (string, int64) { return pngCost(trns, 40, 30) }, 8*1200 + rows(40)},
		{"interlaced", "16-bit greyscale, interlaced", func() (string, int64) { return pngCost(interlaced, 40, 30) }, 3*1200 + rows(40)},
		{"8-bit RGBA", "8-bit RGBA", func() (string, int64) { return pngCost(testPNGHeader(40, 30), 40, 30) }, 4*1200 + rows(40)},
		{"jpeg 4:2:0", "8-bit YCbCr", func() (string, int64) { return jpegCost(jpg) }, 64 * 48 * 3 / 2},
		{"progressive jpeg", "8-bit YCbCr, progressive", func() (string, int64) { return jpegCost(progressive) }, 5 * 64 * 48 * 3 / 2},
		{"cmyk jpeg", "8-bit CMYK", func() (string, int64) { return jpegCost(cmyk) }, 4*256 + 4*256},
		{"lossy webp", "8-bit lossy", func() (string, int64) { return webpCost(color.YCbCrModel, 150, 100) }, 160 * 112 * 3 / 2},
		{"lossless webp", "8-bit lossless", func() (string, int64) { return webpCost(color.NRGBAModel, 150, 100) }, 4 * 150 * 100},
	} {
		depth, got := tc.got()
		if depth != tc.depth || got != tc.want {
			t.Errorf("%s: %q, %d bytes; want %q, %d", tc.name, depth, got, tc.depth, tc.want)
		}
	}
	gif := testGIF(t, testNoise(50, 40, false))
	cfg, _ := decoderFor["image/gif"].config(bytes.NewReader(gif))
	if c := estimateCost("image/gif", gif, cfg, 1, defaultLimits); c.bytes != 5*2000+pipelineCost(50, 40, 1, len(gif), defaultLimits) {
		t.Errorf("gif: %d bytes, want the canvas at 5 a pixel and the pipeline", c.bytes)
	}
	// Scaling and turning cost more than sending as it is.
	asIs := pipelineCost(2000, 1500, 1, 1000, defaultLimits)
	if scaled := pipelineCost(4000, 3000, 1, 1000, defaultLimits); scaled < asIs+12*2048*1536 {
		t.Errorf("scaling 4000×3000 costs %d, want the 2048×1536 copies counted", scaled)
	}
	if turned := pipelineCost(2000, 1500, 6, 1000, defaultLimits); turned < asIs+8*2000*1500 {
		t.Errorf("turning 2000×1500 costs %d, want the RGBA and turned copies counted", turned)
	}
}

// Four workers decoding at once hold no more than the budget.
func TestLoadAllStaysWithinTheBudget(t *testing.T) {
	dir := t.TempDir()
	data := test16BitPNG(t, 200, 150, true)
	cfg, _ := decoderFor["image/png"].config(bytes.NewReader(data))
	one := estimateCost("image/png", data, cfg, 1, defaultLimits).bytes
	var paths []string
	for i := range 12 {
		paths = append(paths, testWrite(t, dir, fmt.Sprintf("%d.png", i), data))
	}
	budget := newMemoryBudget(one * 5 / 2) // room for two at a time
	var mu sync.Mutex
	var failed []error
	loadAll(context.Background(), paths, 4, testBudgetLimits(0, budget), func(i int, a Attachment, err error) {
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			failed = append(failed, err)
		}
	})
	if len(failed) > 0 {
		t.Fatalf("%d of %d failed: %v", len(failed), len(paths), failed[0])
	}
	used, peak, waiting := budget.state()
	if used != 0 || waiting != 0 || peak > budget.limit || peak < one {
		t.Errorf("used %d, peak %d, waiting %d; want 0, between %d and %d, 0", used, peak, waiting, one, budget.limit)
	}
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

func TestBudgetWaitsForRoomAndCancels(t *testing.T) {
	b := newMemoryBudget(100)
	release, err := b.acquire(context.Background(), 60)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan error, 1)
	go func() {
		r, err := b.acquire(context.Background(), 60)
		if r != nil {
			defer r()
		}
		got <- err
	}()
	waitFor(t, "the second request to wait", func() bool { _, _, n := b.state(); return n == 1 })
	select {
	case err := <-got:
		t.Fatalf("the second request went ahead with the first held: %v", err)
	default:
	}
	release()
	release() // twice is harmless
	if err := <-got; err != nil {
		t.Fatal(err)
	}
	if used, peak, _ := b.state(); used != 0 || peak != 60 {
		t.Errorf("used %d, peak %d; want 0, 60", used, peak)
	}

	// A waiting decode ends when its context does, holding nothing.
	hold, _ := b.acquire(context.Background(), 100)
	defer hold()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	data := testPNG(t, testNoise(20, 20, false))
	go func() {
		_, err := decodeImage(ctx, "waits.png", data, testBudgetLimits(0, b))
		done <- err
	}()
	waitFor(t, "the decode to wait", func() bool { _, _, n := b.state(); return n == 1 })
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled while waiting: %v", err)
	}
	if used, _, waiting := b.state(); used != 100 || waiting != 0 {
		t.Errorf("after the cancel: used %d, waiting %d; want 100, 0", used, waiting)
	}
}

// A file path names the file in the refusal as in other errors.
func TestLoadRefusalNamesThePath(t *testing.T) {
	p := testWrite(t, t.TempDir(), "big.png", test16BitPNG(t, 100, 100, true))
	_, err := loadFile(context.Background(), p, testBudgetLimits(1000, nil))
	if ae := wantProblem(t, err, AttachTooLarge, "too much memory"); ae.Name != p || !strings.Contains(err.Error(), filepath.Base(p)) {
		t.Errorf("error %q names %q", err, ae.Name)
	}
}
