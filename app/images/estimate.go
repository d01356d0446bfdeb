package images

import (
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
)

// decodeCost is what decoding an image will take, read from its header
// before any pixel is allocated: the decoder's own buffers and the scaled,
// rotated and re-encoded copies decodeImage makes while it holds them.
type decodeCost struct {
	width, height int
	depth         string // such as "16-bit RGB"; words for the refusal
	bytes         int64
}

func estimateCost(mime string, data []byte, cfg image.Config, orient int, lim sizeLimits) decodeCost {
	w, h := int64(cfg.Width), int64(cfg.Height)
	c := decodeCost{width: cfg.Width, height: cfg.Height}
	switch mime {
	case "image/png":
		c.depth, c.bytes = pngCost(data, w, h)
	case "image/jpeg":
		c.depth, c.bytes = jpegCost(data)
	case "image/gif":
		// The first frame is a paletted image within the canvas; one
		// smaller than the canvas is drawn onto an RGBA canvas.
		c.depth, c.bytes = "8-bit palette", 5*w*h
	case "image/webp":
		c.depth, c.bytes = webpCost(cfg.ColorModel, w, h)
	}
	if c.bytes == 0 { // a header the decoder read but this did not
		c.depth, c.bytes = "", modelBytes(cfg.ColorModel)*w*h
	}
	c.bytes += pipelineCost(cfg.Width, cfg.Height, orient, len(data), lim)
	return c
}

// modelBytes is the bytes per pixel of an image in colour model m.
func modelBytes(m color.Model) int64 {
	switch m {
	case color.GrayModel, color.AlphaModel:
		return 1
	case color.Gray16Model, color.Alpha16Model:
		return 2
	case color.YCbCrModel:
		return 3
	case color.RGBA64Model, color.NRGBA64Model:
		return 8
	}
	if _, ok := m.(color.Palette); ok {
		return 1
	}
	return 4
}

// pngCost reads IHDR and looks for tRNS before the image data: Go's
// decoder makes 16-bit grey with a transparent colour an NRGBA64 image
// (8 bytes a pixel, four times Gray16), and an interlaced image is decoded
// pass by pass beside the whole (the largest pass is half of it).
func pngCost(data []byte, w, h int64) (string, int64) {
	if len(data) < 33 || string(data[12:16]) != "IHDR" {
		return "", 0
	}
	depth, ctype, interlaced := data[24], data[25], data[28] == 1
	trns := pngHasTRNS(data)
	wide := depth == 16
	var bpp int64
	var model string
	switch ctype {
	case 0:
		model, bpp = "greyscale", pick(wide, 2, 1)
		if trns {
			model, bpp = "greyscale with a transparent colour", pick(wide, 8, 4)
		}
	case 2:
		model, bpp = "RGB", pick(wide, 8, 4)
	case 3:
		model, bpp = "palette", 1
	case 4:
		model, bpp = "greyscale with alpha", pick(wide, 8, 4)
	case 6:
		model, bpp = "RGBA", pick(wide, 8, 4)
	default:
		return "", 0
	}
	bytes := bpp * w * h
	if interlaced {
		bytes += bytes / 2
		model += ", interlaced"
	}
	// The decoder keeps the current and previous raw rows.
	bytes += 2 * (w*8 + 1)
	return fmt.Sprintf("%d-bit %s", depth, model), bytes
}

func pick(wide bool, ifWide, otherwise int64) int64 {
	if wide {
		return ifWide
	}
	return otherwise
}

// pngHasTRNS walks the chunks after IHDR up to the image data.
func pngHasTRNS(data []byte) bool {
	for off := 8; off+8 <= len(data); {
		n := int64(binary.BigEndian.Uint32(data[off:]))
		switch string(data[off+4 : off+8]) {
		case "tRNS":
			return true
		case "IDAT", "IEND":
			return false
		}
		next := int64(off) + 12 + n
		if next > int64(len(data)) {
			return false
		}
		off = int(next)
	}
	return false
}

// jpegCost reads the frame header. Go's decoder allocates whole MCUs, a
// byte per sample; a progressive JPEG also keeps every coefficient (64
// int32 per 8×8 block, 4 bytes per sample) until the end; CMYK is decoded
// as YCbCr plus a black plane and then copied into a CMYK image.
func jpegCost(data []byte) (string, int64) {
	sof, progressive := jpegFrame(data)
	if sof == nil {
		return "", 0
	}
	h, w := int64(binary.BigEndian.Uint16(sof[1:])), int64(binary.BigEndian.Uint16(sof[3:]))
	nc := int(sof[5])
	if nc == 0 || len(sof) < 6+3*nc {
		return "", 0
	}
	var hmax, vmax int64 = 1, 1
	for i := range nc {
		hv := sof[6+3*i+1]
		hmax, vmax = max(hmax, int64(hv>>4)), max(vmax, int64(hv&15))
	}
	mcuX, mcuY := (w+8*hmax-1)/(8*hmax), (h+8*vmax-1)/(8*vmax)
	var samples int64
	for i := range nc {
		hv := sof[6+3*i+1]
		samples += 64 * mcuX * int64(hv>>4) * mcuY * int64(hv&15)
	}
	bytes := samples
	model := map[int]string{1: "greyscale", 3: "YCbCr", 4: "CMYK"}[nc]
	if nc == 4 {
		bytes += 4 * w * h
	}
	if progressive {
		bytes += 4 * samples
		model += ", progressive"
	}
	return fmt.Sprintf("%d-bit %s", sof[0], model), bytes
}

// jpegFrame finds the SOFn segment's body (precision, height, width,
// components) and whether it is progressive.
func jpegFrame(data []byte) ([]byte, bool) {
	for off := 2; off+4 <= len(data); {
		if data[off] != 0xff {
			return nil, false
		}
		marker := data[off+1]
		if marker == 0xff { // fill byte
			off++
			continue
		}
		n := int(binary.BigEndian.Uint16(data[off+2:]))
		if n < 2 || off+2+n > len(data) {
			return nil, false
		}
		body := data[off+4 : off+2+n]
		switch {
		case marker >= 0xc0 && marker <= 0xcf && marker != 0xc4 && marker != 0xc8 && marker != 0xcc:
			if len(body) < 6 {
				return nil, false
			}
			return body, marker == 0xc2 || marker == 0xc6 || marker == 0xca || marker == 0xce
		case marker == 0xda, marker == 0xd9: // scan data or the end: no frame header
			return nil, false
		}
		off += 2 + n
	}
	return nil, false
}

// webpCost: lossy WebP decodes to 4:2:0 YCbCr padded to 16-pixel
// macroblocks; its alpha plane, when losslessly compressed, is first
// decoded as a whole NRGBA image; lossless WebP decodes to NRGBA.
func webpCost(m color.Model, w, h int64) (string, int64) {
	mb := ((w + 15) / 16 * 16) * ((h + 15) / 16 * 16)
	switch m {
	case color.YCbCrModel:
		return "8-bit lossy", mb * 3 / 2
	case color.NYCbCrAModel:
		return "8-bit lossy with alpha", mb*3/2 + w*h + 5*w*h
	case color.NRGBAModel:
		return "8-bit lossless", 4 * w * h
	}
	return "", 0
}

// pipelineCost is what decodeImage allocates while the decoded image is
// held: the scaled copy (resample's intermediate and result), the rotated
// copy, the re-encoded bytes, and the thumbnail.
func pipelineCost(w, h, orient, size int, lim sizeLimits) int64 {
	ow, oh := orientedSize(w, h, orient)
	tw, th := fitSize(ow, oh, thumbEdge)
	cost := 12 * int64(tw) * int64(th)
	if lim.fits(ow, oh, size) && orient == 1 {
		return cost // sent as it is
	}
	tw, th = fitSize(ow, oh, lim.maxEdge)
	target := int64(tw) * int64(th)
	scaled := tw != ow || th != oh
	switch {
	case scaled:
		cost += 12 * target
	case orient > 1:
		cost += 4 * int64(w) * int64(h) // converted to RGBA before turning
	}
	if orient > 1 {
		cost += 4 * target
	}
	// The encoder's buffer grows by doubling: up to twice the PNG of the
	// scaled 8-bit copy, or of a source kept at its size and depth (a
	// 16-bit PNG is 8 bytes a pixel).
	if scaled {
		return cost + 8*target
	}
	return cost + 16*target
}
