package images

import (
	"image"
	"math"

	"golang.org/x/image/draw"
)

// resample scales src down to w×h with a Catmull-Rom filter, which keeps
// text in screenshots sharp without the aliasing of bilinear sampling.
//
// It replaces draw.CatmullRom.Scale because that keeps a float64 buffer of
// source height × target width (130 MB for a 12 MP photo) and needs the
// source converted to RGBA first (400 MB more at the 100 MP limit). Here the
// source is read a row at a time, reductions of 2× or more are first
// box-averaged by a whole factor, and the intermediate is 8-bit, so the extra
// memory is a few rows plus a w × 2h buffer.
func resample(src image.Image, w, h int) *image.RGBA {
	b := src.Bounds()
	fx, fy := max(1, b.Dx()/w), max(1, b.Dy()/h)
	vw, vh := b.Dx()/fx, b.Dy()/fy // the box-averaged image's size
	xt, yt := catmullTaps(vw, w), catmullTaps(vh, h)

	rows := newRowReader(src)
	box := make([]uint32, vw*4)
	line := make([]uint8, vw*4)
	mid := make([]uint8, w*vh*4)
	for vy := range vh {
		in := line
		if fx == 1 && fy == 1 {
			in = rows.read(vy)
		} else {
			clear(box)
			for k := range fy {
				px := rows.read(vy*fy + k)
				for i := range box {
					x, c := i/4*fx*4, i%4
					for j := range fx {
						box[i] += uint32(px[x+j*4+c])
					}
				}
			}
			n := uint32(fx * fy)
			for i, v := range box {
				line[i] = uint8((v + n/2) / n)
			}
		}
		filterRow(mid[vy*w*4:(vy+1)*w*4], in, xt)
	}

	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	acc := make([]int32, w*4)
	for y, t := range yt {
		clear(acc)
		for k, wt := range t.weights {
			row := mid[(t.start+k)*w*4 : (t.start+k+1)*w*4]
			for i, v := range row {
				acc[i] += int32(v) * wt
			}
		}
		storeRow(dst.Pix[y*dst.Stride:y*dst.Stride+w*4], acc)
	}
	return dst
}

func filterRow(out, in []uint8, taps []filterTaps) {
	var acc [4]int32
	for x, t := range taps {
		acc = [4]int32{}
		p := t.start * 4
		for _, wt := range t.weights {
			acc[0] += int32(in[p]) * wt
			acc[1] += int32(in[p+1]) * wt
			acc[2] += int32(in[p+2]) * wt
			acc[3] += int32(in[p+3]) * wt
			p += 4
		}
		storeRow(out[x*4:x*4+4], acc[:])
	}
}

// storeRow rounds fixed-point RGBA back to bytes. The filter's negative lobes
// can overshoot, and premultiplied colour must never exceed its alpha.
func storeRow(out []uint8, acc []int32) {
	for i := 0; i+3 < len(acc); i += 4 {
		a := unfix(acc[i+3])
		out[i] = min(unfix(acc[i]), a)
		out[i+1] = min(unfix(acc[i+1]), a)
		out[i+2] = min(unfix(acc[i+2]), a)
		out[i+3] = a
	}
}

const fixBits = 14

func unfix(v int32) uint8 {
	return uint8(min(max((v+1<<(fixBits-1))>>fixBits, 0), 255))
}

// filterTaps are the fixed-point weights of the source pixels from start on
// that make up one target pixel.
type filterTaps struct {
	start   int
	weights []int32
}

// catmullTaps widens the filter by the reduction ratio, so every source
// pixel contributes (that is what prevents aliasing), and normalises the
// weights to sum exactly to one so flat areas stay exactly flat.
func catmullTaps(from, to int) []filterTaps {
	scale := max(float64(from)/float64(to), 1)
	support := 2 * scale
	taps := make([]filterTaps, to)
	pool := make([]int32, 0, to*(int(2*support)+2)) // one allocation for all weights
	var ws []float64
	for i := range taps {
		center := (float64(i) + 0.5) * float64(from) / float64(to)
		lo := max(int(math.Floor(center-support+0.5)), 0)
		hi := min(int(math.Floor(center+support+0.5)), from)
		ws = ws[:0]
		sum := 0.0
		for j := lo; j < hi; j++ {
			ws = append(ws, catmullRom((float64(j)+0.5-center)/scale))
			sum += ws[len(ws)-1]
		}
		if len(pool)+len(ws) > cap(pool) {
			pool = make([]int32, 0, len(ws)*(to-i))
		}
		iw := pool[len(pool) : len(pool)+len(ws)]
		pool = pool[:len(pool)+len(ws)]
		total, peak := int32(0), 0
		for j, v := range ws {
			iw[j] = int32(math.Round(v / sum * (1 << fixBits)))
			total += iw[j]
			if iw[j] > iw[peak] {
				peak = j
			}
		}
		iw[peak] += 1<<fixBits - total
		taps[i] = filterTaps{lo, iw}
	}
	return taps
}

func catmullRom(x float64) float64 {
	x = math.Abs(x)
	switch {
	case x < 1:
		return (1.5*x-2.5)*x*x + 1
	case x < 2:
		return ((-0.5*x+2.5)*x-4)*x + 2
	}
	return 0
}

// rowReader yields the source's rows as premultiplied RGBA bytes, converting
// one row at a time so a decoded photo is never copied whole.
type rowReader struct {
	src  image.Image
	rgba *image.RGBA // set when rows can be sliced without converting
	buf  *image.RGBA
}

func newRowReader(src image.Image) *rowReader {
	r := &rowReader{src: src}
	if m, ok := src.(*image.RGBA); ok {
		r.rgba = m
	} else {
		r.buf = image.NewRGBA(image.Rect(0, 0, src.Bounds().Dx(), 1))
	}
	return r
}

func (r *rowReader) read(y int) []uint8 {
	b := r.src.Bounds()
	if r.rgba != nil {
		i := r.rgba.PixOffset(b.Min.X, b.Min.Y+y)
		return r.rgba.Pix[i : i+b.Dx()*4]
	}
	draw.Draw(r.buf, r.buf.Rect, r.src, image.Pt(b.Min.X, b.Min.Y+y), draw.Src)
	return r.buf.Pix
}
