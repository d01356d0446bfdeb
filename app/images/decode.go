package images

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"image"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"
	"strings"

	"golang.org/x/image/draw"
	"golang.org/x/image/webp"
)

// sizeLimits is a parameter rather than constants so tests can exercise the
// resizing paths with tiny images.
type sizeLimits struct {
	maxEdge   int
	maxBase64 int
	maxPixels int64
	// maxDecode bounds one image's decoding memory (0: maxDecodeBytes);
	// budget is shared by the decodes that run at once (nil: the
	// process's).
	maxDecode int64
	budget    *memoryBudget
}

var defaultLimits = sizeLimits{maxEdgePixels, maxBase64Size, maxTotalPixels, maxDecodeBytes, processBudget}

func (l sizeLimits) decodeLimit() int64 {
	if l.maxDecode > 0 {
		return l.maxDecode
	}
	return maxDecodeBytes
}

func (l sizeLimits) sharedBudget() *memoryBudget {
	if l.budget != nil {
		return l.budget
	}
	return processBudget
}

func (l sizeLimits) fits(w, h, size int) bool {
	return max(w, h) <= l.maxEdge && base64.StdEncoding.EncodedLen(size) <= l.maxBase64
}

// The decoders are chosen by sniffed content instead of image.Decode's
// registry, which other packages (Fyne among them) extend with formats the
// agent does not accept.
var decoderFor = map[string]struct {
	config func(io.Reader) (image.Config, error)
	decode func(io.Reader) (image.Image, error)
}{
	"image/png":  {png.DecodeConfig, png.Decode},
	"image/jpeg": {jpeg.DecodeConfig, jpeg.Decode},
	"image/gif":  {gif.DecodeConfig, gif.Decode}, // first frame only
	"image/webp": {webp.DecodeConfig, webp.Decode},
}

// minEdge bounds the shrink loop; nothing real gets here, since a
// 64-pixel image is far below any byte limit.
const minEdge = 64

// Decode checks that data is an image the agent accepts and makes
// it fit the provider's limits. Images already within limits are sent
// byte-for-byte; larger ones are scaled to 2048 px on the long edge and
// re-encoded (PNG when transparent or when a PNG or GIF still fits as PNG,
// JPEG otherwise). JPEGs whose EXIF says they are rotated are re-encoded
// upright. The result's Data may share data's memory. Failures are
// *AttachmentError.
func Decode(name string, data []byte) (Attachment, error) {
	return decodeImage(context.Background(), name, data, defaultLimits)
}

func decodeImage(ctx context.Context, name string, data []byte, lim sizeLimits) (a Attachment, err error) {
	kind := sniff(data)
	defer func() {
		// A decoder bug on a hostile file must not take the app down.
		if r := recover(); r != nil {
			a, err = Attachment{}, newAttachmentError(name, AttachCorrupt, corruptReason(kind), fmt.Errorf("decoder panic: %v", r))
		}
	}()
	if len(data) == 0 {
		return Attachment{}, newAttachmentError(name, AttachEmpty, "the file is empty", nil)
	}
	if !kind.supported {
		return Attachment{}, kindError(name, kind)
	}
	dec := decoderFor[kind.mime]
	cfg, err := dec.config(bytes.NewReader(data))
	if err != nil || cfg.Width <= 0 || cfg.Height <= 0 {
		return Attachment{}, newAttachmentError(name, AttachCorrupt, corruptReason(kind), err)
	}
	// The header alone tells how much memory decoding will take; a small
	// file can claim billions of pixels.
	if px := int64(cfg.Width) * int64(cfg.Height); px > lim.maxPixels {
		return Attachment{}, newAttachmentError(name, AttachTooLarge, fmt.Sprintf(
			"the image is too large to open (%d×%d, %d megapixels; the limit is %d)",
			cfg.Width, cfg.Height, (px+500_000)/1_000_000, lim.maxPixels/1_000_000), nil)
	}
	orient := 1
	if kind.mime == "image/jpeg" {
		orient = jpegOrientation(data)
	}
	// Pixels are not bytes: a 16-bit PNG takes 8 a pixel, a progressive
	// JPEG 4 more per sample. The estimate decides, and the shared budget
	// makes concurrent decodes wait instead of adding up.
	cost := estimateCost(kind.mime, data, cfg, orient, lim)
	if limit := lim.decodeLimit(); cost.bytes > limit {
		return Attachment{}, newAttachmentError(name, AttachTooLarge, tooMuchMemory(cost, limit), nil)
	}
	release, err := lim.sharedBudget().acquire(ctx, cost.bytes)
	if err != nil {
		return Attachment{}, err
	}
	defer release()
	src, err := dec.decode(bytes.NewReader(data))
	if err != nil {
		return Attachment{}, newAttachmentError(name, AttachCorrupt, corruptReason(kind), err)
	}
	if b := src.Bounds(); b != image.Rect(0, 0, cfg.Width, cfg.Height) {
		// A GIF's first frame may cover only part of its canvas; the rest
		// stays clear, as a viewer would show it.
		canvas := image.NewRGBA(image.Rect(0, 0, cfg.Width, cfg.Height))
		draw.Draw(canvas, b, src, b.Min, draw.Src)
		src = canvas
	}
	w, h := orientedSize(src.Bounds().Dx(), src.Bounds().Dy(), orient)
	a = Attachment{Name: name, OriginalWidth: w, OriginalHeight: h, OriginalSize: len(data)}
	shown := src
	fits := lim.fits(w, h, len(data))
	if fits && orient == 1 {
		a.MimeType, a.Data, a.Width, a.Height = kind.mime, data, w, h
	} else {
		a.Data, a.MimeType, shown, err = fitImage(ctx, name, src, orient, kind.mime, lim)
		if err != nil {
			return Attachment{}, err
		}
		a.Width, a.Height = shown.Bounds().Dx(), shown.Bounds().Dy()
		a.Resized = !fits
	}
	if err := ctx.Err(); err != nil {
		return Attachment{}, err
	}
	if a.Thumb, err = thumbnail(shown); err != nil {
		return Attachment{}, newAttachmentError(name, AttachCorrupt, corruptReason(kind), err)
	}
	return a, nil
}

func tooMuchMemory(c decodeCost, limit int64) string {
	what := fmt.Sprintf("%d×%d", c.width, c.height)
	if c.depth != "" {
		what += ", " + c.depth
	}
	return fmt.Sprintf("the image needs too much memory to open (%s: about %s to decode; the limit is %s)",
		what, formatByteSize(int(c.bytes)), formatByteSize(int(limit)))
}

func kindError(name string, k fileKind) error {
	switch {
	case strings.HasPrefix(k.mime, "image/"):
		return newAttachmentError(name, AttachUnsupported, k.desc+"s aren't supported; use PNG, JPEG, GIF or WebP", nil)
	case k.desc != "":
		return newAttachmentError(name, AttachNotImage, "not an image (looks like "+k.phrase()+")", nil)
	default:
		return newAttachmentError(name, AttachNotImage, "not an image", nil)
	}
}

func corruptReason(k fileKind) string {
	return "the " + k.desc + " data is corrupt or incomplete"
}

// fitImage re-encodes src until it fits: first at the largest allowed size,
// lowering JPEG quality, then at three quarters of the size each round.
// Transparent images stay PNG because JPEG would turn clear areas black.
// Opaque PNGs and GIFs try PNG first: they are mostly screenshots and
// diagrams, where JPEG blurs text, and the model is charged by pixels, not
// bytes; photos that don't fit as PNG fall back to JPEG.
func fitImage(ctx context.Context, name string, src image.Image, orient int, mime string, lim sizeLimits) ([]byte, string, image.Image, error) {
	alpha := hasAlpha(src)
	ow, oh := orientedSize(src.Bounds().Dx(), src.Bounds().Dy(), orient)
	tw, th := fitSize(ow, oh, lim.maxEdge)
	var buf bytes.Buffer
	for {
		m := render(src, orient, tw, th)
		if alpha || mime == "image/png" || mime == "image/gif" {
			buf.Reset()
			if err := png.Encode(&buf, m); err != nil {
				return nil, "", nil, err
			}
			if lim.fits(tw, th, buf.Len()) {
				return bytes.Clone(buf.Bytes()), "image/png", m, nil
			}
		}
		if !alpha {
			for _, q := range []int{85, 70, 55} {
				buf.Reset()
				if err := jpeg.Encode(&buf, m, &jpeg.Options{Quality: q}); err != nil {
					return nil, "", nil, err
				}
				if lim.fits(tw, th, buf.Len()) {
					return bytes.Clone(buf.Bytes()), "image/jpeg", m, nil
				}
			}
		}
		if err := ctx.Err(); err != nil {
			return nil, "", nil, err
		}
		if max(tw, th) <= minEdge {
			return nil, "", nil, newAttachmentError(name, AttachTooLarge, "the image can't be made small enough to send", nil)
		}
		tw, th = fitSize(tw, th, max(tw, th)*3/4)
	}
}

// render produces the upright image at tw×th (display orientation),
// scaling before rotating so the rotation copies the fewest pixels.
func render(src image.Image, orient, tw, th int) image.Image {
	pw, ph := orientedSize(tw, th, orient)
	m := src
	if sb := src.Bounds(); pw != sb.Dx() || ph != sb.Dy() {
		m = resample(src, pw, ph)
	}
	if orient <= 1 {
		return m
	}
	return applyOrientation(toRGBA(m), orient)
}

func toRGBA(m image.Image) *image.RGBA {
	if r, ok := m.(*image.RGBA); ok {
		return r
	}
	b := m.Bounds()
	r := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(r, r.Bounds(), m, b.Min, draw.Src)
	return r
}

// fitSize scales w×h down, keeping the aspect ratio, so the long edge is
// at most edge; it never scales up.
func fitSize(w, h, edge int) (int, int) {
	if w <= edge && h <= edge {
		return w, h
	}
	if w >= h {
		return edge, max(1, (h*edge+w/2)/w)
	}
	return max(1, (w*edge+h/2)/h), edge
}

func hasAlpha(m image.Image) bool {
	switch m.(type) {
	case *image.YCbCr, *image.Gray, *image.Gray16, *image.CMYK:
		return false
	}
	if o, ok := m.(interface{ Opaque() bool }); ok {
		return !o.Opaque()
	}
	return true // unknown: keep PNG rather than risk losing transparency
}

func thumbnail(m image.Image) ([]byte, error) {
	w, h := m.Bounds().Dx(), m.Bounds().Dy()
	if tw, th := fitSize(w, h, thumbEdge); tw != w || th != h {
		m = resample(m, tw, th)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, m); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
