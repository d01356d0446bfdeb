package images

import (
	"bytes"
	"encoding/binary"
	"net/http"
	"strings"
)

// fileKind is what the first bytes of a file say it is. The article is kept
// with the description so messages read naturally ("an HTML page").
type fileKind struct {
	mime      string
	supported bool
	desc      string
	article   string
}

func (k fileKind) phrase() string { return k.article + " " + k.desc }

// SniffKind identifies data by its content, never by a file name, because
// names lie: screenshots saved as .jpg are often PNGs, downloads lose their
// extension. supported reports whether the agent can take it as an image;
// description is a short noun phrase such as "PNG image" or "PDF document",
// empty when nothing is recognised.
func SniffKind(data []byte) (mime string, supported bool, description string) {
	k := sniff(data)
	return k.mime, k.supported, k.desc
}

func sniff(data []byte) fileKind {
	switch {
	case len(data) == 0:
		return fileKind{desc: "empty file", article: "an"}
	case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
		return fileKind{"image/png", true, "PNG image", "a"}
	case bytes.HasPrefix(data, []byte("\xff\xd8\xff")):
		return fileKind{"image/jpeg", true, "JPEG image", "a"}
	case bytes.HasPrefix(data, []byte("GIF87a")), bytes.HasPrefix(data, []byte("GIF89a")):
		return fileKind{"image/gif", true, "GIF image", "a"}
	case len(data) >= 16 && string(data[:4]) == "RIFF" && string(data[8:12]) == "WEBP":
		// x/image/webp decodes only still images; an animation would fail
		// later as "corrupt", which would be wrong and unhelpful.
		const vp8xAnimation = 1 << 1
		if string(data[12:16]) == "VP8X" && len(data) > 20 && data[20]&vp8xAnimation != 0 {
			return fileKind{"image/webp", false, "animated WebP image", "an"}
		}
		return fileKind{"image/webp", true, "WebP image", "a"}
	}
	if k, ok := sniffUnsupported(data); ok {
		return k
	}
	return sniffOther(data)
}

// sniffUnsupported recognises image formats people commonly try to attach
// (camera output, design files) so the error can name them.
func sniffUnsupported(data []byte) (fileKind, bool) {
	has := func(prefix string) bool { return bytes.HasPrefix(data, []byte(prefix)) }
	switch {
	case isBMP(data):
		return fileKind{"image/bmp", false, "BMP image", "a"}, true
	case has("II*\x00"), has("MM\x00*"):
		return fileKind{"image/tiff", false, "TIFF image", "a"}, true
	case has("\xff\x0a"), has("\x00\x00\x00\x0cJXL \r\n\x87\n"):
		return fileKind{"image/jxl", false, "JPEG XL image", "a"}, true
	case has("\x00\x00\x00\x0cjP  \r\n\x87\n"), has("\xff\x4f\xff\x51"):
		return fileKind{"image/jp2", false, "JPEG 2000 image", "a"}, true
	case has("8BPS"):
		return fileKind{"image/vnd.adobe.photoshop", false, "Photoshop document", "a"}, true
	case has("qoif"):
		return fileKind{"image/qoi", false, "QOI image", "a"}, true
	case len(data) >= 6 && has("\x00\x00\x01\x00") && data[4]|data[5] != 0:
		return fileKind{"image/x-icon", false, "ICO icon", "an"}, true
	}
	if k, ok := sniffISOBMFF(data); ok {
		return k, true
	}
	if isSVG(data) {
		return fileKind{"image/svg+xml", false, "SVG image", "an"}, true
	}
	return fileKind{}, false
}

// isBMP also checks the DIB header size, because "BM" alone matches any
// text that starts with those letters.
func isBMP(data []byte) bool {
	if len(data) < 18 || string(data[:2]) != "BM" {
		return false
	}
	switch binary.LittleEndian.Uint32(data[14:18]) {
	case 12, 16, 40, 52, 56, 64, 108, 124:
		return true
	}
	return false
}

// sniffISOBMFF finds HEIC (the iPhone camera default) and AVIF, which
// share MP4's container and would otherwise be reported as video.
func sniffISOBMFF(data []byte) (fileKind, bool) {
	if len(data) < 16 || string(data[4:8]) != "ftyp" {
		return fileKind{}, false
	}
	end := min(int(binary.BigEndian.Uint32(data[:4])), len(data), 256)
	heif := false
	for off := 8; off+4 <= end; off += 4 {
		if off == 12 {
			continue // minor version, not a brand
		}
		switch string(data[off : off+4]) {
		case "avif", "avis":
			return fileKind{"image/avif", false, "AVIF image", "an"}, true
		case "heic", "heix", "hevc", "hevx", "heim", "heis", "hevm", "hevs", "mif1", "msf1":
			heif = true
		}
	}
	if heif {
		return fileKind{"image/heic", false, "HEIC image", "a"}, true
	}
	return fileKind{}, false
}

func isSVG(data []byte) bool {
	head := data[:min(len(data), 4096)]
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	head = bytes.TrimLeft(head, " \t\r\n")
	return len(head) > 0 && head[0] == '<' && bytes.Contains(bytes.ToLower(head), []byte("<svg"))
}

// notImage describes common non-images for "not an image (looks like …)",
// keyed by http.DetectContentType's answer or a prefix of it.
var notImage = []struct{ prefix, article, desc string }{
	{"application/pdf", "a", "PDF document"},
	{"application/postscript", "a", "PostScript document"},
	{"application/zip", "a", "ZIP archive or Office document"},
	{"application/x-gzip", "a", "gzip archive"},
	{"application/x-rar-compressed", "a", "RAR archive"},
	{"application/wasm", "a", "WebAssembly module"},
	{"application/vnd.ms-fontobject", "a", "font"},
	{"application/ogg", "an", "audio or video file"},
	{"font/", "a", "font"},
	{"audio/", "an", "audio file"},
	{"video/", "a", "video"},
	{"text/html", "an", "HTML page"},
	{"text/xml", "an", "XML document"},
	{"text/plain", "a", "text file"},
}

// magicOther covers binaries DetectContentType lumps together as
// application/octet-stream.
var magicOther = []struct{ magic, mime, article, desc string }{
	{"7z\xbc\xaf\x27\x1c", "application/x-7z-compressed", "a", "7-Zip archive"},
	{"\x7fELF", "application/x-executable", "a", "program"},
	{"MZ", "application/x-msdownload", "a", "Windows program"},
	{"\xcf\xfa\xed\xfe", "application/x-mach-binary", "a", "macOS program"},
	{"SQLite format 3\x00", "application/vnd.sqlite3", "a", "SQLite database"},
}

func sniffOther(data []byte) fileKind {
	for _, m := range magicOther {
		if bytes.HasPrefix(data, []byte(m.magic)) {
			return fileKind{mime: m.mime, desc: m.desc, article: m.article}
		}
	}
	mime, _, _ := strings.Cut(http.DetectContentType(data), ";")
	for _, n := range notImage {
		if strings.HasPrefix(mime, n.prefix) {
			return fileKind{mime: mime, desc: n.desc, article: n.article}
		}
	}
	if sub, ok := strings.CutPrefix(mime, "image/"); ok {
		// An image type the switch above missed; naming it beats "unknown".
		return fileKind{mime: mime, desc: strings.ToUpper(strings.TrimPrefix(sub, "x-")) + " image", article: "a"}
	}
	return fileKind{mime: mime}
}
