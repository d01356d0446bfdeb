package images

import (
	"bytes"
	"encoding/binary"
	"image"
)

// jpegOrientation reads the EXIF orientation tag (1–8) from a JPEG. Phone
// cameras store pixels in sensor order and rely on this tag; Go's decoder
// ignores it, so without it portrait photos would reach the model sideways.
// Anything malformed counts as 1 (as stored): orientation is a nicety, never a
// reason to reject an image.
func jpegOrientation(data []byte) int {
	if len(data) < 4 || data[0] != 0xff || data[1] != 0xd8 {
		return 1
	}
	for p := 2; p+4 <= len(data); {
		if data[p] != 0xff {
			return 1
		}
		marker := data[p+1]
		if marker == 0xd8 || marker == 0x01 || (marker >= 0xd0 && marker <= 0xd7) || marker == 0xff {
			p++ // fill bytes and markers without a length
			continue
		}
		if marker == 0xda || marker == 0xd9 {
			return 1 // image data starts; EXIF always comes before it
		}
		n := int(binary.BigEndian.Uint16(data[p+2:]))
		if n < 2 || p+2+n > len(data) {
			return 1
		}
		seg := data[p+4 : p+2+n]
		if marker == 0xe1 && bytes.HasPrefix(seg, []byte("Exif\x00\x00")) {
			return tiffOrientation(seg[6:])
		}
		p += 2 + n
	}
	return 1
}

func tiffOrientation(t []byte) int {
	if len(t) < 8 {
		return 1
	}
	var bo binary.ByteOrder
	switch string(t[:4]) {
	case "II*\x00":
		bo = binary.LittleEndian
	case "MM\x00*":
		bo = binary.BigEndian
	default:
		return 1
	}
	ifd := int(bo.Uint32(t[4:]))
	if ifd < 8 || ifd+2 > len(t) {
		return 1
	}
	count := int(bo.Uint16(t[ifd:]))
	for i := range count {
		e := ifd + 2 + 12*i
		if e+12 > len(t) {
			return 1
		}
		const tagOrientation, typeShort = 0x0112, 3
		if bo.Uint16(t[e:]) == tagOrientation && bo.Uint16(t[e+2:]) == typeShort {
			if o := int(bo.Uint16(t[e+8:])); o >= 1 && o <= 8 {
				return o
			}
			return 1
		}
	}
	return 1
}

// orientedSize is the size as displayed; orientations 5–8 swap the axes.
func orientedSize(w, h, orient int) (int, int) {
	if orient >= 5 && orient <= 8 {
		return h, w
	}
	return w, h
}

// applyOrientation turns stored pixels upright. It works on RGBA only because it
// runs after scaling, when the image is small and already RGBA, which keeps
// this a plain pixel copy.
func applyOrientation(src *image.RGBA, orient int) *image.RGBA {
	if orient < 2 || orient > 8 {
		return src
	}
	b := src.Bounds()
	w, h := b.Dx(), b.Dy()
	dw, dh := orientedSize(w, h, orient)
	dst := image.NewRGBA(image.Rect(0, 0, dw, dh))
	for dy := range dh {
		for dx := range dw {
			var sx, sy int
			switch orient {
			case 2: // mirrored
				sx, sy = w-1-dx, dy
			case 3: // upside down
				sx, sy = w-1-dx, h-1-dy
			case 4: // mirrored upside down
				sx, sy = dx, h-1-dy
			case 5: // transposed
				sx, sy = dy, dx
			case 6: // needs a quarter turn clockwise
				sx, sy = dy, h-1-dx
			case 7: // transversed
				sx, sy = w-1-dy, h-1-dx
			case 8: // needs a quarter turn anticlockwise
				sx, sy = w-1-dy, dx
			}
			si := src.PixOffset(b.Min.X+sx, b.Min.Y+sy)
			di := dst.PixOffset(dx, dy)
			copy(dst.Pix[di:di+4], src.Pix[si:si+4])
		}
	}
	return dst
}
