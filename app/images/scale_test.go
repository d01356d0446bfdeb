package images

import (
	"image"
	"image/color"
	"testing"

	"golang.org/x/image/draw"
)

func TestResampleMatchesCatmullRom(t *testing.T) {
	// Smooth content with some grain: where both filters must agree closely.
	src := testNoise(300, 200, true)
	for _, size := range []image.Point{{200, 133}, {150, 100}, {61, 40}, {300, 200}} {
		got := resample(src, size.X, size.Y)
		want := image.NewRGBA(got.Rect)
		draw.CatmullRom.Scale(want, want.Rect, src, src.Rect, draw.Src, nil)
		var diff, worst int
		for i := range got.Pix {
			d := int(got.Pix[i]) - int(want.Pix[i])
			diff += max(d, -d)
			worst = max(worst, d, -d)
		}
		// The box pre-pass for 2× and more differs a little from one wide
		// kernel; anything like a shift or a wrong channel would be far off.
		if mean := float64(diff) / float64(len(got.Pix)); mean > 2 || worst > 40 {
			t.Errorf("%v: mean difference %.2f, worst %d", size, mean, worst)
		}
	}
}

func TestResampleKeepsFlatColourAndAlphaExact(t *testing.T) {
	src := image.NewNRGBA(image.Rect(0, 0, 999, 301))
	fill := color.NRGBA{200, 100, 50, 128}
	for i := 0; i < len(src.Pix); i += 4 {
		copy(src.Pix[i:], []uint8{fill.R, fill.G, fill.B, fill.A})
	}
	want := color.RGBAModel.Convert(fill).(color.RGBA)
	for _, size := range []image.Point{{640, 193}, {160, 48}, {7, 2}} {
		m := resample(src, size.X, size.Y)
		if m.Rect.Dx() != size.X || m.Rect.Dy() != size.Y {
			t.Fatalf("size %v, want %v", m.Rect, size)
		}
		for y := range size.Y {
			for x := range size.X {
				if c := m.RGBAAt(x, y); c != want {
					t.Fatalf("%v: pixel (%d,%d) = %v, want %v", size, x, y, c, want)
				}
			}
		}
	}
}

func TestResampleReadsOffsetSubImages(t *testing.T) {
	big := image.NewRGBA(image.Rect(0, 0, 40, 40))
	for y := range 40 {
		for x := range 40 {
			c := color.RGBA{0, 0, 0, 255}
			if x >= 20 {
				c.R = 255 // only the sub-image is red
			}
			big.SetRGBA(x, y, c)
		}
	}
	sub := big.SubImage(image.Rect(20, 10, 40, 30))
	m := resample(sub, 5, 5)
	for i := 0; i < len(m.Pix); i += 4 {
		if m.Pix[i] != 255 {
			t.Fatalf("pixel %d has red %d: read outside the sub-image", i/4, m.Pix[i])
		}
	}
}
